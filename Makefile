# aisbx: `make install && aisbxd doctor` to install and check; `make test` to
# set up a fresh machine (packages, Docker engine, base images) and run every
# test. See README.md.

PREFIX ?= /usr/local
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/aisbx/aisbx/internal/version.Version=$(VERSION)

.PHONY: build install setup test test-go test-editors vscode-package fuzz bench vet clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/aisbxd ./cmd/aisbxd

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 bin/aisbxd $(DESTDIR)$(PREFIX)/bin/aisbxd
	@echo "installed $(DESTDIR)$(PREFIX)/bin/aisbxd; editors: see README.md"

# Idempotent machine set-up for the tests (needs root or sudo): packages,
# the Docker engine, base images, linters; then the editors the editor tests
# drive (Neovim 0.10 beside Debian's 0.7, node 24, code-server, Chromium).
setup:
	scripts/setup.sh

# The test command of the README and of .ci/run.
test: setup vet test-go fuzz

vet:
	$(GO) vet ./...

test-go:
	$(GO) test -race -timeout 30m ./...

# The real-editor tests alone (they are part of test-go too).
test-editors:
	$(GO) test -count=1 ./editors/...

# The VS Code extension's .vsix, built with the node 24 the tests use.
vscode-package:
	cd editors/vscode && PATH="$$(../../scripts/editors/node.sh):$$PATH" npm ci && PATH="$$(../../scripts/editors/node.sh):$$PATH" npm run package

# A short fuzzing pass over framing and dispatch.
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzReader -fuzztime 10s ./internal/frame/
	$(GO) test -run '^$$' -fuzz FuzzDispatch -fuzztime 15s ./lsp/

bench:
	$(GO) test -run '^$$' -bench . -benchtime 1x ./...

clean:
	rm -rf bin
