package watcher

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestEditorArtifacts(t *testing.T) {
	f, err := os.Open("testdata/editor-artifacts.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	n := 0
	for s.Scan() {
		if strings.HasPrefix(s.Text(), "# ") || s.Text() == "" {
			continue
		}
		cols := strings.Split(s.Text(), "\t")
		if len(cols) != 3 {
			t.Fatalf("bad line %q", s.Text())
		}
		n++
		if got, want := isEditorArtifact(cols[0]), cols[1] == "true"; got != want {
			t.Errorf("isEditorArtifact(%q) = %v, want %v (%s)", cols[0], got, want, cols[2])
		}
	}
	if n == 0 {
		t.Fatal("no cases")
	}
}

func TestCombine(t *testing.T) {
	tests := []struct {
		a, b Kind
		want Kind
		keep bool
	}{
		{Created, Written, Created, true},
		{Created, Removed, Removed, false},
		{Created, Renamed, Renamed, false},
		{Written, Written, Written, true},
		{Written, Removed, Removed, true},
		{Removed, Created, Written, true},
		{Renamed, Created, Written, true},
	}
	for _, tt := range tests {
		got, keep := combine(tt.a, tt.b)
		if got != tt.want || keep != tt.keep {
			t.Errorf("combine(%v, %v) = %v, %v; want %v, %v", tt.a, tt.b, got, keep, tt.want, tt.keep)
		}
	}
}

func TestMergeBatches(t *testing.T) {
	at := func(s int) time.Time { return time.Unix(1000+int64(s), 0) }
	ready := []Event{{"/r/a", Created, at(1)}, {"/r/b", Written, at(1)}, {"/r/tmp", Created, at(2)}}
	batch := []Event{{"/r/a", Written, at(3)}, {"/r/tmp", Removed, at(3)}, {"/r/b", Removed, at(4)}, {"/r/c", Created, at(4)}}
	got := mergeBatches(ready, batch)
	want := []Event{{"/r/a", Created, at(3)}, {"/r/b", Removed, at(4)}, {"/r/c", Created, at(4)}}
	if len(got) != len(want) {
		t.Fatalf("mergeBatches = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d = %v at %v, want %v at %v", i, got[i], got[i].Time, want[i], want[i].Time)
		}
	}
}

// TestEventsChannel reads batches from Events, and Close ends the channel.
func TestEventsChannel(t *testing.T) {
	root := t.TempDir()
	before := runtime.NumGoroutine()
	w, err := New(context.Background(), root, Options{Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "a.txt")
	if err := os.WriteFile(p, []byte("1"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-w.Events():
		if len(b) != 1 || b[0].Path != p || b[0].Kind != Created {
			t.Errorf("batch %v, want created %s", b, p)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no batch")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	for range w.Events() {
	}
	checkGoroutines(t, before)
}

func TestReadLimits(t *testing.T) {
	l, err := ReadLimits()
	if _, statErr := os.Stat("/proc/sys/fs/inotify"); statErr != nil {
		t.Skip("no /proc/sys/fs/inotify here")
	}
	if err != nil || l.MaxUserWatches <= 0 || l.MaxQueuedEvents <= 0 || l.MaxUserInstances <= 0 {
		t.Fatalf("ReadLimits() = %+v, %v", l, err)
	}
}
