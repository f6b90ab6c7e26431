package vulns

import (
	"fmt"
	"strings"

	"github.com/aisbx/aisbx/checks"
	"github.com/aisbx/aisbx/internal/inventory"
	"github.com/aisbx/aisbx/internal/vulndb"
)

// levelSeverity maps an advisory's level to a finding severity: high and
// critical fail the default CI gate, medium and unrated warn, low informs.
func levelSeverity(l vulndb.Level) checks.Severity {
	switch l {
	case vulndb.LevelCritical, vulndb.LevelHigh:
		return checks.SeverityError
	case vulndb.LevelLow:
		return checks.SeverityInfo
	}
	return checks.SeverityWarning
}

// lower drops a severity by n steps, no lower than hint.
func lower(s checks.Severity, n int) checks.Severity {
	return min(s+checks.Severity(n), checks.SeverityHint)
}

// Fingerprint identifies an advisory against a package, whatever its
// version or line, for baselines and for Introduced.
func Fingerprint(id string, eco inventory.Ecosystem, name string) string {
	return "osv:" + id + ":" + string(eco) + ":" + name
}

func (c *Check) finding(kind inventory.Kind, p inventory.Package, m vulndb.Match, best string, usage *goUsage) checks.Finding {
	adv := m.Advisory
	sev := levelSeverity(m.Severity.Level)
	reachNote := ""
	if p.Ecosystem == inventory.Go && usage != nil && !usage.unknown {
		if imports := m.Affected.GoImports(); len(imports) > 0 {
			r, detail := usage.reach(imports)
			switch r {
			case reachCalled:
				// The Go database rates nothing; like govulncheck, treat a
				// vulnerability the code reaches as one that fails the gate.
				if m.Severity.Level == vulndb.LevelUnknown {
					sev = checks.SeverityError
				}
				reachNote = " This module's code uses " + detail + "."
			case reachImported:
				sev = lower(sev, 1)
				reachNote = " Severity lowered: this module imports " + detail + " but names none of its vulnerable symbols."
			case reachNotImported:
				sev = lower(sev, 2)
				reachNote = " Severity lowered: this module's code does not import " + detail + " (a dependency still may)."
			}
		}
	}
	c.remember(adv, m.Severity, sev)

	var b strings.Builder
	what := p.Name + " " + p.Version
	if p.Ecosystem == inventory.Go && p.Name == "stdlib" {
		what = "The Go standard library of " + displayVersion(p, p.Version)
	}
	fmt.Fprintf(&b, "%s is affected by %s: %s.", what, idWithAliases(adv), advisoryTitle(adv))
	switch {
	case m.Severity.Score > 0:
		fmt.Fprintf(&b, " Severity %s (CVSS %.1f).", m.Severity.Level, m.Severity.Score)
	case m.Severity.Level != vulndb.LevelUnknown:
		fmt.Fprintf(&b, " Severity %s.", m.Severity.Level)
	default:
		b.WriteString(" Severity not rated by the database.")
	}
	switch {
	case m.Fixed != "":
		fmt.Fprintf(&b, " Fixed in %s.", displayVersion(p, m.Fixed))
	case m.LastAffected != "":
		fmt.Fprintf(&b, " No fixed version is known; %s is the last affected.", displayVersion(p, m.LastAffected))
	default:
		b.WriteString(" No fixed version is known.")
	}
	if kind.Resolves() && kind != inventory.KindGoMod {
		switch p.Relation {
		case inventory.Transitive:
			b.WriteString(" It comes in through another dependency: upgrade that one, or override the version.")
		case inventory.Direct:
			b.WriteString(" Raise it in the manifest and update the lockfile.")
		}
	} else if p.Ecosystem == inventory.Go && p.Relation == inventory.Transitive {
		b.WriteString(" It is an indirect requirement.")
	}
	b.WriteString(reachNote)

	f := checks.Finding{
		Rule:        adv.ID,
		Category:    checks.CategoryDependency,
		Severity:    sev,
		Message:     b.String(),
		Start:       p.Location.Span.Start,
		End:         p.Location.Span.End,
		DocURL:      DocURL(adv.ID),
		Fingerprint: Fingerprint(adv.ID, p.Ecosystem, p.Name),
	}
	if !p.Pin.Empty() && m.Fixed != "" {
		f.Fixes = append(f.Fixes, checks.Fix{
			Title:     fmt.Sprintf("Upgrade %s to %s", p.Name, displayVersion(p, m.Fixed)),
			Edits:     []checks.Edit{{Start: p.Pin.Start, End: p.Pin.End, NewText: pinText(p, m.Fixed)}},
			Preferred: best == "" || best == m.Fixed,
		})
		if best != "" && best != m.Fixed {
			f.Fixes = append([]checks.Fix{{
				Title:     fmt.Sprintf("Upgrade %s to %s, which fixes every known advisory", p.Name, displayVersion(p, best)),
				Edits:     []checks.Edit{{Start: p.Pin.Start, End: p.Pin.End, NewText: pinText(p, best)}},
				Preferred: true,
			}}, f.Fixes...)
		}
	}
	return f
}

// displayVersion writes an OSV version the way the ecosystem's users do:
// Go modules with "v", the Go toolchain with "go".
func displayVersion(p inventory.Package, v string) string {
	if p.Ecosystem == inventory.Go {
		if p.Name == "stdlib" {
			return "go" + strings.TrimPrefix(v, "v")
		}
		if !strings.HasPrefix(v, "v") {
			return "v" + v
		}
	}
	return v
}

// pinText is the replacement for the pinned version text: go.mod wants
// "v1.2.3", its go and toolchain lines "1.2.3".
func pinText(p inventory.Package, v string) string {
	if p.Ecosystem == inventory.Go && p.Name != "stdlib" && !strings.HasPrefix(v, "v") {
		return "v" + v
	}
	if p.Name == "stdlib" {
		return strings.TrimPrefix(v, "v")
	}
	return v
}
