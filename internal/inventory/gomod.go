package inventory

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// parseGoMod reads go.mod. Since Go 1.17 a module's go.mod lists every
// module that provides a package to its build, "// indirect" marking those
// the module does not import itself, so go.mod alone is the Go lockfile.
// The go and toolchain lines give the standard library's version, which OSV
// lists as the package "stdlib".
func parseGoMod(src *Source, content []byte) error {
	f, err := modfile.Parse(src.Path, content, nil)
	if err != nil {
		return err
	}
	lines := lineStarts(content)
	if f.Module != nil {
		src.Project = Project{Name: f.Module.Mod.Path}
	}
	if f.Go != nil {
		src.GoVersion = f.Go.Version
	}
	repl := map[string]*modfile.Replace{}
	for _, r := range f.Replace {
		repl[r.Old.Path+"@"+r.Old.Version] = r
	}
	for _, r := range f.Require {
		if r.Syntax == nil {
			continue
		}
		p := Package{
			Ecosystem: Go,
			Name:      r.Mod.Path,
			Version:   r.Mod.Version,
			Relation:  Direct,
		}
		if r.Indirect {
			p.Relation = Transitive
		}
		nameSpan, pin := goModTokenSpans(content, r.Syntax, r.Mod.Path, r.Mod.Version)
		p.Location = locate(src, lines, nameSpan.Start, nameSpan.End)
		p.Pin = pin
		rp := repl[r.Mod.Path+"@"+r.Mod.Version]
		if rp == nil {
			rp = repl[r.Mod.Path+"@"]
		}
		if rp != nil {
			p.Replaced = true
			p.Pin = Span{}
			if rp.New.Version == "" {
				// A local directory: no published version to match.
				p.Version = ""
			} else {
				p.Name, p.Version = rp.New.Path, rp.New.Version
			}
		}
		src.Packages = append(src.Packages, p)
	}
	if std, ok := goStdlib(f, content, lines, src); ok {
		src.Packages = append(src.Packages, std)
	}
	return nil
}

// goStdlib is the standard library at the toolchain go.mod asks for: the
// toolchain line when there is one, else the go line when it names a
// release ("1.21.3"; "1.21" names a language version, not a release).
func goStdlib(f *modfile.File, content []byte, lines []int, src *Source) (Package, bool) {
	var v string
	var syn *modfile.Line
	switch {
	case f.Toolchain != nil && f.Toolchain.Syntax != nil:
		v, syn = strings.TrimPrefix(f.Toolchain.Name, "go"), f.Toolchain.Syntax
	case f.Go != nil && f.Go.Syntax != nil && strings.Count(f.Go.Version, ".") >= 2:
		v, syn = f.Go.Version, f.Go.Syntax
	default:
		return Package{}, false
	}
	sv := GoReleaseSemver(v)
	if sv == "" {
		return Package{}, false
	}
	start, end := syn.Start.Byte, syn.End.Byte
	line := content[start:end]
	vs := bytes.Index(line, []byte(v))
	if vs < 0 {
		return Package{}, false
	}
	p := Package{
		Ecosystem: Go,
		Name:      "stdlib",
		Version:   sv,
		Relation:  Direct,
		Location:  locate(src, lines, start, end),
		Pin:       Span{start + vs, start + vs + len(v)},
	}
	return p, true
}

// GoReleaseSemver turns a Go release ("1.21.3", "1.21rc2", "1.21") into
// the semver OSV uses for stdlib ("v1.21.3", "v1.21.0-rc.2", "v1.21.0");
// "" when v is not a Go version.
func GoReleaseSemver(v string) string {
	v = strings.TrimPrefix(v, "go")
	pre := ""
	for _, tag := range []string{"rc", "beta"} {
		if i := strings.Index(v, tag); i > 0 {
			pre = "-" + tag + "." + v[i+len(tag):]
			v = v[:i]
			break
		}
	}
	switch strings.Count(v, ".") {
	case 0:
		v += ".0.0"
	case 1:
		v += ".0"
	}
	sv := "v" + v + pre
	if !semver.IsValid(sv) {
		return ""
	}
	return sv
}

// goModTokenSpans finds the module path and version on a require line.
func goModTokenSpans(content []byte, syn *modfile.Line, path, version string) (name, pin Span) {
	start, end := syn.Start.Byte, syn.End.Byte
	if start < 0 || end > len(content) || start > end {
		return Span{start, start}, Span{}
	}
	line := content[start:end]
	i := bytes.Index(line, []byte(path))
	if i < 0 {
		return Span{start, end}, Span{}
	}
	name = Span{start + i, start + i + len(path)}
	if j := bytes.Index(line[i+len(path):], []byte(version)); j >= 0 {
		s := name.End + j
		pin = Span{s, s + len(version)}
	}
	return name, pin
}

// parseGoSum reads go.sum. Each module version appears with a hash of its
// content ("h1:") and of its go.mod ("/go.mod h1:"); only the first kind
// means the module's code took part in a build. go.sum keeps old versions
// the module graph once needed, so the newest version with a content hash
// stands for the module, as minimal version selection would choose.
func parseGoSum(src *Source, content []byte) error {
	lines := lineStarts(content)
	best := map[string]int{}
	off := 0
	for n, raw := range bytes.Split(content, []byte("\n")) {
		start := off
		off += len(raw) + 1
		f := strings.Fields(string(raw))
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return fmt.Errorf("line %d: want \"module version hash\"", n+1)
		}
		path, version := f[0], f[1]
		if strings.HasSuffix(version, "/go.mod") {
			continue
		}
		if err := module.Check(path, version); err != nil {
			return fmt.Errorf("line %d: %w", n+1, err)
		}
		p := Package{
			Ecosystem: Go,
			Name:      path,
			Version:   version,
			Location:  locate(src, lines, start, start+len(path)),
		}
		if i, ok := best[path]; ok {
			if semver.Compare(version, src.Packages[i].Version) > 0 {
				src.Packages[i] = p
			}
			continue
		}
		best[path] = len(src.Packages)
		src.Packages = append(src.Packages, p)
	}
	return nil
}
