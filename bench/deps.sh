#!/usr/bin/env bash
# bench/deps.sh — cost of the dependency check (checks/deps), and side by
# side, the toolchains answering the same question: do these imports
# resolve? Run it on a quiet machine; medians of ROUNDS runs are printed.
#
#   bench/deps.sh [ROUNDS]        (default 5)
#
# 1. The Go benchmarks of checks/deps: per-import resolution (warm), a full
#    Check.Run on typical files (every import resolves) and on the fixtures
#    (about half hallucinated), the import lexers against a tree-sitter parse
#    of the same 131 KB file, look-alike judging, and a manifest run.
# 2. Reference points, same imports each side:
#    go      every non-test .go file of checks/deps (BenchmarkRunGoRepo)
#            vs `go list -e` of those files' imports in this module
#    python  testdata/py/proj/src/mypkg/service.py (BenchmarkRunPythonTypical)
#            vs python3 importlib.util.find_spec of its modules
#    node    testdata/js/proj/src/components/List.tsx (BenchmarkRunTSXTypical)
#            vs node require.resolve of its specifiers
#    The toolchains pay their start-up on every question; an editor check
#    would too, which is the point of resolving in-process.
set -euo pipefail
rounds=${1:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${AISBX_BENCH_DIR:-/tmp/aisbx-bench-deps}
mkdir -p "$work"
cd "$repo"

echo "== go test -bench ./checks/deps ($rounds rounds, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
go test -run '^$' -bench . -benchmem -count "$rounds" ./checks/deps/ | tee "$work/bench.txt" | grep -E '^(Benchmark|ok|FAIL)' >/dev/null
# Median ns/op per benchmark.
awk '/^Benchmark/ {name=$1; sub(/-[0-9]+$/, "", name); for (i = 3; i < NF; i++) if ($(i+1) == "ns/op") v[name] = v[name] " " $i}
	END {for (n in v) {k = split(substr(v[n], 2), a, " "); for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) {t = a[i]; a[i] = a[j]; a[j] = t}
		printf "%-40s %14.1f ns/op (median of %d)\n", n, (k % 2 ? a[(k+1)/2] : (a[k/2] + a[k/2+1]) / 2), k}}' "$work/bench.txt" | sort | tee "$work/medians.txt"

median_ms() { # command... : median wall time in ms over $rounds runs
	local ts=()
	for _ in $(seq "$rounds"); do
		local s e
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1 || true
		e=$(date +%s%N)
		ts+=($(((e - s) / 1000)))
	done
	printf '%s\n' "${ts[@]}" | sort -n | awk '{a[NR] = $1} END {m = (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2); printf "%.2f", m / 1000}'
}
ours_ms() { awk -v n="$1" '$1 == n {printf "%.4f", $2 / 1e6}' "$work/medians.txt"; }

echo
echo "== side by side (median ms; ratio = toolchain / aisbx)"
goimps=$(go list -f '{{join .Imports " "}}' ./checks/deps)
tool_go=$(median_ms env GOFLAGS=-mod=mod GOPROXY=off go list -e -f '{{if .Error}}{{.ImportPath}}: {{.Error}}{{end}}' $goimps)
pymods="__future__ json logging os dataclasses datetime pathlib typing requests yaml dateutil mypkg"
tool_py=$(cd checks/deps/testdata/py/proj/src && median_ms python3 -c "import importlib.util as u
for m in '$pymods'.split():
    try: u.find_spec(m)
    except Exception: pass")
jsspecs="'react','react-dom/client','lodash/debounce','@acme/ui','@app/utils'"
tool_js=$(cd checks/deps/testdata/js/proj/src/components && median_ms node -e "for (const s of [$jsspecs]) { try { require.resolve(s) } catch (e) {} }")
printf '%-8s %-44s %10s ms   %-40s %10s ms   x%s\n' \
	go "go list -e ($(wc -w <<<"$goimps") imports)" "$tool_go" "BenchmarkRunGoRepo" "$(ours_ms BenchmarkRunGoRepo)" "$(awk -v a="$tool_go" -v b="$(ours_ms BenchmarkRunGoRepo)" 'BEGIN {printf "%.0f", a / b}')" \
	python "importlib.util.find_spec ($(wc -w <<<"$pymods") modules)" "$tool_py" "BenchmarkRunPythonTypical" "$(ours_ms BenchmarkRunPythonTypical)" "$(awk -v a="$tool_py" -v b="$(ours_ms BenchmarkRunPythonTypical)" 'BEGIN {printf "%.0f", a / b}')" \
	node "require.resolve (5 specifiers)" "$tool_js" "BenchmarkRunTSXTypical" "$(ours_ms BenchmarkRunTSXTypical)" "$(awk -v a="$tool_js" -v b="$(ours_ms BenchmarkRunTSXTypical)" 'BEGIN {printf "%.0f", a / b}')" | tee "$work/side-by-side.txt"
