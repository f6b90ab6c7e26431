#!/usr/bin/env bash
# Reproduces the watcher figures for BENCHMARKS.md, side by side with
# inotifywait -r (inotify-tools), the reference for recursive inotify setup.
#
#   bench/watcher.sh [FILES] [ROUNDS]     defaults: 100000 files, 5 rounds
#
# It builds a FILES-file tree (50 files per directory, three levels) in a
# temporary directory, then, interleaved ROUNDS times:
#   - aisbx: BenchmarkSetup100k (New returns: every directory watched, every
#     file stat'ed; heap and RSS the watcher keeps);
#   - inotifywait -r -m: time until "Watches established.", and its RSS;
# and once: BenchmarkLatency (write -> batch, p50/p95) and BenchmarkBurst1000
# (1,000 writes over 200 files -> all delivered). Medians are printed last.
# Run it on a quiet machine: the numbers are wall-clock.
set -euo pipefail
cd "$(dirname "$0")/.."
FILES=${1:-100000}
ROUNDS=${2:-5}
if ! command -v inotifywait >/dev/null; then
	echo "installing inotify-tools for the reference measurement" >&2
	apt-get install -y inotify-tools >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y inotify-tools >/dev/null; }
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tree="$work/tree"
mkdir -p "$tree"
echo "building a $FILES-file tree in $tree ..." >&2
AISBX_MAKE_TREE="$tree" AISBX_MAKE_TREE_FILES="$FILES" go test -count=1 -run '^TestMakeBenchTree$' ./watcher >/dev/null
go test -c -o "$work/watcher.test" ./watcher
# Warm the page cache once, as an editor's first walk would.
find "$tree" -type f | wc -l >&2

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
: >"$work/aisbx-ms" >"$work/aisbx-heap" >"$work/aisbx-rss" >"$work/iw-ms" >"$work/iw-rss"
for r in $(seq "$ROUNDS"); do
	out=$(AISBX_BENCH_TREE="$tree" "$work/watcher.test" -test.run '^$' -test.bench '^BenchmarkSetup100k$' -test.benchtime 1x)
	line=$(grep '^BenchmarkSetup100k' <<<"$out")
	awk '{print $3/1e6}' <<<"$line" >>"$work/aisbx-ms"
	grep -o '[0-9.]* heap-B' <<<"$line" | awk '{print $1/1048576}' >>"$work/aisbx-heap"
	grep -o '[0-9.]* rss-B' <<<"$line" | awk '{print $1/1048576}' >>"$work/aisbx-rss"

	err="$work/iw.err"
	: >"$err"
	start=$(date +%s%N)
	inotifywait -r -m "$tree" >/dev/null 2>"$err" &
	pid=$!
	until grep -q 'Watches established' "$err"; do sleep 0.002; done
	end=$(date +%s%N)
	echo "scale=1; ($end-$start)/1000000" | bc >>"$work/iw-ms"
	awk '/VmRSS/ {print $2/1024}' "/proc/$pid/status" >>"$work/iw-rss"
	kill "$pid"; wait "$pid" 2>/dev/null || true
	echo "round $r: aisbx $(tail -1 "$work/aisbx-ms") ms, inotifywait $(tail -1 "$work/iw-ms") ms" >&2
done
"$work/watcher.test" -test.run '^$' -test.bench 'BenchmarkLatency|BenchmarkBurst1000' -test.benchtime 50x | grep '^Benchmark'

a=$(median <"$work/aisbx-ms"); i=$(median <"$work/iw-ms")
echo
echo "watch setup, $FILES files, median of $ROUNDS interleaved rounds:"
printf '  aisbx watcher   %8.1f ms   heap %6.1f MiB   rss +%6.1f MiB\n' "$a" "$(median <"$work/aisbx-heap")" "$(median <"$work/aisbx-rss")"
printf '  inotifywait -r  %8.1f ms                    rss  %6.1f MiB (whole process)\n' "$i" "$(median <"$work/iw-rss")"
printf '  ratio aisbx/inotifywait: %.2f (aisbx also stats every file and applies .gitignore)\n' "$(echo "scale=4; $a/$i" | bc)"
