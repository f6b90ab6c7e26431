package dangerous

import (
	"reflect"
	"testing"
)

func TestLineWindows(t *testing.T) {
	src := []byte("a = 1\nx = eval(y)  # eval\nb = 2\nexec(z)\nc = 3\nevaluate(q)\n")
	ws, ok := lineWindows(src, setOf([]string{"eval", "exec"}))
	if !ok || len(ws) != 2 {
		t.Fatalf("windows = %v, ok = %v", ws, ok)
	}
	if got := string(src[ws[0].start:ws[0].end]); got != "x = eval(y)  # eval\n" {
		t.Errorf("first window %q", got)
	}
	if got := string(src[ws[1].start:ws[1].end]); got != "exec(z)\n" {
		t.Errorf("second window %q", got)
	}
	touching, _ := lineWindows([]byte("eval\nexec\n"), setOf([]string{"eval", "exec"}))
	if !reflect.DeepEqual(touching, []window{{0, 10}}) {
		t.Errorf("adjacent lines not merged: %v", touching)
	}
	if ws, _ := lineWindows([]byte("evaluate(x); my_eval(y); eval2"), setOf([]string{"eval"})); len(ws) != 0 {
		t.Errorf("partial words matched: %v", ws)
	}
	if got := without([]window{{0, 5}, {10, 20}, {30, 40}}, []window{{0, 8}, {30, 40}}); !reflect.DeepEqual(got, []window{{10, 20}}) {
		t.Errorf("without = %v", got)
	}
}

// TestWindowsEqualWholeFile checks every corpus file twice: querying only
// the lines around the rules' words, and querying the whole file. The
// prefilter must never change what is found.
func TestWindowsEqualWholeFile(t *testing.T) {
	c := New(Options{TreeCacheEntries: -1})
	windowed := map[string]string{}
	files := corpusFiles(t)
	for _, p := range files {
		windowed[p] = summary(t, c, loadFile(t, p))
	}
	old := maxWindows
	maxWindows = -1
	defer func() { maxWindows = old }()
	for _, p := range files {
		if whole := summary(t, c, loadFile(t, p)); whole != windowed[p] {
			t.Errorf("%s: windowed findings differ from whole-file ones:\n%s\nwhole file:\n%s", p, windowed[p], whole)
		}
	}
}
