#!/usr/bin/env bash
# bench/secrets.sh: the secrets scanner side by side with gitleaks v8.30.1,
# in one run, on the same files and cores. Prints a Markdown table for
# BENCHMARKS.md.
#
#   bench/secrets.sh                 # full run (RUNS=3 over a copy of GOROOT/src)
#   RUNS=5 CLI_RUNS=30 bench/secrets.sh
#   TREE=/path/to/tree bench/secrets.sh
#
# Measures:
#   1. throughput (MB/s) over a copy of the Go source tree: aisbx's scanner
#      (checks/secrets/internal/secretscan, one worker per CPU) against
#      `gitleaks dir --max-target-megabytes 10`; median of RUNS, interleaved;
#   2. CLI wall time for one 0.3 KB and one 131 KB file, median of CLI_RUNS;
#   3. in-process on-save latency (p50/p95) through checks.Engine, from
#      `go test -bench BenchmarkOnSave`;
#   4. recall and false alarms of both tools on the planted corpus, from
#      TestCompareWithGitleaks.
# Needs: bash, go, awk; gitleaks v8.30.1 is installed if missing.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
CLI_RUNS=${CLI_RUNS:-20}
WORK=${WORK:-/tmp/aisbx-bench}
mkdir -p "$WORK"

GITLEAKS=${GITLEAKS:-$(command -v gitleaks || true)}
if [[ -z "$GITLEAKS" ]]; then
	GITLEAKS="$(go env GOPATH)/bin/gitleaks"
	if [[ ! -x "$GITLEAKS" ]]; then
		echo "installing gitleaks v8.30.1 into $(go env GOPATH)/bin (outside the module)" >&2
		(cd "$WORK" && GOBIN="$(go env GOPATH)/bin" GOFLAGS= go install github.com/zricethezav/gitleaks/v8@v8.30.1)
	fi
fi
"$GITLEAKS" version >/dev/null 2>&1 || { echo "gitleaks not runnable: $GITLEAKS" >&2; exit 2; }

go build -o "$WORK/secretscan" ./checks/secrets/internal/secretscan

TREE=${TREE:-$WORK/gosrc}
if [[ ! -d "$TREE" ]]; then
	cp -r "$(go env GOROOT)/src" "$TREE"
fi

# Inputs for the CLI runs: 300 bytes with secrets, 131 KB of Go source.
head -c 300 checks/secrets/testdata/corpus/settings.py >"$WORK/small.py"
cat "$(go env GOROOT)"/src/net/http/{server.go,transport.go} >"$WORK/big.src"
head -c 134144 "$WORK/big.src" >"$WORK/big.go"

ms_now() { date +%s%N; }
TIMEFORMAT='%U %S' # bash's time: user and system CPU seconds
median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# 1. Tree throughput, interleaved.
: >"$WORK/ours.wall"; : >"$WORK/gl.wall"; : >"$WORK/ours.cpu"; : >"$WORK/gl.cpu"
for ((i = 0; i < RUNS; i++)); do
	s=$(ms_now)
	{ time "$WORK/secretscan" -q -max-bytes $((10 << 20)) "$TREE" 2>"$WORK/ours.err" || true; } 2>"$WORK/t"
	echo $((($(ms_now) - s) / 1000000)) >>"$WORK/ours.wall"
	awk '{print $1+$2}' "$WORK/t" >>"$WORK/ours.cpu"
	s=$(ms_now)
	{ time "$GITLEAKS" dir --no-banner --exit-code 0 --max-target-megabytes 10 \
		--report-format json --report-path "$WORK/gl.json" "$TREE" 2>"$WORK/gl.err" || true; } 2>"$WORK/t"
	echo $((($(ms_now) - s) / 1000000)) >>"$WORK/gl.wall"
	awk '{print $1+$2}' "$WORK/t" >>"$WORK/gl.cpu"
