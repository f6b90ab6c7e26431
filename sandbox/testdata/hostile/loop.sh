# An endless loop.
while :; do :; done
