package sbom

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/aisbx/aisbx/internal/inventory"
)

// cycloneDXSchema compiles the CycloneDX 1.5 schema kept in testdata, with
// format assertions on.
func cycloneDXSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for _, name := range []string{"bom-1.5.schema.json", "spdx.schema.json", "jsf-0.82.schema.json"} {
		f, err := os.Open(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := c.AddResource("http://cyclonedx.org/schema/"+name, doc); err != nil {
			t.Fatal(err)
		}
	}
	s, err := c.Compile("http://cyclonedx.org/schema/bom-1.5.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// workspaces are the inventory package's sample workspaces, one per
// lockfile format.
func workspaces(t *testing.T) []*inventory.Inventory {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join("..", "inventory", "testdata", "*"))
	var out []*inventory.Inventory
	for _, d := range dirs {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() || filepath.Base(d) == "bad" {
			continue
		}
		inv, err := inventory.Scan(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, inv)
	}
	if len(out) == 0 {
		t.Fatal("no sample workspaces")
	}
	return out
}

func TestCycloneDXValidates(t *testing.T) {
	schema := cycloneDXSchema(t)
	for _, inv := range workspaces(t) {
		t.Run(filepath.Base(inv.Root), func(t *testing.T) {
			data, sum, err := Encode(context.Background(), inv, CycloneDXJSON, Options{})
			if err != nil {
				t.Fatal(err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(doc); err != nil {
				t.Fatalf("not valid CycloneDX 1.5: %v\n%s", err, data)
			}
			// The schema must be able to say no: a component without a
			// type is invalid.
			broken := bytes.Replace(data, []byte(`"type": "library",`), nil, 1)
			if bd, err := jsonschema.UnmarshalJSON(bytes.NewReader(broken)); err == nil && len(inv.Packages()) > 0 {
				if schema.Validate(bd) == nil {
					t.Error("the schema accepted a component without a type")
				}
			}
			if sum != Sum(data) || len(sum) != 64 {
				t.Errorf("sum %q does not match the bytes", sum)
			}
			var bom struct {
				SpecVersion string `json:"specVersion"`
				Components  []struct {
					BOMRef string `json:"bom-ref"`
					PURL   string `json:"purl"`
				} `json:"components"`
				Dependencies []struct {
					Ref       string   `json:"ref"`
					DependsOn []string `json:"dependsOn"`
				} `json:"dependencies"`
				Metadata struct {
					Tools struct {
						Components []struct{ Name string } `json:"components"`
					} `json:"tools"`
				} `json:"metadata"`
			}
			if err := json.Unmarshal(data, &bom); err != nil {
				t.Fatal(err)
			}
			want := inv.Packages()
			if bom.SpecVersion != "1.5" || len(bom.Components) != len(want) {
				t.Fatalf("spec %s with %d components, want 1.5 with %d", bom.SpecVersion, len(bom.Components), len(want))
			}
			refs := map[string]bool{rootRef: true}
			for i, c := range bom.Components {
				if c.PURL != want[i].PURL() || c.BOMRef != c.PURL {
					t.Errorf("component %d: %+v, want purl %s", i, c, want[i].PURL())
				}
				refs[c.BOMRef] = true
			}
			for _, d := range bom.Dependencies {
				for _, on := range append([]string{d.Ref}, d.DependsOn...) {
					if !refs[on] {
						t.Errorf("dependency graph names unknown ref %q", on)
					}
				}
			}
			if len(bom.Metadata.Tools.Components) != 1 || bom.Metadata.Tools.Components[0].Name != "aisbx" {
				t.Errorf("tool metadata: %+v", bom.Metadata.Tools)
			}
		})
	}
}

// TestDependencyGraph checks the graph of the npm v3 sample against the
// lockfile: the root depends on the five direct packages and mkdirp on
// its own copy of minimist.
func TestDependencyGraph(t *testing.T) {
	inv, err := inventory.Scan(context.Background(), filepath.Join("..", "inventory", "testdata", "npm-v3"))
	if err != nil {
		t.Fatal(err)
	}
	data, _, err := Encode(context.Background(), inv, CycloneDXJSON, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var bom struct {
		Dependencies []struct {
			Ref       string   `json:"ref"`
			DependsOn []string `json:"dependsOn"`
		} `json:"dependencies"`
	}
	json.Unmarshal(data, &bom)
	got := map[string]string{}
	for _, d := range bom.Dependencies {
		got[d.Ref] = strings.Join(d.DependsOn, " ")
	}
	if got[rootRef] != "pkg:npm/%40babel/helper-validator-identifier@7.22.20 pkg:npm/lodash@4.17.11 pkg:npm/minimist@1.2.6 pkg:npm/mkdirp@0.5.1 pkg:npm/semver@7.0.0" {
		t.Errorf("root depends on %q", got[rootRef])
	}
	if got["pkg:npm/mkdirp@0.5.1"] != "pkg:npm/minimist@0.0.8" {
		t.Errorf("mkdirp depends on %q", got["pkg:npm/mkdirp@0.5.1"])
	}
}

// TestSPDX checks the SPDX 2.3 document's required fields and that every
// relationship names an element of the document.
func TestSPDX(t *testing.T) {
	idPattern := regexp.MustCompile(`^SPDXRef-[a-zA-Z0-9.-]+$`)
	for _, inv := range workspaces(t) {
		data, _, err := Encode(context.Background(), inv, SPDXJSON, Options{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		var doc spdxDocument
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.SPDXVersion != "SPDX-2.3" || doc.DataLicense != "CC0-1.0" || doc.CreationInfo.Created != "2026-01-02T03:04:05Z" ||
			!strings.HasPrefix(doc.DocumentNamespace, "https://") || len(doc.CreationInfo.Creators) == 0 {
			t.Errorf("%s: header %+v", inv.Root, doc)
		}
		ids := map[string]bool{"SPDXRef-DOCUMENT": true}
		for _, p := range doc.Packages {
			if !idPattern.MatchString(p.SPDXID) || ids[p.SPDXID] {
				t.Errorf("%s: bad or repeated SPDXID %q", inv.Root, p.SPDXID)
			}
			ids[p.SPDXID] = true
		}
		if len(doc.Packages) != len(inv.Packages())+1 {
			t.Errorf("%s: %d packages, want %d", inv.Root, len(doc.Packages), len(inv.Packages())+1)
		}
		for _, r := range doc.Relationships {
			if !ids[r.SPDXElementID] || !ids[r.RelatedSPDXElement] {
				t.Errorf("%s: relationship %+v names an unknown element", inv.Root, r)
			}
		}
	}
}

func TestDeterministicAndErrors(t *testing.T) {
	inv := workspaces(t)[0]
	opts := Options{Time: time.Unix(1700000000, 0), Serial: "3e671687-395b-41f5-a30f-a58921a69b79"}
	a, sa, _ := Encode(context.Background(), inv, CycloneDXJSON, opts)
	b, sb, _ := Encode(context.Background(), inv, CycloneDXJSON, opts)
	if !bytes.Equal(a, b) || sa != sb {
		t.Error("same inventory and options gave different documents")
	}
	if _, _, err := Encode(context.Background(), inv, "xml", opts); err == nil {
		t.Error("unknown format accepted")
	}
	p := filepath.Join(t.TempDir(), FileName(SPDXJSON))
	sum, err := WriteFile(context.Background(), p, inv, SPDXJSON)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	if Sum(data) != sum {
		t.Error("WriteFile's sum does not match the file")
	}
}
