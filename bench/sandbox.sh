#!/usr/bin/env bash
# Reproduces the sandbox figures of BENCHMARKS.md, side by side in one run:
#   - time to start: warm pool (API exec) against `docker run --rm` with the
#     same hardening through the CLI;
#   - `go test` on a small module in the sandbox against the host;
#   - the pool refill rate and the memory of a process holding a pool of 4;
#   - the Go micro-benchmarks of the hot paths (snapshot tar, output capture,
#     a warm run).
# Run it on a quiet machine: other load skews every figure.
#
# Usage: bench/sandbox.sh [ROUNDS]   (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-20}"
docker info >/dev/null 2>&1 || { echo "bench/sandbox.sh: no Docker engine (start dockerd)" >&2; exit 1; }
scripts/images/go-base.sh
go run ./sandbox/internal/sbxbench -rounds "$rounds"
echo
echo "## Go benchmarks"
echo
echo '```'
go test -run '^$' -bench 'BenchmarkSnapshotTar|BenchmarkCapture|BenchmarkRunWarm' -benchtime 20x -count 1 ./sandbox/ | grep -E '^(Benchmark|ok)'
echo '```'
