#!/usr/bin/env bash
# bench/testsel.sh — test selection and test-output parsing, side by side
# with the reference tools, medians over interleaved rounds:
#
#   selection   a one-file change to net/http/internal/ascii in $GOROOT/src
#               (read in place, never written): aisbx cold (every package
#               parsed) and warm (the daemon's cache), against `go list
#               -deps -test -json ./...` and the narrower `go list
#               -json=ImportPath,Dir,Imports,TestImports,XTestImports ./...`
#               and golang.org/x/tools/go/packages (NeedName|NeedImports|
#               NeedFiles, Tests; built in a throwaway module); and the
#               fraction of std's test packages selected.
#   python      a change to json/decoder.py in CPython's standard library
#               (/usr/lib/python3.11), cold and warm.
#   parser      a ~20 MB `go test -json` stream: aisbx's parser against
#               decoding the same lines with encoding/json (the floor) and
#               gotestsum v1.13.0 reading it from cat (installed into a
#               temporary GOBIN when missing).
#   discovery   the tests of net/http/serve_test.go, CPython's test_descr.py
#               and a generated 2,000-test TypeScript file.
#
#   bench/testsel.sh [ROUNDS]        (default 5; run it on a quiet machine)
set -euo pipefail
rounds=${1:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${AISBX_BENCH_DIR:-/tmp/aisbx-bench-testsel}
mkdir -p "$work"

if ! command -v gotestsum >/dev/null; then
	if [ ! -x "$work/bin/gotestsum" ]; then
		GOBIN=$work/bin GOFLAGS= go install gotest.tools/gotestsum@v1.13.0
	fi
	export PATH=$PATH:$work/bin
fi

(cd "$repo" && go test -c -o "$work/testsel.test" ./internal/testsel && go test -c -o "$work/testresults.test" ./internal/testresults)

# golang.org/x/tools/go/packages, the other way to get the graph, in a
# throwaway module (it would add golang.org/x/sync to aisbx's go.mod).
pkgs=$work/gopackages
if [ ! -x "$pkgs/gopackages" ]; then
	mkdir -p "$pkgs"
	cat >"$pkgs/main.go" <<'GO'
package main

import (
	"fmt"
	"os"
	"time"

	"golang.org/x/tools/go/packages"
)

// Loads the package graph of os.Args[1] with test variants, the way a
// selector would, and prints the wall time in ns.
func main() {
	t0 := time.Now()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedFiles, Tests: true, Dir: os.Args[1]}
	if _, err := packages.Load(cfg, "./..."); err != nil {
		panic(err)
	}
	fmt.Println(time.Since(t0).Nanoseconds())
}
GO
	(cd "$pkgs" && printf 'module gopackagesbench\n\ngo 1.22\n' >go.mod && GOFLAGS= go get golang.org/x/tools/go/packages@v0.52.0 >/dev/null && GOFLAGS= go build -o gopackages .)
fi
echo "go: $(go version), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "gotestsum: $(gotestsum --version)"

out=$work/bench.txt
: >"$out"
for i in $(seq "$rounds"); do
	echo "round $i/$rounds" >&2
	(cd "$repo/internal/testsel" && "$work/testsel.test" -test.run '^$' -test.benchtime 1x \
		-test.bench 'BenchmarkSelectStd|BenchmarkGoListStd|BenchmarkSelectPythonStdlib') >>"$out"
	echo "BenchmarkGoPackagesStd 1 $("$pkgs/gopackages" "$(go env GOROOT)/src") ns/op" >>"$out"
	(cd "$repo/internal/testsel" && "$work/testsel.test" -test.run '^$' -test.benchtime 20x -test.bench 'BenchmarkDiscover') >>"$out"
	(cd "$repo/internal/testresults" && "$work/testresults.test" -test.run '^$' -test.benchtime 3x -test.bench 'BenchmarkParse') >>"$out"
done

# Medians per benchmark of ns/op and of every reported metric.
awk '
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	for (i = 3; i < NF; i += 2) { key = name "\t" $(i+1); vals[key] = vals[key] " " $i }
}
function median(s,   a, n, i, j, t) {
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
END {
	printf "%-52s %-16s %14s\n", "benchmark", "unit", "median"
	for (k in vals) {
		m[k] = median(vals[k])
		split(k, p, "\t")
		printf "%-52s %-16s %14.4g\n", p[1], p[2], m[k] | "sort"
	}
	close("sort")
	cold = m["BenchmarkSelectStd/cold\tns/op"]; warm = m["BenchmarkSelectStd/warm\tns/op"]
	deps = m["BenchmarkGoListStd/deps-test\tns/op"]; fields = m["BenchmarkGoListStd/fields\tns/op"]
	gp = m["BenchmarkGoPackagesStd\tns/op"]
	printf "\nselection on GOROOT/src: cold %.0f ms, warm %.0f ms; go list -deps -test %.0f ms, go list -json=fields %.0f ms, go/packages %.0f ms\n", cold/1e6, warm/1e6, deps/1e6, fields/1e6, gp/1e6
	printf "  cold/go-list-deps-test = %.2fx, cold/go-list-fields = %.2fx, cold/go-packages = %.2fx, warm/go-list-fields = %.3fx\n", cold/deps, cold/fields, cold/gp, warm/fields
	printf "  selected %d of %d std test packages (%.1f%%) for a change to net/http/internal/ascii\n", m["BenchmarkSelectStd/cold\tselected"], m["BenchmarkSelectStd/cold\tstd-test-pkgs"], m["BenchmarkSelectStd/cold\t%selected"]
	a = m["BenchmarkParseGoStream/aisbx\tMB/s"]; j = m["BenchmarkParseGoStream/json-decode-only\tMB/s"]; g = m["BenchmarkParseGoStream/gotestsum\tMB/s"]
	printf "parser: aisbx %.1f MB/s, encoding/json alone %.1f MB/s, gotestsum %.1f MB/s (aisbx/gotestsum = %.2fx)\n", a, j, g, (g > 0 ? a / g : 0)
}' "$out"
echo "raw results: $out"
