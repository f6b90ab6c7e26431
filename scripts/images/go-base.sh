#!/usr/bin/env bash
# Builds aisbx-base/go: FROM scratch with a static busybox and a copy of
# the host Go toolchain (GOROOT of the `go` on PATH). No registry needed.
#
# Usage: scripts/images/go-base.sh [--force]
# Needs: docker, busybox-static, go.
. "$(dirname "$0")/lib.sh"
REF="${AISBX_GO_BASE:-aisbx-base/go:latest}"
skip_if_present "$REF"
need docker busybox go tar

BUSYBOX=$(command -v busybox)
if ! file "$BUSYBOX" 2>/dev/null | grep -q 'statically linked'; then
	[ -x /bin/busybox ] && BUSYBOX=/bin/busybox
fi
GOROOT_HOST=$(go env GOROOT)
GOVERSION=$(go env GOVERSION)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
mkdir -p "$root/bin" "$root/tmp" "$root/etc" "$root/usr/local" "$root/home/aisbx"
chmod 1777 "$root/tmp"
cp "$BUSYBOX" "$root/bin/busybox"
for applet in $("$root/bin/busybox" --list); do
	[ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done
printf 'root:x:0:0:root:/root:/bin/sh\naisbx:x:10001:10001:aisbx:/home/aisbx:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\naisbx:x:10001:\n' >"$root/etc/group"
say "copying $GOROOT_HOST ($GOVERSION) without its test/ and doc/ trees"
tar -C "$(dirname "$GOROOT_HOST")" --exclude="$(basename "$GOROOT_HOST")/test" --exclude="$(basename "$GOROOT_HOST")/doc" \
	-cf - "$(basename "$GOROOT_HOST")" | tar -C "$root/usr/local" -xf -
[ "$(basename "$GOROOT_HOST")" = go ] || mv "$root/usr/local/$(basename "$GOROOT_HOST")" "$root/usr/local/go"

say "importing $REF"
tar --numeric-owner --owner=0 --group=0 -C "$root" -cf - . | docker import \
	--change 'ENV PATH=/usr/local/go/bin:/bin' \
	--change 'ENV GOROOT=/usr/local/go' \
	--change 'ENV CGO_ENABLED=0' \
	--change 'CMD ["/bin/sh"]' \
	--message "aisbx-base/go: busybox + host $GOVERSION" - "$REF" >/dev/null
say "built $REF ($(docker image inspect -f '{{.Id}}' "$REF" | cut -c1-19), $GOVERSION)"
