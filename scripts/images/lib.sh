# shellcheck shell=bash
# Shared helpers for the scripts that build aisbx's air-gapped base images.
# Sourced, not run. Every script is idempotent: it skips an image that
# exists unless --force is given, and caches slow downloads under CACHE_DIR.

set -euo pipefail

FORCE=0
for arg in "$@"; do
	case "$arg" in
	--force) FORCE=1 ;;
	-h | --help)
		sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
		exit 0
		;;
	*)
		echo "$(basename "$0"): unknown argument $arg (only --force)" >&2
		exit 2
		;;
	esac
done

CACHE_DIR="${AISBX_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/aisbx/images}"
mkdir -p "$CACHE_DIR"

say() { echo "[$(basename "$0" .sh)] $*"; }

need() {
	for tool in "$@"; do
		command -v "$tool" >/dev/null 2>&1 || {
			echo "$(basename "$0"): $tool is required (apt-get install -y $(pkg_for "$tool"))" >&2
			exit 1
		}
	done
}

pkg_for() {
	case "$1" in
	busybox) echo busybox-static ;;
	docker) echo docker.io ;;
	*) echo "$1" ;;
	esac
}

# image_exists REF: true when the engine has REF.
image_exists() { docker image inspect "$1" >/dev/null 2>&1; }

# skip_if_present REF: exit 0 early unless --force.
skip_if_present() {
	if [ "$FORCE" = 0 ] && image_exists "$1"; then
		say "$1 exists ($(docker image inspect -f '{{.Id}}' "$1" | cut -c1-19)); skipping (use --force to rebuild)"
		exit 0
	fi
}

# debian_mirror comes from scripts/lib/debian.sh.
# shellcheck source=../lib/debian.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/debian.sh"

# debian_rootfs prints the path of a cached tarball of a minimal Debian 12
# with python3 and pytest, building it with debootstrap on first use.
debian_rootfs() {
	local tarball="$CACHE_DIR/debian-bookworm-minbase-python3-pytest.tar"
	if [ -s "$tarball" ] && [ "$FORCE" = 0 ]; then
		say "using cached Debian rootfs $tarball" >&2
		echo "$tarball"
		return
	fi
	need debootstrap tar
	local mirror work
	mirror=$(debian_mirror)
	work=$(mktemp -d "$CACHE_DIR/debootstrap.XXXXXX")
	say "debootstrap bookworm (minbase, python3, python3-pytest) from $mirror" >&2
	if ! debootstrap --variant=minbase --include=python3,python3-pytest bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1; then
		tail -n 20 "$work/debootstrap.log" >&2
		rm -rf "$work"
		echo "$(basename "$0"): debootstrap failed (log above)" >&2
		exit 1
	fi
	rm -rf "${work:?}/rootfs/var/cache/apt/archives/"*.deb "${work:?}/rootfs/var/lib/apt/lists/"* 2>/dev/null || true
	tar --numeric-owner -C "$work/rootfs" -cf "$tarball.tmp" .
	mv "$tarball.tmp" "$tarball"
	rm -rf "$work"
	say "cached Debian rootfs at $tarball ($(du -h "$tarball" | cut -f1))" >&2
	echo "$tarball"
}
