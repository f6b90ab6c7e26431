package records

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// clock is a settable time for the store.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 29, 18, 48, 0, 0, time.UTC)} }

func openStore(t *testing.T, opts Options) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "runs"), opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sampleRecord(status string, trigger Trigger) *Record {
	return &Record{
		Trigger: trigger, Status: status, Root: "/home/u/proj", Workdir: "/work",
		Command: Command{Argv: []string{"go", "test", "-json", "-fullpath", "./geom"}, Dir: "."},
		Image:   Image{Ref: "aisbx-go:1a2b", Digest: "sha256:" + strings.Repeat("ab", 32)},
		Summary: Summary{Passed: 3, Failed: 1, Total: 4},
	}
}

// TestWriteGetList writes records at different times and reads them back
// by id, unique prefix and "last", and lists them newest first with
// filters.
func TestWriteGetList(t *testing.T) {
	c := newClock()
	s := openStore(t, Options{Now: c.now})
	var ids []string
	for i, st := range []string{"passed", "failed", "timeout", "failed"} {
		r := sampleRecord(st, []Trigger{TriggerCLI, TriggerCodeAction, TriggerAgent, TriggerCodeAction}[i])
		r.Time = c.now()
		if err := s.Write(t.Context(), r); err != nil {
			t.Fatal(err)
		}
		if r.ID == "" || r.Version != SchemaVersion {
			t.Fatalf("write did not fill id and version: %+v", r)
		}
		ids = append(ids, r.ID)
		c.advance(time.Minute)
	}
	for _, id := range ids {
		got, err := s.Get(id)
		if err != nil || got.ID != id {
			t.Fatalf("Get(%s) = %v, %v", id, got, err)
		}
	}
	last, err := s.Get("last")
	if err != nil || last.ID != ids[3] {
		t.Errorf("last = %v, %v; want %s", last, err, ids[3])
	}
	if got, err := s.Get(ids[2][:len(ids[2])-3]); err != nil || got.ID != ids[2] {
		t.Errorf("unique prefix: %v, %v", got, err)
	}
	if _, err := s.Get("2026"); err == nil || !strings.Contains(err.Error(), "matches 4 runs") {
		t.Errorf("ambiguous prefix: %v", err)
	}
	if _, err := s.Get("1999"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}

	all, err := s.List(Filter{})
	if err != nil || len(all) != 4 || all[0].ID != ids[3] || all[3].ID != ids[0] {
		t.Fatalf("List = %v, %v", idsOf(all), err)
	}
	cases := []struct {
		f    Filter
		want []string
	}{
		{Filter{Status: "failed"}, []string{ids[3], ids[1]}},
		{Filter{Trigger: TriggerCodeAction, Limit: 1}, []string{ids[3]}},
		{Filter{Since: c.now().Add(-150 * time.Second)}, []string{ids[3], ids[2]}},
	}
	for _, tc := range cases {
		got, err := s.List(tc.f)
		if err != nil || !reflect.DeepEqual(idsOf(got), tc.want) {
			t.Errorf("List(%+v) = %v, %v; want %v", tc.f, idsOf(got), err, tc.want)
		}
	}
}

func idsOf(rs []*Record) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

// TestWriteIsAtomicAndPrivate: concurrent writers each leave one complete
// record, no temporary file remains, and records are readable by the owner
// only.
func TestWriteIsAtomicAndPrivate(t *testing.T) {
	s := openStore(t, Options{})
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := sampleRecord("passed", TriggerAgent)
			r.Output = strings.Repeat(fmt.Sprint(i), 10000)
			errs <- s.Write(context.Background(), r)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 20 {
		t.Errorf("%d files, want 20", len(entries))
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", e.Name())
		}
		if fi, _ := e.Info(); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", e.Name(), fi.Mode().Perm())
		}
	}
	if rs, err := s.List(Filter{}); err != nil || len(rs) != 20 {
		t.Errorf("List: %d records, %v", len(rs), err)
	}
}

