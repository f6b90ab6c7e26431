// Package synth makes realistic synthetic inputs for benchmarks: an npm
// project with a package-lock.json of N packages, and an OSV npm export
// (all.zip) with advisories for some of them and many other names, shaped
// like OSV's real records. Deterministic for a given seed.
//
// It exists so that Go benchmarks and bench/supply-chain.sh measure the
// same data. It must not import the packages it feeds (inventory, vulndb).
// Read NPMProject first.
package synth

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// Pkg is one installed package of a synthetic project.
type Pkg struct {
	Path    string // install path in package-lock.json: node_modules/a/node_modules/b
	Name    string
	Version string
	Dev     bool
	Deps    []string // names
}

var words = strings.Fields(`array async babel bind buffer cache chalk class color config core
crypto css date debug deep diff dom emit env event express fast file fs glob graph hash http
image inflight ini is json jwt key lodash log map merge micro mime mkdirp ms net node object
once parse path plugin promise proxy query react read regex request resolve rimraf route safe
schema semver signal source split stream string style sync tar through time token tslib type
uri url util uuid validate webpack which wrap ws xml yaml yargs zip`)

// NPMProject returns a package.json and a lockfileVersion 3
// package-lock.json with n installed packages: about 40 direct ones, the
// rest transitive, one in ten scoped, one in seven installed nested under
// another because of a version conflict, one in four dev-only.
func NPMProject(n int, seed uint64) (packageJSON, lock []byte, pkgs []Pkg) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	used := map[string]bool{}
	newName := func() string {
		for {
			name := words[r.IntN(len(words))] + "-" + words[r.IntN(len(words))]
			if r.IntN(10) == 0 {
				name = "@" + words[r.IntN(len(words))] + "/" + name
			}
			if r.IntN(3) == 0 {
				name += fmt.Sprint(r.IntN(100))
			}
			if !used[name] {
				used[name] = true
				return name
			}
		}
	}
	ver := func() string { return fmt.Sprintf("%d.%d.%d", r.IntN(12), r.IntN(30), r.IntN(40)) }
	var top []Pkg
	for len(pkgs) < n {
		if len(top) > 10 && r.IntN(7) == 0 {
			parent := top[r.IntN(len(top))]
			dup := top[r.IntN(len(top))]
			p := Pkg{Path: parent.Path + "/node_modules/" + dup.Name, Name: dup.Name, Version: ver(), Dev: parent.Dev}
			pkgs = append(pkgs, p)
			continue
		}
		name := newName()
		p := Pkg{Path: "node_modules/" + name, Name: name, Version: ver(), Dev: r.IntN(4) == 0}
		top = append(top, p)
		pkgs = append(pkgs, p)
	}
	for i := range pkgs {
		for k := r.IntN(5); k > 0; k-- {
			pkgs[i].Deps = append(pkgs[i].Deps, top[r.IntN(len(top))].Name)
		}
	}
	direct := map[string]string{}
	devDirect := map[string]string{}
	for i := 0; i < len(top) && len(direct)+len(devDirect) < 40; i += 1 + r.IntN(5) {
		if top[i].Dev {
			devDirect[top[i].Name] = "^" + top[i].Version
		} else {
			direct[top[i].Name] = "^" + top[i].Version
		}
	}
	pj := map[string]any{"name": "synthetic-app", "version": "1.0.0", "dependencies": direct, "devDependencies": devDirect}
	packageJSON, _ = json.MarshalIndent(pj, "", "  ")

	type entry struct {
		Version      string            `json:"version"`
		Resolved     string            `json:"resolved"`
		Integrity    string            `json:"integrity"`
		Dev          bool              `json:"dev,omitempty"`
		License      string            `json:"license"`
		Dependencies map[string]string `json:"dependencies,omitempty"`
	}
	entries := map[string]any{"": map[string]any{"name": "synthetic-app", "version": "1.0.0", "dependencies": direct, "devDependencies": devDirect}}
	for _, p := range pkgs {
		e := entry{
			Version:   p.Version,
			Resolved:  "https://registry.npmjs.org/" + p.Name + "/-/" + p.Name[strings.LastIndex(p.Name, "/")+1:] + "-" + p.Version + ".tgz",
			Integrity: fmt.Sprintf("sha512-%086x==", r.Uint64()),
			Dev:       p.Dev,
			License:   "MIT",
		}
		if len(p.Deps) > 0 {
			e.Dependencies = map[string]string{}
			for _, d := range p.Deps {
				e.Dependencies[d] = "^1.0.0"
			}
		}
		entries[p.Path] = e
	}
	lock, _ = json.MarshalIndent(map[string]any{
		"name": "synthetic-app", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": entries,
	}, "", "  ")
	return packageJSON, lock, pkgs
}

