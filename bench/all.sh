#!/usr/bin/env bash
# bench/all.sh — every side-by-side measurement behind BENCHMARKS.md, one
# after another, each script's output saved under $OUT (default
# /tmp/aisbx-bench). Takes a while; run it on a quiet machine.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/aisbx-bench}
mkdir -p "$OUT"
for s in lsp secrets dangerous deps check check-linters sandbox testsel watcher supply-chain; do
  echo "== $s $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  if bash "bench/$s.sh" >"$OUT/$s.txt" 2>&1; then
    echo "   ok: $OUT/$s.txt"
  else
    echo "   FAILED (see $OUT/$s.txt)"
  fi
done
