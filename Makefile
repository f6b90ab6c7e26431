# aisbx: `make install && aisbxd doctor` to install and check; `make test` to
# set up a fresh machine (packages, Docker engine, base images) and run every
# test. See README.md.

PREFIX ?= /usr/local
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/aisbx/aisbx/internal/version.Version=$(VERSION)

.PHONY: build install setup test test-go fuzz bench vet clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/aisbxd ./cmd/aisbxd

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 bin/aisbxd $(DESTDIR)$(PREFIX)/bin/aisbxd
	@echo "installed $(DESTDIR)$(PREFIX)/bin/aisbxd; editors: see README.md"

# Idempotent machine set-up for the tests (needs root or sudo).
setup:
	scripts/setup.sh

# The test command of the README and of .ci/run.
test: setup vet test-go fuzz

vet:
	$(GO) vet ./...

test-go:
	$(GO) test -race -timeout 30m ./...

# A short fuzzing pass over framing and dispatch.
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzReader -fuzztime 10s ./internal/frame/
	$(GO) test -run '^$$' -fuzz FuzzDispatch -fuzztime 15s ./lsp/

bench:
	$(GO) test -run '^$$' -bench . -benchtime 1x ./...

clean:
	rm -rf bin
