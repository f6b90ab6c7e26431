#!/usr/bin/env bash
# Installs everything the editor tests need, idempotently, without touching
# the system beyond apt packages (chromium, libkrb5-dev; nodejs and npm only
# where npm is missing): Node.js 24, the VS Code extension's node_modules
# (`npm ci` when package-lock.json changed), a current Neovim, and
# code-server. Caches live under ${AISBX_CI_CACHE:-$HOME/.cache/aisbx-ci}.
# Debian's Neovim 0.7.2 comes from scripts/setup.sh (apt neovim).
#
# Usage: scripts/editors/setup.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

step() {
	local name=$1
	shift
	local start=$SECONDS
	"$@" >/dev/null
	echo "[editors] $name ready ($((SECONDS - start)) s)"
}

step "node 24" "$here/node.sh"
node_bin=$("$here/node.sh")

vscode_deps() (
	cd "$root/editors/vscode"
	if [ -f node_modules/.package-lock.json ] && [ node_modules/.package-lock.json -nt package-lock.json ]; then
		exit 0
	fi
	PATH="$node_bin:$PATH" npm ci --no-audit --no-fund --loglevel=error >&2
)
step "editors/vscode/node_modules" vscode_deps
step "current Neovim" "$here/nvim-current.sh"
step "code-server and chromium" "$here/code-server.sh"
