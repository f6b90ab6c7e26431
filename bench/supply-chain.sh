#!/usr/bin/env bash
# Supply-chain benchmark: dependency inventory and vulnerability matching on
# a 1,500-package package-lock.json, aisbx side by side with osv-scanner
# v2.6.0 in offline mode, on the same OSV database, in one interleaved run.
#
#   bench/supply-chain.sh [ROUNDS]        (default 9 rounds per tool)
#
# Needs: go; osv-scanner v2.6.0 (built here with
#   GOTOOLCHAIN=go1.27.3 GOBIN=/root/go/bin go install github.com/google/osv-scanner/v2/cmd/osv-scanner@v2.6.0
# since it requires Go 1.27); python3 for the medians.
# Prints medians and ratios; both tools must report the same number of
# vulnerabilities, or the script fails.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-9}
OSV=${OSV_SCANNER:-$(command -v osv-scanner || echo /root/go/bin/osv-scanner)}
[ -x "$OSV" ] || { echo "osv-scanner not found (set OSV_SCANNER)" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

go build -o "$WORK/supplychain" ./bench/supplychain
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $("$OSV" --version | head -1)"

# Two databases: "small" holds only advisories for the project's packages
# (about 350), "large" adds 50,000 for other names, about the size of OSV's
# npm export without its malware records.
for size in small large; do
  extra=0; [ "$size" = large ] && extra=50000
  "$WORK/supplychain" gen -n 1500 -extra "$extra" -out "$WORK/$size" >/dev/null
  t0=$(date +%s%N)
  "$WORK/supplychain" import -db "$WORK/$size/aisbxdb" "$WORK/$size/osvdb/osv-scalibr/npm/all.zip" >/dev/null
  t1=$(date +%s%N)
  echo "$size: $(unzip -l "$WORK/$size/osvdb/osv-scalibr/npm/all.zip" | tail -1 | awk '{print $2}') advisories; aisbx one-time import $(( (t1 - t0) / 1000000 )) ms"
done

run_aisbx() { "$WORK/supplychain" scan -db "$WORK/$1/aisbxdb" "$WORK/$1/project"; }
run_osv() {
  "$OSV" scan source --offline --offline-vulnerabilities --local-db-path "$WORK/$1/osvdb" \
    -L "$WORK/$1/project/package-lock.json" --format json 2>/dev/null || true
}

for size in small large; do
  a=$(run_aisbx "$size" | awk '{print $1}')
  o=$(run_osv "$size" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(len(p.get("vulnerabilities",[])) for r in d["results"] for p in r["packages"]))')
  echo "$size: aisbx reports $a vulnerabilities, osv-scanner $o"
  [ "$a" = "$o" ] || { echo "the tools disagree" >&2; exit 1; }
done

: > "$WORK/times"
for size in small large; do
  for i in $(seq "$ROUNDS"); do
    for tool in aisbx osv; do
      t0=$(date +%s%N)
      "run_$tool" "$size" >/dev/null
      t1=$(date +%s%N)
      echo "$size $tool $(( (t1 - t0) / 1000 ))" >> "$WORK/times"
    done
  done
done

python3 - "$WORK/times" <<'PY'
import statistics, sys
t = {}
for line in open(sys.argv[1]):
    size, tool, us = line.split()
    t.setdefault((size, tool), []).append(int(us) / 1000)
print(f"{'database':<9} {'aisbx ms':>10} {'osv-scanner ms':>15} {'ratio':>7}   (median of {len(next(iter(t.values())))} runs, wall time per CLI run)")
for size in ("small", "large"):
    a, o = statistics.median(t[(size, "aisbx")]), statistics.median(t[(size, "osv")])
    print(f"{size:<9} {a:>10.1f} {o:>15.1f} {o / a:>6.1f}x")
PY

echo "Go benchmarks (in-process):"
go test ./internal/inventory/ -run '^$' -bench ParsePackageLock1500 -benchtime 30x | grep Benchmark
go test ./checks/vulns/ -run '^$' -bench RunPackageLock1500 -benchtime 30x | grep Benchmark
go test ./internal/vulndb/ -run '^$' -bench . -benchtime 20x | grep Benchmark