// TestPrune keeps the newest MaxRecords and drops records older than
// MaxAge, and never touches files that are not records.
func TestPrune(t *testing.T) {
	c := newClock()
	s := openStore(t, Options{Now: c.now, MaxRecords: 3, MaxAge: time.Hour})
	if err := os.MkdirAll(s.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(s.Dir(), "notes.json")
	if err := os.WriteFile(foreign, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range 5 {
		r := sampleRecord("passed", TriggerCLI)
		r.Time = c.now()
		if err := s.Write(t.Context(), r); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
		c.advance(10 * time.Minute)
	}
	got, _ := s.List(Filter{})
	if want := []string{ids[4], ids[3], ids[2]}; !reflect.DeepEqual(idsOf(got), want) {
		t.Errorf("after 5 writes with MaxRecords 3: %v, want %v", idsOf(got), want)
	}
	c.advance(35 * time.Minute) // ids[2] is now 65 minutes old
	n, err := s.Prune(t.Context())
	if err != nil || n != 1 {
		t.Errorf("Prune removed %d, %v; want 1", n, err)
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Errorf("a file that is not a record was touched: %v", err)
	}
}

// TestRedaction fills every string of a record with a secret, writes it
// through a redactor, and checks that no secret reaches the file: the
// walk covers fields added later without anyone listing them.
func TestRedaction(t *testing.T) {
	const secret = "AKIAIOSFODNN7EXAMPLE"
	redactor := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(secret), []byte("[REDACTED]")) }
	s := openStore(t, Options{Redact: redactor})
	r := sampleRecord("failed", TriggerAgent)
	n := fillStrings(reflect.ValueOf(r).Elem(), "token="+secret, false)
	r.Selection.Items = []SelectionItem{{Lang: "go", Unit: secret, Reason: secret, Chain: []string{secret}}}
	r.Tests = []Test{{Name: secret, Status: "failed", Message: secret, Output: "x " + secret, Location: &Location{File: secret, Line: 1}}}
	r.Provenance = []Provenance{{Tool: "agent", Prompt: "use key " + secret, File: "a.go", Ranges: []Range{{1, 2}}}}
	r.Command.Argv = append(r.Command.Argv, "--token="+secret)
	r.Command.Env = []string{"API_KEY=" + secret}
	if n < 5 {
		t.Fatalf("only %d string fields were filled", n)
	}
	if err := s.Write(t.Context(), r); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(s.Dir(), r.ID+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(secret)) {
		t.Errorf("the secret reached the record:\n%s", data)
	}
	if c := bytes.Count(data, []byte("[REDACTED]")); c < n {
		t.Errorf("%d redactions for %d filled fields", c, n)
	}
	if !strings.Contains(r.Prompt(), secret) {
		t.Error("Write redacted the caller's record instead of a copy")
	}
}

// Prompt returns the first provenance prompt, for the test above.
func (r *Record) Prompt() string {
	if len(r.Provenance) == 0 {
		return ""
	}
	return r.Provenance[0].Prompt
}

// fillStrings sets every settable string reachable from v to val, except
// fields tagged redact:"-", and returns how many it set.
func fillStrings(v reflect.Value, val string, skip bool) int {
	n := 0
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() && v.CanSet() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		if !v.IsNil() {
			n += fillStrings(v.Elem(), val, skip)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if f.IsExported() && f.Tag.Get("redact") != "-" {
				n += fillStrings(v.Field(i), val, skip)
			}
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(val)
			n++
		}
	}
	return n
}

// TestOutputBounds: long output is cut to its head and tail.
func TestOutputBounds(t *testing.T) {
	s := openStore(t, Options{MaxOutput: 1000, MaxTestOutput: 100})
	r := sampleRecord("failed", TriggerCLI)
	r.Output = "HEAD" + strings.Repeat("x", 5000) + "TAIL"
	r.Tests = []Test{{Name: "TestX", Status: "failed", Output: strings.Repeat("y", 1000)}}
	if err := s.Write(t.Context(), r); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Output) > 1100 || !strings.HasPrefix(got.Output, "HEAD") || !strings.HasSuffix(got.Output, "TAIL") || !got.OutputTruncated {
		t.Errorf("output: %d bytes, truncated %v", len(got.Output), got.OutputTruncated)
	}
	if len(got.Tests[0].Output) > 200 {
		t.Errorf("test output: %d bytes", len(got.Tests[0].Output))
	}
}

// TestBadInput: ids that are not ours, records from a newer aisbxd, and
// corrupt files give clear errors.
func TestBadInput(t *testing.T) {
	s := openStore(t, Options{})
	r := sampleRecord("passed", TriggerCLI)
	r.ID = "../../etc/passwd"
	if err := s.Write(t.Context(), r); err == nil {
		t.Error("a bad id was accepted")
	}
	good := sampleRecord("passed", TriggerCLI)
	if err := s.Write(t.Context(), good); err != nil {
		t.Fatal(err)
	}
	future := NewID(time.Now().Add(time.Hour))
	if err := os.WriteFile(filepath.Join(s.Dir(), future+".json"), []byte(`{"version": 99}`), 0o600); err != nil {
		t.Fatal(err)
	}
	broken := NewID(time.Now().Add(2 * time.Hour))
	if err := os.WriteFile(filepath.Join(s.Dir(), broken+".json"), []byte(`{"version": 1,`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(future); err == nil || !strings.Contains(err.Error(), "schema version 99") {
		t.Errorf("newer schema: %v", err)
	}
	rs, err := s.List(Filter{})
	if len(rs) != 1 || err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("List with a corrupt record: %d records, %v", len(rs), err)
	}
	if _, err := Open("", Options{}); err == nil {
		t.Error("an empty directory was accepted")
	}
}
