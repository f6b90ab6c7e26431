#!/usr/bin/env bash
# bench/check.sh — throughput of `aisbxd check` (the engine checks/builtin
# assembles) over a copy of the Go source tree, side by side with gitleaks
# v8.30.1 on the same files and cores. Rounds are interleaved; medians and
# ratios are printed at the end.
#
#   bench/check.sh [ROUNDS]        (default 5; run it on a quiet machine)
#
# Besides wall time, CPU time (user+sys, from /usr/bin/time) is recorded:
# on a shared machine it is the steadier measure of work done.
#
# Variants:
#   builtin  every check but linters (secrets, dangerous, deps, vulns)
#   secrets  the secrets check alone: the like-for-like comparison with gitleaks
# The aisbx runs go through internal/cli's BenchmarkCheckTree (cmdCheck via
# Main, JSON report to a file), one whole run per measurement.
set -euo pipefail
rounds=${1:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${AISBX_BENCH_DIR:-/tmp/aisbx-bench-check}
tree=$work/gosrc-text
mkdir -p "$work"
# The same files for both tools: the Go source tree's text files up to
# checks.max_file_size (2 MiB), without vendor/ (aisbx never enters it).
if [ ! -d "$tree" ]; then
	mkdir -p "$tree"
	(cd "$(go env GOROOT)/src" && find . -type f -size -2049k -not -path '*/vendor/*' -print0 |
		xargs -0 grep -IlZ '' | tar --null -T - -cf - | tar -xf - -C "$tree")
fi
printf '[checks]\nenabled = ["secrets", "dangerous", "deps", "vulns"]\n' >"$work/builtin.toml"
printf '[checks]\nenabled = ["secrets"]\n' >"$work/secrets.toml"

(cd "$repo" && go test -c -o "$work/cli.test" ./internal/cli)
gitleaks=$(command -v gitleaks || true)
if [ -z "$gitleaks" ]; then
	gitleaks=$(go env GOPATH)/bin/gitleaks
	[ -x "$gitleaks" ] || go install github.com/zricethezav/gitleaks/v8@v8.30.1
fi

echo "tree: $tree ($(find "$tree" -type f | wc -l) files, $(du -sb "$tree" | cut -f1) bytes), $(nproc) cores"
echo "gitleaks: $("$gitleaks" version)"

results=$work/results.tsv
: >"$results"
cpu() { awk '{printf "%.2f", $2 + $3}' "$work/time.txt"; }
aisbx() { # variant
	local line
	line=$(cd "$work" && AISBX_BENCH_TREE=$tree AISBX_BENCH_CONFIG=$work/$1.toml /usr/bin/time -f '%e %U %S' -o "$work/time.txt" \
		"$work/cli.test" -test.run '^$' -test.bench '^BenchmarkCheckTree$' -test.benchtime 1x | grep '^BenchmarkCheckTree')
	# BenchmarkCheckTree-2  1  NS ns/op  BYTES bytes  FILES files  FINDINGS findings  FPS files/s  MBS MB/s
	awk -v v="$1" -v cpu="$(cpu)" '{for (i = 3; i < NF; i++) m[$(i+1)] = $i; printf "%s\t%.3f\t%s\t%d\t%d\t%.0f\t%.2f\t%d\t%d\n", v, m["ns/op"]/1e9, cpu, m["files"], m["findings"], m["files/s"], m["MB/s"], m["bytes"], m["check-errors"]}' <<<"$line" | tee -a "$results"
}
leaks() {
	/usr/bin/time -f '%e %U %S' -o "$work/time.txt" \
		"$gitleaks" dir --no-banner --log-level error --exit-code 0 --report-format json --report-path "$work/gitleaks.json" "$tree" >/dev/null 2>&1
	printf 'gitleaks\t%s\t%s\t\t%d\t\t\t\t\n' "$(awk '{print $1}' "$work/time.txt")" "$(cpu)" "$(grep -c '"RuleID"' "$work/gitleaks.json" || true)" | tee -a "$results"
}

printf 'variant\tseconds\tcpu_s\tfiles\tfindings\tfiles/s\tMB/s\tbytes\tcheck_errors\n'
for r in $(seq "$rounds"); do
	aisbx builtin
	aisbx secrets
	leaks
done

echo
echo "medians over $rounds rounds:"
python3 - "$results" <<'PY'
import statistics, sys, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    rows[f[0]].append(f)
wall, cpu = {}, {}
for v, rs in rows.items():
    wall[v] = statistics.median(float(r[1]) for r in rs)
    cpu[v] = statistics.median(float(r[2]) for r in rs)
    line = "  %-9s wall %7.2f s  cpu %7.2f s" % (v, wall[v], cpu[v])
    if rs[0][5]:
        mb = int(rs[0][7]) / 1e6
        line += "  %6.0f files/s  %6.2f MB/s wall  %6.2f MB/cpu-s  (%s files, %.1f MB, %s findings, %s check errors)" % (
            statistics.median(float(r[5]) for r in rs), statistics.median(float(r[6]) for r in rs),
            mb / cpu[v], rs[0][3], mb, rs[0][4], max(r[8] for r in rs))
    else:
        line += "  (%s findings)" % rs[0][4]
    print(line)
if "gitleaks" in wall:
    for v in ("builtin", "secrets"):
        if v in wall:
            print("  gitleaks / aisbx %-8s wall %.2fx  cpu %.2fx  (above 1: aisbx is faster)" % (v, wall["gitleaks"] / wall[v], cpu["gitleaks"] / cpu[v]))
PY
