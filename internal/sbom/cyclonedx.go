package sbom

import (
	"io"
	"slices"
	"strings"

	cdx "github.com/CycloneDX/cyclonedx-go"

	"github.com/aisbx/aisbx/internal/inventory"
)

// rootRef is the bom-ref of the described project.
const rootRef = "aisbx:root"

func writeCycloneDX(w io.Writer, d *described, opts Options) error {
	bom := cdx.NewBOM()
	bom.SerialNumber = "urn:uuid:" + opts.Serial
	root := cdx.Component{BOMRef: rootRef, Type: cdx.ComponentTypeApplication, Name: d.name, Version: d.version}
	bom.Metadata = &cdx.Metadata{
		Timestamp: opts.Time.Format("2006-01-02T15:04:05Z"),
		Tools: &cdx.ToolsChoice{Components: &[]cdx.Component{{
			Type:    cdx.ComponentTypeApplication,
			Name:    "aisbx",
			Version: toolVersion(),
			ExternalReferences: &[]cdx.ExternalReference{{
				Type: cdx.ERTypeVCS, URL: "https://github.com/aisbx/aisbx",
			}},
		}}},
		Component: &root,
	}
	comps := make([]cdx.Component, 0, len(d.packages))
	var direct []string
	var deps []cdx.Dependency
	for _, p := range d.packages {
		ref := d.refs[p.Key()]
		c := cdx.Component{
			BOMRef:     ref,
			Type:       cdx.ComponentTypeLibrary,
			Name:       p.Name,
			Version:    p.Version,
			PackageURL: ref,
			Scope:      cdx.ScopeRequired,
		}
		if p.Ecosystem == inventory.NPM && strings.HasPrefix(p.Name, "@") {
			if i := strings.Index(p.Name, "/"); i > 0 {
				c.Group, c.Name = p.Name[:i], p.Name[i+1:]
			}
		}
		if p.Dev {
			c.Scope = cdx.ScopeOptional
		}
		props := []cdx.Property{{Name: "aisbx:dependency", Value: p.Relation.String()}}
		if p.Location.File != "" {
			props = append(props, cdx.Property{Name: "aisbx:declared-in", Value: locationString(p.Location)})
		}
		if p.Version == "" && p.Constraint != "" {
			props = append(props, cdx.Property{Name: "aisbx:constraint", Value: p.Constraint})
		}
		c.Properties = &props
		comps = append(comps, c)
		if p.Relation == inventory.Direct {
			direct = append(direct, ref)
		}
		var on []string
		for _, k := range p.Deps {
			if r, ok := d.refs[k]; ok && r != ref {
				on = append(on, r)
			}
		}
		if len(on) > 0 {
			slices.Sort(on)
			on = slices.Compact(on)
			deps = append(deps, cdx.Dependency{Ref: ref, Dependencies: &on})
		}
	}
	slices.Sort(direct)
	direct = slices.Compact(direct)
	deps = append([]cdx.Dependency{{Ref: rootRef, Dependencies: &direct}}, deps...)
	bom.Components = &comps
	bom.Dependencies = &deps
	return cdx.NewBOMEncoder(w, cdx.BOMFileFormatJSON).SetPretty(true).EncodeVersion(bom, cdx.SpecVersion1_5)
}

func locationString(l inventory.Location) string {
	if l.Line > 0 {
		return l.File + ":" + itoa(l.Line)
	}
	return l.File
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
