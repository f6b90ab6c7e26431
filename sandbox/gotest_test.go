package sandbox

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/aisbx/aisbx/internal/testfs"
)

// TestGoTestInSandbox builds the go profile's image for testdata/gomod
// from the air-gapped base and runs its tests: once as they are (pass),
// once with an unsaved buffer that breaks Add (fail at the right line).
func TestGoTestInSandbox(t *testing.T) {
	base := needBase(t, "go")
	ws := testfs.TempCopy(t, "testdata/gomod")
	sb := newTestSandbox(t, Options{PoolSize: 1, Memory: 1 << 30, PidsLimit: 256, TmpfsSize: 512 << 20,
		Profiles: map[string]Profile{"go": {Base: base, Mounts: []Mount{}}}})
	var steps []BuildProgress
	imgs, err := sb.Build(t.Context(), BuildOptions{Workspace: ws, Profiles: []string{"go"}, Progress: func(p BuildProgress) { steps = append(steps, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(imgs) != 1 || imgs[0].ID == "" || len(steps) == 0 || !steps[len(steps)-1].Done {
		t.Fatalf("build: %+v, progress %+v", imgs, steps)
	}
	// Unchanged lockfiles and base: the same image, not rebuilt.
	again, err := sb.Build(t.Context(), BuildOptions{Workspace: ws, Profiles: []string{"go"}})
	if err != nil || again[0].Built || again[0].ID != imgs[0].ID {
		t.Fatalf("second build: %+v, %v; want the first image reused", again, err)
	}

	cases := []struct {
		name    string
		overlay map[string][]byte
		want    Status
		exit    int
		action  string // the package's final go test -json action
	}{
		{"pass", nil, StatusPassed, 0, "pass"},
		{"fail", map[string][]byte{"calc/calc.go": []byte("package calc\n\nfunc Add(a, b int) int { return a - b }\n")}, StatusFailed, 1, "fail"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := sb.Run(t.Context(), Job{Workspace: ws, Profile: "go", Overlay: tc.overlay})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.want || res.ExitCode != tc.exit {
				t.Fatalf("%s exit %d (%s), want %s exit %d\n%s", res.Status, res.ExitCode, res.Reason, tc.want, tc.exit, res.Output)
			}
			if res.Image.ID != imgs[0].ID {
				t.Errorf("ran on image %s, want the built %s", res.Image.ID, imgs[0].ID)
			}
			if got := packageAction(t, res.Output, "example.com/gomod/calc"); got != tc.action {
				t.Errorf("go test -json action for calc = %q, want %q\n%s", got, tc.action, res.Output)
			}
			if tc.want == StatusFailed && !bytes.Contains(res.Output, []byte("/work/calc/calc_test.go:7")) {
				t.Errorf("the failure does not name calc_test.go:7 with its full path\n%s", res.Output)
			}
			t.Logf("go test in the sandbox: %s in %v (start %v)", res.Status, res.Duration, res.StartLatency)
		})
	}
}

// packageAction returns the last pass/fail action of pkg in go test -json
// output.
func packageAction(t *testing.T, out []byte, pkg string) string {
	t.Helper()
	action := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var ev struct{ Action, Package, Test string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		if ev.Package == pkg && ev.Test == "" && (ev.Action == "pass" || ev.Action == "fail") {
			action = ev.Action
		}
	}
	return action
}
