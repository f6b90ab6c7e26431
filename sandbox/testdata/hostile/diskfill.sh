# Fills the work dir's tmpfs.
dd if=/dev/zero of="$AISBX_WORKDIR/fill" bs=1048576
