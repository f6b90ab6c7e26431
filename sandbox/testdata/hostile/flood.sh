# 1 GiB of output.
head -c 1073741824 /dev/zero | tr '\0' 'x'
