#!/usr/bin/env bash
# Reproduces the dangerous-pattern check's figures for BENCHMARKS.md:
#   1. per-file latency and throughput of checks/dangerous (go test -bench),
#      cold and after a one-line edit with the cached tree, per language;
#   2. aisbx side by side with gosec v2.30.0 (Go) and bandit (Python) in one
#      run: time on the planted corpus and on real trees, and recall and
#      false alarms on the corpus, every tool scored with the same
#      `want:` expectations.
# Run it on a quiet machine. Knobs: BENCHTIME (default 20x), COUNT (1),
# ROUNDS (7), TREE_ROUNDS (3), VERBOSE=1 to list every miss and false alarm.
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH="$PATH:$(go env GOPATH)/bin"
if ! command -v gosec >/dev/null; then
	echo "installing gosec v2.30.0 (outside this module)" >&2
	(cd /tmp && GOBIN="$(go env GOPATH)/bin" go install github.com/securego/gosec/v2/cmd/gosec@v2.30.0)
fi
if ! command -v bandit >/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "installing bandit from Debian" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y bandit >/dev/null
	else
		echo "bandit not found (apt-get install bandit); the Python comparison is skipped" >&2
	fi
fi

echo "## checks/dangerous: go test -bench"
echo
echo "cpu-ms/op is the process's CPU time per operation; on a shared machine it is steadier than wall time."
echo
echo "| benchmark | wall ms/op | MB/s | cpu ms/op | allocs/op |"
echo "|---|---:|---:|---:|---:|"
go test -run '^$' -bench 'BenchmarkRun$|BenchmarkRealFiles|BenchmarkIncremental|BenchmarkParseAllocator' \
	-benchtime "${BENCHTIME:-20x}" -count "${COUNT:-1}" -benchmem ./checks/dangerous/ |
	awk '/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
		wall = ""; mbs = ""; cpu = ""; allocs = ""
		for (i = 3; i < NF; i += 2) {
			if ($(i+1) == "ns/op") wall = sprintf("%.2f", $i / 1e6)
			if ($(i+1) == "MB/s") mbs = $i
			if ($(i+1) == "cpu-ms/op") cpu = $i
			if ($(i+1) == "allocs/op") allocs = $i
		}
		printf "| %s | %s | %s | %s | %s |\n", name, wall, mbs, cpu, allocs
	}'
echo

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/benchcmp" ./checks/dangerous/internal/benchcmp
args=(-testdata checks/dangerous/testdata -rounds "${ROUNDS:-7}" -tree-rounds "${TREE_ROUNDS:-3}")
command -v gosec >/dev/null && args+=(-gosec "$(command -v gosec)")
command -v bandit >/dev/null && args+=(-bandit "$(command -v bandit)")
[ "${VERBOSE:-}" = 1 ] && args+=(-v)
"$tmp/benchcmp" "${args[@]}"
