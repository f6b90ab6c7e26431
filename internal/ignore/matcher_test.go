package ignore

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMatcher(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".gitignore", "*.log\n/build/\n!keep.log\ndocs/**/*.tmp\n\\#hash\n")
	write(t, root, "sub/.gitignore", "local.txt\n/anchored.txt\n")
	m := NewMatcher(root, "extra/")
	tests := []struct {
		rel   string
		isDir bool
		want  bool
	}{
		{"a.log", false, true},
		{"deep/x/a.log", false, true},
		{"keep.log", false, false},
		{"build", true, true},
		{"build/out.bin", false, true},
		{"sub/build", true, false}, // anchored to the root
		{"docs/a/b/c.tmp", false, true},
		{"docs/c.tmp", false, true},
		{"#hash", false, true},
		{"sub/local.txt", false, true},
		{"sub/deeper/local.txt", false, true},
		{"local.txt", false, false},
		{"sub/anchored.txt", false, true},
		{"sub/x/anchored.txt", false, false},
		{"node_modules/x/index.js", false, true},
		{".git/config", false, true},
		{"extra/file.go", false, true},
		{"main.go", false, false},
	}
	for _, tt := range tests {
		if got := m.Ignored(tt.rel, tt.isDir); got != tt.want {
			t.Errorf("Ignored(%q, dir=%v) = %v, want %v", tt.rel, tt.isDir, got, tt.want)
		}
	}
}

func TestWalkAndFilesAgree(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".gitignore", "*.log\nout/\n")
	write(t, root, "main.go", "package main")
	write(t, root, "debug.log", "x")
	write(t, root, "out/bin", "x")
	write(t, root, "pkg/a.go", "package pkg")
	write(t, root, "node_modules/m/index.js", "x")
	want := []string{".gitignore", "main.go", "pkg/a.go"}

	walked, err := Walk(context.Background(), root, NewMatcher(root))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(walked, want) {
		t.Errorf("Walk = %v, want %v", walked, want)
	}
	// Without .git, Files walks too.
	files, err := Files(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("Files = %v, want %v", files, want)
	}
}

func TestFilesInGitRepo(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".gitignore", "*.log\n")
	write(t, root, "tracked.go", "package x")
	write(t, root, "untracked.go", "package x")
	write(t, root, "ignored.log", "x")
	write(t, root, "vendor/v.go", "package v")
	cmd := exec.Command("sh", "-c", "git init -q && git add tracked.go .gitignore")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git: %v\n%s", err, out)
	}
	files, err := Files(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore", "tracked.go", "untracked.go"}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("Files = %v, want %v", files, want)
	}
}
