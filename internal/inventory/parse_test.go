package inventory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseRejectsDamagedFiles feeds each parser a truncated or broken
// file (testdata/bad/<name>.txt is read as <name>): the answer is an error
// naming the file, never a panic or a partial inventory.
func TestParseRejectsDamagedFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.txt")
	if len(files) < 8 {
		t.Fatalf("only %d cases", len(files))
	}
	for _, p := range files {
		name := strings.TrimSuffix(filepath.Base(p), ".txt")
		content, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src, err := Parse(name, content, nil)
		if err == nil {
			t.Errorf("%s: parsed %d packages, want an error", name, len(src.Packages))
			continue
		}
		if !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %q does not name the file", name, err)
		}
	}
	if _, err := Parse("README.md", nil, nil); err == nil {
		t.Error("a file that is no manifest was accepted")
	}
}

// TestParseBuffer parses content that differs from the disk, as the
// editor sends it: the unsaved version is what counts.
func TestParseBuffer(t *testing.T) {
	buf := []byte("requests==2.30.0\nurllib3==1.26.5  # pinned for now\n")
	src, err := Parse("/nowhere/requirements.txt", buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Packages) != 2 || src.Packages[1].Name != "urllib3" || src.Packages[1].Location.Line != 2 ||
		string(buf[src.Packages[1].Pin.Start:src.Packages[1].Pin.End]) != "1.26.5" {
		t.Errorf("got %+v", src.Packages)
	}
}

func TestKindOf(t *testing.T) {
	cases := map[string]string{
		"requirements.txt": "requirements.txt", "requirements-dev.txt": "requirements.txt",
		"requirements/base.txt": "requirements.txt", "test.requirements.txt": "requirements.txt",
		"npm-shrinkwrap.json": "package-lock.json", "sub/dir/yarn.lock": "yarn.lock",
		"notes.txt": "", "go.work": "", "Pipfile.lock": "",
	}
	for p, want := range cases {
		k, ok := KindOf(p)
		if string(k) != want || ok != (want != "") {
			t.Errorf("KindOf(%q) = %q, %v; want %q", p, k, ok, want)
		}
	}
}

func TestNormalizeAndPURL(t *testing.T) {
	for in, want := range map[string]string{"Flask_Cors": "flask-cors", "zope.interface": "zope-interface", "A--B__c": "a-b-c"} {
		if got := NormalizePyPI(in); got != want {
			t.Errorf("NormalizePyPI(%q) = %q, want %q", in, got, want)
		}
	}
	p := Package{Ecosystem: NPM, Name: "@babel/core", Version: "7.24.0"}
	if got := p.PURL(); got != "pkg:npm/%40babel/core@7.24.0" {
		t.Errorf("purl %s", got)
	}
	g := Package{Ecosystem: Go, Name: "golang.org/x/net", Version: "v0.0.0-20210520170846-37e1c6afe023"}
	if got := g.PURL(); got != "pkg:golang/golang.org/x/net@v0.0.0-20210520170846-37e1c6afe023" {
		t.Errorf("purl %s", got)
	}
}
