package inventory

import (
	"testing"

	"github.com/aisbx/aisbx/internal/vulndb/synth"
)

// BenchmarkParsePackageLock1500 reads a lockfileVersion 3
// package-lock.json of 1,500 packages, locations and graph included.
func BenchmarkParsePackageLock1500(b *testing.B) {
	pj, lock, _ := synth.NPMProject(1500, 1)
	sib := func(string) ([]byte, error) { return pj, nil }
	b.SetBytes(int64(len(lock)))
	b.ReportAllocs()
	for b.Loop() {
		src, err := Parse("package-lock.json", lock, sib)
		if err != nil || len(src.Packages) != 1500 {
			b.Fatalf("%v, %d packages", err, len(src.Packages))
		}
	}
}