// NPMAdvisories returns OSV advisories, keyed by file name: one or two for
// one in five of pkgs (about half of them affecting the installed version),
// plus extra advisories for other package names, as OSV's npm export mixes
// reviewed advisories with a long tail of others.
func NPMAdvisories(pkgs []Pkg, extra int, seed uint64) map[string][]byte {
	r := rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))
	out := map[string][]byte{}
	id := func() string {
		const alpha = "23456789cfghjmpqrvwx"
		var b strings.Builder
		b.WriteString("GHSA")
		for g := 0; g < 3; g++ {
			b.WriteByte('-')
			for i := 0; i < 4; i++ {
				b.WriteByte(alpha[r.IntN(len(alpha))])
			}
		}
		return b.String()
	}
	vectors := []string{
		"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
		"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:L",
		"CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:C/C:H/I:N/A:N",
	}
	add := func(name, introduced, fixed string) {
		adv := map[string]any{
			"schema_version": "1.4.0",
			"id":             id(),
			"modified":       time.Date(2024, 1, 1+r.IntN(300), 0, 0, 0, 0, time.UTC).Format(time.RFC3339),
			"published":      time.Date(2023, 1, 1+r.IntN(300), 0, 0, 0, 0, time.UTC).Format(time.RFC3339),
			"aliases":        []string{fmt.Sprintf("CVE-2024-%05d", r.IntN(99999))},
			"summary":        "Synthetic advisory for " + name,
			"details":        strings.Repeat("Details of the issue and how to fix it. ", 6),
			"severity":       []map[string]string{{"type": "CVSS_V3", "score": vectors[r.IntN(len(vectors))]}},
			"affected": []map[string]any{{
				"package": map[string]string{"ecosystem": "npm", "name": name, "purl": "pkg:npm/" + strings.ReplaceAll(name, "@", "%40")},
				"ranges":  []map[string]any{{"type": "SEMVER", "events": []map[string]string{{"introduced": introduced}, {"fixed": fixed}}}},
			}},
			"references":        []map[string]string{{"type": "ADVISORY", "url": "https://nvd.nist.gov/vuln/detail/" + name}, {"type": "PACKAGE", "url": "https://github.com/example/" + name}},
			"database_specific": map[string]any{"severity": "HIGH", "github_reviewed": true, "cwe_ids": []string{"CWE-1321"}},
		}
		data, _ := json.MarshalIndent(adv, "", "  ")
		out[adv["id"].(string)+".json"] = data
	}
	for _, p := range pkgs {
		if r.IntN(5) != 0 {
			continue
		}
		var maj, mnr, pat int
		fmt.Sscanf(p.Version, "%d.%d.%d", &maj, &mnr, &pat)
		if r.IntN(2) == 0 {
			add(p.Name, "0", fmt.Sprintf("%d.%d.%d", maj, mnr, pat+1)) // affects the installed version
		} else {
			add(p.Name, "0", fmt.Sprintf("%d.%d.%d", maj, mnr, max(pat-1, 0))) // fixed at or before it
		}
		if r.IntN(4) == 0 {
			add(p.Name, fmt.Sprintf("%d.0.0", maj+1), fmt.Sprintf("%d.2.0", maj+1))
		}
	}
	for i := 0; i < extra; i++ {
		add(fmt.Sprintf("%s-%s-%d", words[r.IntN(len(words))], words[r.IntN(len(words))], i), "0", fmt.Sprintf("%d.%d.%d", r.IntN(5), r.IntN(10), r.IntN(10)))
	}
	return out
}

// WriteZip writes files as a zip archive, in name order.
func WriteZip(w io.Writer, files map[string][]byte) error {
	zw := zip.NewWriter(w)
	for _, n := range slices.Sorted(maps.Keys(files)) {
		f, err := zw.Create(n)
		if err != nil {
			return err
		}
		if _, err := f.Write(files[n]); err != nil {
			return err
		}
	}
	return zw.Close()
}
