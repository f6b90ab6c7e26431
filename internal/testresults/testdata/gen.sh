#!/bin/sh
# Regenerates testdata/fixtures by running the real tools over
# testdata/projects: go test -json, pytest with the aisbx plugin, the aisbx
# unittest runner, node --test, jest and vitest with the aisbx reporters.
#
# Needs: go, node (>= 20), python3 with pytest (Debian: apt-get install -y
# python3-pytest), and network access to the npm registry once, to install
# jest and vitest into $AISBX_JSDEPS (default /tmp/aisbx-jsdeps).
set -eu
cd "$(dirname "$0")/.."
deps=${AISBX_JSDEPS:-/tmp/aisbx-jsdeps}
if [ ! -x "$deps/node_modules/.bin/jest" ] || [ ! -x "$deps/node_modules/.bin/vitest" ]; then
	mkdir -p "$deps"
	(cd "$deps" && [ -f package.json ] || npm init -y >/dev/null)
	(cd "$deps" && npm install --no-audit --no-fund jest@29.7.0 vitest@2.1.9)
fi
AISBX_JSDEPS=$deps go test -count=1 -run '^TestGenerateFixtures$' -v . -args -regen