done
ours_bytes=$(grep -o '[0-9]* bytes' "$WORK/ours.err" | head -1 | cut -d' ' -f1)
gl_bytes=$(grep -o 'scanned ~[0-9]* bytes' "$WORK/gl.err" | grep -o '[0-9]*' | head -1)
ours_ms=$(median <"$WORK/ours.wall"); gl_ms=$(median <"$WORK/gl.wall")
ours_cpu=$(median <"$WORK/ours.cpu"); gl_cpu=$(median <"$WORK/gl.cpu")
ours_mbs=$(awk -v b="$ours_bytes" -v ms="$ours_ms" 'BEGIN {printf "%.1f", b/1e6/(ms/1000)}')
gl_mbs=$(awk -v b="$gl_bytes" -v ms="$gl_ms" 'BEGIN {printf "%.1f", b/1e6/(ms/1000)}')
ratio=$(awk -v a="$ours_mbs" -v b="$gl_mbs" 'BEGIN {printf "%.1f", a/b}')

# 2. CLI time per file, interleaved.
for f in small.py big.go; do : >"$WORK/cli.ours.$f"; : >"$WORK/cli.gl.$f"; done
for ((i = 0; i < CLI_RUNS; i++)); do
	for f in small.py big.go; do
		s=$(ms_now); "$WORK/secretscan" -q "$WORK/$f" 2>/dev/null || true
		awk -v a="$s" -v b="$(ms_now)" 'BEGIN {printf "%.2f\n", (b-a)/1e6}' >>"$WORK/cli.ours.$f"
		s=$(ms_now); "$GITLEAKS" dir --no-banner --exit-code 0 --log-level error "$WORK/$f" >/dev/null 2>&1 || true
		awk -v a="$s" -v b="$(ms_now)" 'BEGIN {printf "%.2f\n", (b-a)/1e6}' >>"$WORK/cli.gl.$f"
	done
done

# 3. In-process on-save latency.
go test -run '^$' -bench 'BenchmarkOnSave' -benchtime 300x -count 1 ./checks/secrets/ >"$WORK/onsave.txt"

# 4. Recall and false alarms on the planted sets.
PATH="$(dirname "$GITLEAKS"):$PATH" go test -run 'TestCompareWithGitleaks' -count 1 -v ./checks/secrets/ >"$WORK/compare.txt" || true
total=$(grep '^SCORE TOTAL' "$WORK/compare.txt" || echo "SCORE TOTAL (comparison failed: see $WORK/compare.txt)")

cores=$(nproc)
echo
echo "## Secrets: aisbx vs gitleaks v8.30.1 ($(date -u +%Y-%m-%d), $cores cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "| Measure | aisbx | gitleaks | ratio |"
echo "|---|---|---|---|"
echo "| Tree throughput, $(basename "$TREE") (median of $RUNS) | $ours_mbs MB/s ($ours_bytes B in ${ours_ms} ms, CPU ${ours_cpu} s) | $gl_mbs MB/s ($gl_bytes B in ${gl_ms} ms, CPU ${gl_cpu} s) | ${ratio}x |"
for f in small.py big.go; do
	o=$(median <"$WORK/cli.ours.$f"); g=$(median <"$WORK/cli.gl.$f")
	echo "| CLI, one file of $(stat -c %s "$WORK/$f") B (median of $CLI_RUNS) | ${o} ms | ${g} ms | $(awk -v a="$g" -v b="$o" 'BEGIN {printf "%.1f", a/b}')x faster |"
done
awk '/^BenchmarkOnSave\// {
	split($1, n, "/"); sub(/-[0-9]+$/, "", n[2]);
	for (i = 1; i <= NF; i++) { if ($i == "p50-µs") p50 = $(i-1); if ($i == "p95-µs") p95 = $(i-1) }
	printf "| On-save in checks.Engine, %s (p50 / p95) | %.2f / %.2f ms | n/a (no daemon) | |\n", n[2], p50/1000, p95/1000
}' "$WORK/onsave.txt"
echo "$total" | awk '{
	for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	printf "| Planted secrets found (recall) | %s/%s | %s/%s | |\n", v["aisbx_found"], v["planted"], v["gitleaks_found"], v["planted"]
	printf "| False alarms on decoys | %s | %s | |\n", v["aisbx_false"], v["gitleaks_false"]
}'
echo
echo "Per-file scores: grep ^SCORE $WORK/compare.txt"
