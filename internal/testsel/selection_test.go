package testsel

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aisbx/aisbx/internal/testfs"
)

type selectionCase struct {
	Name      string            `json:"name"`
	Workspace string            `json:"workspace"`
	Mode      Mode              `json:"mode"`
	Changed   []string          `json:"changed"`
	Files     []string          `json:"files"`
	Tests     []TestRef         `json:"tests"`
	Overlay   map[string]string `json:"overlay"`
	Want      struct {
		Plans    []wantPlan        `json:"plans"`
		Reasons  map[string]string `json:"reasons"`
		Ignored  []string          `json:"ignored"`
		Fallback string            `json:"fallback"`
		Selected int               `json:"selected"`
		Total    int               `json:"total"`
	} `json:"want"`
}

type wantPlan struct {
	Lang     Lang       `json:"lang"`
	Dir      string     `json:"dir"`
	All      bool       `json:"all"`
	Units    []string   `json:"units"`
	Tests    []PlanTest `json:"tests"`
	Fallback string     `json:"fallback"`
}

// TestSelect runs the cases of testdata/selection.json against the sample
// workspaces: which plans, units and tests are selected, the reason given
// for each, the fallbacks, and what was left out.
func TestSelect(t *testing.T) {
	data, err := os.ReadFile("testdata/selection.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []selectionCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	mixed := mixedWorkspace(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			root := filepath.Join("testdata", "workspaces", c.Workspace)
			if c.Workspace == "mixed" {
				root = mixed
			}
			req := Request{Mode: c.Mode, Changed: c.Changed, Files: c.Files, Tests: c.Tests}
			if c.Overlay != nil {
				req.Overlay = map[string][]byte{}
				for k, v := range c.Overlay {
					req.Overlay[k] = []byte(v)
				}
			}
			sel, err := New(root, Options{}).Select(t.Context(), req)
			if err != nil {
				t.Fatal(err)
			}
			var got []wantPlan
			for _, p := range sel.Plans {
				got = append(got, wantPlan{Lang: p.Lang, Dir: p.Dir, All: p.All, Units: p.Units, Tests: p.Tests, Fallback: p.Fallback})
			}
			want := c.Want.Plans
			for i := range want {
				for j := range want[i].Tests {
					if want[i].Tests[j].Kind == "" && i < len(got) && j < len(got[i].Tests) {
						want[i].Tests[j].Kind = got[i].Tests[j].Kind
					}
				}
			}
			if len(want) == 0 {
				want = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("plans:\n got %+v\nwant %+v\n%s", got, want, sel.Explain())
			}
			reasons := map[string]string{}
			for _, it := range sel.Items() {
				reasons[it.Unit] = it.Reason
			}
			for unit, want := range c.Want.Reasons {
				if reasons[unit] != want {
					t.Errorf("reason for %s:\n got %q\nwant %q", unit, reasons[unit], want)
				}
			}
			if !reflect.DeepEqual(sel.Ignored, c.Want.Ignored) {
				t.Errorf("ignored: got %v, want %v", sel.Ignored, c.Want.Ignored)
			}
			if c.Want.Fallback != "" && sel.Fallback != c.Want.Fallback {
				t.Errorf("fallback: got %q, want %q", sel.Fallback, c.Want.Fallback)
			}
			if sel.Selected != c.Want.Selected || sel.Total != c.Want.Total {
				t.Errorf("selected %d of %d, want %d of %d", sel.Selected, sel.Total, c.Want.Selected, c.Want.Total)
			}
			if sel.LeftOut() != sel.Total-sel.Selected || !strings.Contains(sel.Explain(), string(sel.Mode)) {
				t.Errorf("inconsistent account:\n%s", sel.Explain())
			}
		})
	}
}

// mixedWorkspace assembles the Go, Python and JS samples side by side under
// one root, as a polyglot repository would hold them.
func mixedWorkspace(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for dst, src := range map[string]string{"go": "gows", "py": "pyws", "js": "jsws"} {
		testfs.CopyTree(t, filepath.Join("testdata", "workspaces", src), filepath.Join(root, dst))
	}
	return root
}

// TestSelectRejectsPathsOutsideTheWorkspace: bad input gets a clear error.
func TestSelectRejectsPathsOutsideTheWorkspace(t *testing.T) {
	s := New("testdata/workspaces/gows", Options{})
	for _, p := range []string{"../x.go", "/etc/passwd", "."} {
		if _, err := s.Select(context.Background(), Request{Changed: []string{p}}); err == nil || !strings.Contains(err.Error(), "not inside the workspace") {
			t.Errorf("%q: got %v", p, err)
		}
	}
	if _, err := s.Select(context.Background(), Request{Mode: "sometimes"}); err == nil {
		t.Error("an unknown mode was accepted")
	}
	if _, err := s.Select(context.Background(), Request{Mode: ModeTest, Tests: []TestRef{{File: "nowhere/x.go", Path: []string{"TestX"}}}}); err == nil {
		t.Error("a test outside every module was accepted")
	}
}
