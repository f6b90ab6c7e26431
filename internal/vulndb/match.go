package vulndb

import (
	"fmt"
	"strings"

	"github.com/aisbx/aisbx/internal/inventory"
)

// Match is one advisory that affects a package version.
type Match struct {
	Advisory *Advisory
	Affected *Affected // the entry that named the package
	Verdict
	Severity Severity
}

// Match returns the advisories affecting p, one per advisory, in the
// store's order. A package without an exact version matches nothing.
func (s *Store) Match(p inventory.Package) ([]Match, error) {
	if p.Version == "" {
		return nil, nil
	}
	eco := string(p.Ecosystem)
	parse, ok := schemeFor(eco)
	if !ok {
		return nil, nil
	}
	name := inventory.NormalizeName(p.Ecosystem, p.Name)
	advs, err := s.Advisories(eco, name)
	if err != nil || len(advs) == 0 {
		return nil, err
	}
	pv, err := parse(p.Version)
	if err != nil {
		return nil, fmt.Errorf("vulndb: %s %s: %w", p.Name, p.Version, err)
	}
	var out []Match
	for _, adv := range advs {
		if adv.Withdrawn != nil {
			continue
		}
		var best *Match
		for i := range adv.Affected {
			aff := &adv.Affected[i]
			if ecosystemBase(aff.Package.Ecosystem) != eco || inventory.NormalizeName(p.Ecosystem, aff.Package.Name) != name {
				continue
			}
			vd := affects(parse, pv, p.Version, aff)
			if !vd.Affected {
				continue
			}
			if best == nil || best.Fixed == "" && vd.Fixed != "" {
				best = &Match{Advisory: adv, Affected: aff, Verdict: vd}
			}
		}
		if best != nil {
			best.Severity = SeverityOf(adv, best.Affected)
			out = append(out, *best)
		}
	}
	return out, nil
}

// ecosystemBase drops an OSV ecosystem's ":suffix" ("Debian:11").
func ecosystemBase(eco string) string {
	if i := strings.IndexByte(eco, ':'); i >= 0 {
		return eco[:i]
	}
	return eco
}
