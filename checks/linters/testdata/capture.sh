#!/usr/bin/env bash
# Re-captures the real tool outputs in out/ from the sources in src/. Run it
# after upgrading a linter, then `go test ./checks/linters -run Parsers
# -update` and review the diff of want/. Each command mirrors the argv the
# adapter uses. Outputs name files under $D; the tests substitute it.
#
# ESLINT_DIR must hold node_modules with eslint and @eslint/js (see
# install-tools.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
D=/tmp/aisbx-linters-capture
ESLINT_DIR=${ESLINT_DIR:-$HOME/.cache/aisbx-lint-tools/eslint}
rm -rf "$D" && mkdir -p "$D" && cp -r "$here/src/." "$D/"
ln -s "$ESLINT_DIR/node_modules" "$D/js/node_modules"
out="$here/out"
mkdir -p "$out"

capture() { # name dir stdin-file command...
	local name=$1 dir=$2 in=$3
	shift 3
	(cd "$dir" && if [ -n "$in" ]; then "$@" <"$in"; else "$@" </dev/null; fi) >"$out/$name.stdout" 2>"$out/$name.stderr"
	echo $? >"$out/$name.exit"
	echo "$name: exit $(cat "$out/$name.exit")"
}

PATH=$PATH:$(go env GOPATH)/bin
capture govet-gopkg "$D/gopkg" "" go vet -json .
capture govet-gobroken "$D/gobroken" "" go vet -json .
capture staticcheck-gopkg "$D/gopkg" "" staticcheck -f json .
capture staticcheck-gobroken "$D/gobroken" "" staticcheck -f json .
capture staticcheck-badconfig "$D/scconfig" "" staticcheck -f json .
gcl=(run --output.json.path=stdout --show-stats=false --path-mode=abs --allow-parallel-runners --issues-exit-code=0 .)
capture golangci-lint-gopkg "$D/gopkg" "" golangci-lint "${gcl[@]}"
capture golangci-lint-gobroken "$D/gobroken" "" golangci-lint "${gcl[@]}"
capture eslint-a "$D/js" "$D/js/a.js" "$D/js/node_modules/.bin/eslint" --format json-with-metadata --stdin --stdin-filename "$D/js/a.js"
capture eslint-broken "$D/js" "$D/js/broken.js" "$D/js/node_modules/.bin/eslint" --format json-with-metadata --stdin --stdin-filename "$D/js/broken.js"
capture shellcheck-a "$D/sh" "$D/sh/a.sh" shellcheck --format json1 -
capture shellcheck-noshebang "$D/sh" "$D/sh/noshebang.bash" shellcheck --format json1 --shell bash -
capture bandit-a "$D/py" "" bandit -f json -q "$D/py/a.py"
capture bandit-broken "$D/py" "" bandit -f json -q "$D/py/broken.py"
# Versions, for the record.
{
	go version
	staticcheck -version
	golangci-lint --version
	"$D/js/node_modules/.bin/eslint" --version
	shellcheck --version | sed -n 2p
	bandit --version | head -1
} >"$out/VERSIONS" 2>&1
