package watcher

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

// expectKinds waits until every path in want was reported with its kind
// (the last report counts) and returns all events seen.
func expectKinds(t *testing.T, col *collector, start int, root string, want map[string]Kind) []Event {
	t.Helper()
	return col.waitFor(t, start, "fallback", func(evs []Event) string {
		last := map[string]Kind{}
		for _, e := range evs {
			r, _ := filepath.Rel(root, e.Path)
			last[filepath.ToSlash(r)] = e.Kind
		}
		var missing []string
		for p, k := range want {
			got := last[p]
			if got == k || (k == Removed && got == Renamed) {
				continue
			}
			missing = append(missing, fmt.Sprintf("%s %v (got %v)", p, k, got))
		}
		sort.Strings(missing)
		return strings.Join(missing, ", ")
	})
}

func writeOld(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
}

// TestOverflowRescan overflows the kernel's inotify queue for real: the
// event loop is held while more events happen than the queue holds. After
// the overflow the watcher must rescan and still report every change, and
// nothing that did not change.
func TestOverflowRescan(t *testing.T) {
	limits, err := ReadLimits()
	if err != nil || limits.MaxQueuedEvents == 0 {
		t.Skipf("inotify limits unknown (%v): not Linux", err)
	}
	root := t.TempDir()
	const nfiles = 300
	for i := 0; i < nfiles; i++ {
		writeOld(t, filepath.Join(root, "busy", fmt.Sprintf("f%03d.txt", i)), "v0\n")
	}
	for i := 0; i < 20; i++ {
		writeOld(t, filepath.Join(root, "calm", fmt.Sprintf("c%02d.txt", i)), "calm\n")
	}
	before := runtime.NumGoroutine()
	hold := make(chan struct{})
	col := newCollector()
	w, err := New(context.Background(), root, Options{OnBatch: col.add, hold: hold})
	if err != nil {
		t.Fatal(err)
	}
	defer checkGoroutines(t, before)
	defer w.Close()

	// More modifications than the queue holds, round-robin so the kernel
	// cannot merge consecutive events. Files stay open: truncating is slow
	// on some disks and adds nothing here.
	busy := make([]*os.File, nfiles)
	for i := range busy {
		if busy[i], err = os.OpenFile(filepath.Join(root, "busy", fmt.Sprintf("f%03d.txt", i)), os.O_WRONLY, 0); err != nil {
			t.Fatal(err)
		}
	}
	writes := limits.MaxQueuedEvents + 10000
	for i := 0; i < writes; i++ {
		if _, err := busy[i%nfiles].WriteAt([]byte(fmt.Sprintf("v%d\n", i)), 0); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range busy {
		f.Close()
	}
	want := map[string]Kind{}
	for i := 0; i < nfiles; i++ {
		want[fmt.Sprintf("busy/f%03d.txt", i)] = Written
	}
	for i := 0; i < 10; i++ { // removed after the overflow: their events are lost
		p := fmt.Sprintf("busy/f%03d.txt", i)
		if err := os.Remove(filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
		want[p] = Removed
	}
	for _, p := range []string{"fresh/dir/new1.go", "fresh/dir/new2.go", "busy/new.txt"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte("new\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want[p] = Created
	}
	close(hold)

	evs := expectKinds(t, col, 0, root, want)
	col.quiet(DefaultDebounce)
	evs = col.since(0)
	for _, e := range evs {
		if strings.Contains(e.Path, string(filepath.Separator)+"calm"+string(filepath.Separator)) {
			t.Errorf("unchanged file reported after the rescan: %v", e)
		}
	}
	st := w.Status()
	if st.Overflows == 0 {
		t.Fatalf("the queue never overflowed after %d writes (max_queued_events=%d): the fallback was not exercised", writes, limits.MaxQueuedEvents)
	}
	if !st.Degraded || !strings.Contains(st.Reason, "overflowed") {
		t.Errorf("status after an overflow: degraded=%v reason=%q", st.Degraded, st.Reason)
	}
	select {
	case n := <-w.Notices():
		if n.Overflows == 0 {
			t.Errorf("notice without the overflow: %+v", n)
		}
	default:
		t.Error("no notice after an overflow")
	}
	// The new directory must be watched now, not only found once.
	start := col.len()
	if err := os.WriteFile(filepath.Join(root, "fresh/dir/new3.go"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	expectKinds(t, col, start, root, map[string]Kind{"fresh/dir/new3.go": Created})
	t.Logf("%d writes, %d overflow(s), %d events delivered", writes, st.Overflows, len(evs))
}

// TestWatchLimitPolls caps the watches so most directories must be polled,
// and checks that changes there are still reported, and that the user is
// told.
func TestWatchLimitPolls(t *testing.T) {
	root := t.TempDir()
	for d := 0; d < 8; d++ {
		for f := 0; f < 3; f++ {
			writeOld(t, filepath.Join(root, fmt.Sprintf("d%d", d), fmt.Sprintf("f%d.go", f)), "package x\n")
		}
	}
	before := runtime.NumGoroutine()
	col := newCollector()
	w, err := New(context.Background(), root, Options{OnBatch: col.add, MaxWatches: 3, PollInterval: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer checkGoroutines(t, before)
	defer w.Close()

	st := w.Status()
	if st.Watches != 3 || st.Polled != 6 || !st.Degraded || !strings.Contains(st.Reason, "max_user_watches") {
		t.Fatalf("status with 9 directories and MaxWatches 3: %+v", st)
	}
	select {
	case n := <-w.Notices():
		if n.Polled != 6 {
			t.Errorf("notice: %+v", n)
		}
	default:
		t.Error("no notice for polled directories")
	}
	want := map[string]Kind{}
	for d := 0; d < 8; d++ {
		p := fmt.Sprintf("d%d/f0.go", d)
		if err := os.WriteFile(filepath.Join(root, p), []byte("package x // changed\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want[p] = Written
		p = fmt.Sprintf("d%d/new.go", d)
		if err := os.WriteFile(filepath.Join(root, p), []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want[p] = Created
		p = fmt.Sprintf("d%d/f1.go", d)
		if err := os.Remove(filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
		want[p] = Removed
	}
	for _, p := range []string{"d7/sub/deeper/n.go", "d1/sub/n.go"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte("package sub\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want[p] = Created
	}
	expectKinds(t, col, 0, root, want)
	col.quiet(DefaultDebounce)
	for _, e := range col.since(0) {
		if strings.HasSuffix(e.Path, "f2.go") {
			t.Errorf("unchanged file reported by polling: %v", e)
		}
	}
}

// onLoop runs f on w's event loop and waits for it.
func onLoop(probe chan<- func(), f func()) {
	done := make(chan struct{})
	probe <- func() { f(); close(done) }
	<-done
}

// TestPolledDirsWatchedAgain caps the watches so that two directories are
// polled, then frees two watches by removing watched directories. The polled
// ones must go back to inotify, the user must be told that watching
// recovered, and changes there must still be reported once polling stopped.
func TestPolledDirsWatchedAgain(t *testing.T) {
	root := t.TempDir()
	for d := 0; d < 4; d++ {
		writeOld(t, filepath.Join(root, fmt.Sprintf("d%d", d), "f.go"), "package x\n")
	}
	before := runtime.NumGoroutine()
	col := newCollector()
	probe := make(chan func())
	w, err := New(context.Background(), root, Options{OnBatch: col.add, MaxWatches: 3,
		PollInterval: 50 * time.Millisecond, RearmInterval: 100 * time.Millisecond, probe: probe})
	if err != nil {
		t.Fatal(err)
	}
	defer checkGoroutines(t, before)
	defer w.Close()
	if st := w.Status(); st.Watches != 3 || st.Polled != 2 || !st.Degraded {
		t.Fatalf("5 directories under MaxWatches 3: %+v", st)
	}
	select {
	case <-w.Notices(): // the degraded notice
	case <-time.After(5 * time.Second):
		t.Fatal("no notice for polled directories")
	}

	// Which of d0..d3 got the two watches besides the root's depends on
	// the order the directory lists them in.
	var watched, polled []string
	onLoop(probe, func() {
		for d := 0; d < 4; d++ {
			name := fmt.Sprintf("d%d", d)
			if n := w.tree.dirs[filepath.Join(root, name)]; n.watched {
				watched = append(watched, name)
			} else if n.polled {
				polled = append(polled, name)
			}
		}
	})
	if len(watched) != 2 || len(polled) != 2 {
		t.Fatalf("watched %v, polled %v: want two of each", watched, polled)
	}
	for _, name := range watched {
		if err := os.RemoveAll(filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}

	deadline := time.After(10 * time.Second)
	for recovered := false; !recovered; {
		select {
		case st := <-w.Notices():
			recovered = !st.Degraded && st.Polled == 0 && st.Reason == ""
		case <-deadline:
			t.Fatalf("no recovered notice after freeing two watches; status %+v", w.Status())
		}
	}
	var ticking bool
	onLoop(probe, func() {
		ticking = w.poll != nil
		for _, name := range polled {
			if n := w.tree.dirs[filepath.Join(root, name)]; n == nil || !n.watched || n.polled {
				t.Errorf("%s: %+v, want watched", name, n)
			}
		}
	})
	if ticking {
		t.Error("the poll ticker still runs with nothing left to poll")
	}
	if st := w.Status(); st.Watches != 3 || st.Polled != 0 || st.Degraded {
		t.Errorf("status after recovery: %+v", st)
	}

	// Nothing polls any more: only inotify can report these.
	start := col.len()
	want := map[string]Kind{}
	for _, name := range polled {
		p := name + "/f.go"
		if err := os.WriteFile(filepath.Join(root, p), []byte("package x // changed\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want[p] = Written
	}
	expectKinds(t, col, start, root, want)
}
