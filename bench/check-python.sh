#!/usr/bin/env bash
# bench/check-python.sh — `aisbxd check` with bandit over a Python tree: the
# CI path on a Python project. Three variants, rounds interleaved:
#   batched     aisbx's checks plus bandit, many files per bandit process
#               (what `aisbxd check` does)
#   per-file    the same, one bandit process per file (AISBX_BENCH_BATCH=0:
#               what the editor does, one file at a time, and what the CLI
#               did before batches)
#   bandit      `bandit -r` alone over the tree: what a user would run
# The tree is a copy of CPython's standard library without its tests
# (587 files with Python 3.11).
#
#   bench/check-python.sh [ROUNDS]   (default 3)
set -euo pipefail
rounds=${1:-3}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${AISBX_BENCH_DIR:-/tmp/aisbx-bench-check-python}
tree=$work/pystdlib
mkdir -p "$work"
if [ ! -d "$tree" ]; then
	stdlib=$(python3 -c "import sysconfig; print(sysconfig.get_paths()['stdlib'])")
	mkdir -p "$tree"
	(cd "$stdlib" && find . -name '*.py' -not -path '*/test/*' -not -path '*/tests/*' -not -path '*/site-packages/*' \
		-not -path '*/idlelib/*' -not -path '*/lib2to3/*' -not -path '*/tkinter/*' -print0 |
		tar --null -T - -cf - | tar -xf - -C "$tree")
fi
command -v bandit >/dev/null || { echo "bandit is not installed (apt-get install -y bandit)" >&2; exit 1; }
printf '[checks]\nenabled = ["secrets", "dangerous", "deps", "linters"]\n[linters]\nenabled = ["bandit"]\n' >"$work/bandit.toml"
(cd "$repo" && go test -c -o "$work/cli.test" ./internal/cli)
echo "tree: $tree ($(find "$tree" -name '*.py' | wc -l) .py files, $(du -sb "$tree" | cut -f1) bytes), $(nproc) cores, $(bandit --version 2>/dev/null | head -1)"

results=$work/results.tsv
: >"$results"
# The last line: time prints "Command exited with non-zero status" first
# when bandit finds something.
cpu() { tail -1 "$work/time.txt" | awk '{printf "%.2f", $2 + $3}'; }
aisbx() { # variant batch
	local line
	line=$(cd "$work" && AISBX_BENCH_BATCH=$2 AISBX_BENCH_TREE=$tree AISBX_BENCH_CONFIG=$work/bandit.toml \
		/usr/bin/time -f '%e %U %S' -o "$work/time.txt" \
		"$work/cli.test" -test.run '^$' -test.bench '^BenchmarkCheckTree$' -test.benchtime 1x | grep '^BenchmarkCheckTree')
	awk -v v="$1" -v cpu="$(cpu)" '{for (i = 3; i < NF; i++) m[$(i+1)] = $i; printf "%s\t%.3f\t%s\t%d\t%d\n", v, m["ns/op"]/1e9, cpu, m["findings"], m["check-errors"]}' <<<"$line" | tee -a "$results"
}
banditAlone() {
	/usr/bin/time -f '%e %U %S' -o "$work/time.txt" bandit -q -r -f json -o "$work/bandit.json" "$tree" >/dev/null 2>&1 || true
	printf 'bandit\t%s\t%s\t%s\t0\n' "$(tail -1 "$work/time.txt" | awk '{print $1}')" "$(cpu)" \
		"$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['results']))" "$work/bandit.json")" | tee -a "$results"
}

printf 'variant\tseconds\tcpu_s\tfindings\tcheck_errors\n'
for r in $(seq "$rounds"); do
	aisbx batched 1
	aisbx per-file 0
	banditAlone
done

echo
echo "medians over $rounds rounds:"
python3 - "$results" <<'PY'
import statistics, sys, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    rows[f[0]].append(f)
wall = {v: statistics.median(float(r[1]) for r in rs) for v, rs in rows.items()}
cpu = {v: statistics.median(float(r[2]) for r in rs) for v, rs in rows.items()}
for v, rs in rows.items():
    print("  %-9s wall %7.2f s  cpu %7.2f s  (%s findings, %s check errors)" % (v, wall[v], cpu[v], rs[0][3], max(r[4] for r in rs)))
for v in ("per-file", "bandit"):
    if v in wall and "batched" in wall:
        print("  %s / batched: wall %.2fx  cpu %.2fx" % (v, wall[v] / wall["batched"], cpu[v] / cpu["batched"]))
PY
