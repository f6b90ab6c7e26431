#!/usr/bin/env bash
# Installs the linters the tests of checks/linters run for real, at the
# versions the fixtures in out/ were captured with (see out/VERSIONS).
# ruff is not installable here (no Debian 12 package, no PyPI access), so it
# has no live test.
set -euo pipefail
ESLINT_DIR=${ESLINT_DIR:-$HOME/.cache/aisbx-lint-tools/eslint}
if ! command -v shellcheck >/dev/null || ! command -v bandit >/dev/null; then
	apt-get install -y -q shellcheck python3-bandit >/dev/null
fi
gobin=$(go env GOPATH)/bin
[ -x "$gobin/staticcheck" ] || go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
[ -x "$gobin/golangci-lint" ] || go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0
if [ ! -x "$ESLINT_DIR/node_modules/.bin/eslint" ]; then
	mkdir -p "$ESLINT_DIR"
	(cd "$ESLINT_DIR" && [ -f package.json ] || echo '{"private":true}' >package.json)
	(cd "$ESLINT_DIR" && npm install --no-audit --no-fund -q eslint@10.15.0 @eslint/js@10.0.1 >/dev/null)
fi
