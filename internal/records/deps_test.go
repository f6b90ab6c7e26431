package records

import (
	"reflect"
	"testing"
)

// TestLockfileReader reads the pins of testdata/depsws: go.mod requires,
// requirements*.txt pins (extras, markers, === and PEP 503 names; ranges,
// includes and URLs are not pins), npm lockfiles v3 and v1, and nothing
// from its testdata fixtures.
func TestLockfileReader(t *testing.T) {
	got, err := LockfileReader{}.Dependencies(t.Context(), "testdata/depsws")
	if err != nil {
		t.Fatal(err)
	}
	want := []Dependency{
		{"go", "github.com/BurntSushi/toml", "v1.6.0", "go.mod"},
		{"go", "github.com/fsnotify/fsnotify", "v1.10.1", "go.mod"},
		{"go", "golang.org/x/mod", "v0.43.0", "go.mod"},
		{"npm", "@scope/thing", "2.0.1", "web/package-lock.json"},
		{"npm", "debug", "2.6.9", "legacy/package-lock.json"},
		{"npm", "express", "4.18.2", "legacy/package-lock.json"},
		{"npm", "left-pad", "1.1.0", "web/package-lock.json"},
		{"npm", "left-pad", "1.3.0", "legacy/package-lock.json"},
		{"pypi", "flask-sqlalchemy", "3.1.1", "requirements.txt"},
		{"pypi", "pytest", "7.2.1", "requirements-dev.txt"},
		{"pypi", "requests", "2.31.0", "requirements-dev.txt"},
		{"pypi", "urllib3", "2.0.7", "requirements.txt"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got:\n%v\nwant:\n%v", got, want)
	}
}
