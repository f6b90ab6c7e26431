#!/usr/bin/env bash
# bench/check-linters.sh — `aisbxd check` with a per-file linter over a tree:
# the CI path on a Python project (bandit) and on a JavaScript one (ESLint).
# Per tree, three variants, rounds interleaved:
#   batched     aisbx's checks plus the linter, 32 files per bandit process
#               (what `aisbxd check` does; ESLint 128 per process)
#   per-file    the same, one linter process per file (AISBX_BENCH_BATCH=0:
#               what the editor does, one file at a time, and what the CLI
#               did before batches)
#   alone       the linter alone over the tree (`bandit -r`, `eslint .`):
#               what a user would run
# Trees: CPython's standard library without its tests (587 files with
# Python 3.11); ESLint's own lib/ (389 files with ESLint 10.15.0, from
# checks/linters/testdata/install-tools.sh) under the linters test config.
#
#   bench/check-linters.sh [ROUNDS]   (default 3)
set -euo pipefail
rounds=${1:-3}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${AISBX_BENCH_DIR:-/tmp/aisbx-bench-check-linters}
mkdir -p "$work"

py=$work/pystdlib
if [ ! -d "$py" ]; then
	stdlib=$(python3 -c "import sysconfig; print(sysconfig.get_paths()['stdlib'])")
	mkdir -p "$py"
	(cd "$stdlib" && find . -name '*.py' -not -path '*/test/*' -not -path '*/tests/*' -not -path '*/site-packages/*' \
		-not -path '*/idlelib/*' -not -path '*/lib2to3/*' -not -path '*/tkinter/*' -print0 |
		tar --null -T - -cf - | tar -xf - -C "$py")
fi
command -v bandit >/dev/null || { echo "bandit is not installed (apt-get install -y bandit)" >&2; exit 1; }
printf '[checks]\nenabled = ["secrets", "dangerous", "deps", "linters"]\n[linters]\nenabled = ["bandit"]\n' >"$work/bandit.toml"

eslint_dir=${ESLINT_DIR:-$HOME/.cache/aisbx-lint-tools/eslint}
[ -x "$eslint_dir/node_modules/.bin/eslint" ] || bash "$repo/checks/linters/testdata/install-tools.sh"
js=$work/eslintlib
if [ ! -d "$js" ]; then
	mkdir -p "$js"
	cp -r "$eslint_dir/node_modules/eslint/lib/." "$js/"
	cp "$repo/checks/linters/testdata/src/js/eslint.config.js" "$js/"
	ln -s "$eslint_dir/node_modules" "$js/node_modules"
fi
printf '[checks]\nenabled = ["secrets", "dangerous", "deps", "linters"]\n[linters]\nenabled = ["eslint"]\n' >"$work/eslint.toml"

(cd "$repo" && go test -c -o "$work/cli.test" ./internal/cli)
echo "$(nproc) cores; $(bandit --version 2>/dev/null | head -1); eslint $("$js/node_modules/.bin/eslint" --version)"
echo "python tree: $py ($(find "$py" -name '*.py' | wc -l) files, $(du -sb "$py" | cut -f1) bytes)"
echo "js tree: $js ($(find "$js" -name '*.js' -not -path '*/node_modules/*' | wc -l) files, $(du -sb --exclude=node_modules "$js" | cut -f1) bytes)"

results=$work/results.tsv
: >"$results"
# The last line: time prints "Command exited with non-zero status" first
# when a linter exits 1 for its findings.
cpu() { tail -1 "$work/time.txt" | awk '{printf "%.2f", $2 + $3}'; }
wall() { tail -1 "$work/time.txt" | awk '{print $1}'; }
aisbx() { # name tree config batch
	local line
	line=$(cd "$work" && AISBX_BENCH_BATCH=$4 AISBX_BENCH_TREE=$2 AISBX_BENCH_CONFIG=$work/$3.toml \
		/usr/bin/time -f '%e %U %S' -o "$work/time.txt" \
		"$work/cli.test" -test.run '^$' -test.bench '^BenchmarkCheckTree$' -test.benchtime 1x | grep '^BenchmarkCheckTree')
	awk -v v="$1" -v cpu="$(cpu)" '{for (i = 3; i < NF; i++) m[$(i+1)] = $i; printf "%s\t%.3f\t%s\t%d\t%d\n", v, m["ns/op"]/1e9, cpu, m["findings"], m["check-errors"]}' <<<"$line" | tee -a "$results"
}
banditAlone() {
	/usr/bin/time -f '%e %U %S' -o "$work/time.txt" bandit -q -r -f json -o "$work/bandit.json" "$py" >/dev/null 2>&1 || true
	printf 'py alone\t%s\t%s\t%s\t0\n' "$(wall)" "$(cpu)" \
		"$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['results']))" "$work/bandit.json")" | tee -a "$results"
}
eslintAlone() {
	(cd "$js" && /usr/bin/time -f '%e %U %S' -o "$work/time.txt" node_modules/.bin/eslint --format json -o "$work/eslint.json" . >/dev/null 2>&1) || true
	printf 'js alone\t%s\t%s\t%s\t0\n' "$(wall)" "$(cpu)" \
		"$(python3 -c "import json,sys; print(sum(len(r['messages']) for r in json.load(open(sys.argv[1]))))" "$work/eslint.json")" | tee -a "$results"
}

printf 'variant\tseconds\tcpu_s\tfindings\tcheck_errors\n'
for r in $(seq "$rounds"); do
	aisbx "py batched" "$py" bandit 1
	aisbx "py per-file" "$py" bandit 0
	banditAlone
	aisbx "js batched" "$js" eslint 1
	aisbx "js per-file" "$js" eslint 0
	eslintAlone
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
    print("  %-12s wall %7.2f s  cpu %7.2f s  (%s findings, %s check errors)" % (v, wall[v], cpu[v], rs[0][3], max(r[4] for r in rs)))
for lang in ("py", "js"):
    b = lang + " batched"
    for v in (lang + " per-file", lang + " alone"):
        if v in wall and b in wall:
            print("  %s / %s: wall %.2fx  cpu %.2fx" % (v, b, wall[v] / wall[b], cpu[v] / cpu[b]))
PY
