package deps

import (
	"os"
	"path/filepath"
	"testing"
)

func addSeeds(f *testing.F, glob string) {
	files, _ := filepath.Glob(glob)
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}

func FuzzPyImports(f *testing.F) {
	addSeeds(f, "testdata/py/*/*/*.py")
	addSeeds(f, "testdata/py/proj/src/mypkg/*.py")
	f.Add([]byte("f'{\"a\"'\nimport x\ntry:\n import y\nexcept:\n pass\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, r := range pyImports(src) {
			if r.start < 0 || r.start > r.end || r.end > len(src) || r.path == "" {
				t.Fatalf("bad import %+v in %q", r, src)
			}
		}
	})
}

func FuzzJSImports(f *testing.F) {
	addSeeds(f, "testdata/js/*/src/*")
	addSeeds(f, "testdata/js/*/lib/*.js")
	f.Add([]byte("`${`${require('a')}`}`; import('b'); /[/]/; x = a / b / require('c')"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, r := range jsImports(src) {
			if r.start < 0 || r.start > r.end || r.end > len(src) || string(src[r.start:r.end]) != r.path {
				t.Fatalf("bad import %+v in %q", r, src)
			}
		}
	})
}

// FuzzManifests feeds the manifest parsers anything: they may reject it,
// never panic, and every range they return names the dependency.
func FuzzManifests(f *testing.F) {
	addSeeds(f, "testdata/py/*/requirements*.txt")
	addSeeds(f, "testdata/py/*/pyproject.toml")
	addSeeds(f, "testdata/js/*/package.json")
	addSeeds(f, "testdata/go/*/go.mod")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, k := range []manifestKind{manifestGoMod, manifestRequirements, manifestPyproject, manifestPipfile, manifestPackageJSON} {
			ents, err := k.entries(data)
			if err != nil {
				continue
			}
			for _, e := range ents {
				if e.end == 0 && e.start == 0 {
					continue
				}
				if e.start < 0 || e.start > e.end || e.end > len(data) || string(data[e.start:e.end]) != e.name {
					t.Fatalf("kind %d: bad entry %+v in %q", k, e, data)
				}
			}
		}
		_, _ = lockNames("yarn.lock", data)
		_, _ = lockNames("pnpm-lock.yaml", data)
		_ = tomlScan(data)
		_ = jsoncToJSON(data)
	})
}
