package vulndb

import (
	"fmt"
	"sort"
)

// Verdict is what Affects found for one version.
type Verdict struct {
	Affected bool
	// Fixed is the first version after the package's that fixes the range
	// it falls in; "" when the advisory names none (an unfixed
	// vulnerability, a last_affected bound, or an explicit versions list).
	Fixed string
	// LastAffected is the inclusive upper bound of the range, when the
	// advisory gives one instead of a fix.
	LastAffected string
}

// Affects evaluates OSV's IsVulnerable for one affected entry: the version
// is affected when the versions list names it or when an ordered SEMVER or
// ECOSYSTEM range includes it. GIT ranges need a repository's commit graph
// and are skipped. eco is the OSV ecosystem ("Go", "npm", "PyPI").
func Affects(eco, v string, a *Affected) (Verdict, error) {
	parse, ok := schemeFor(eco)
	if !ok {
		return Verdict{}, fmt.Errorf("vulndb: ecosystem %q is not supported", eco)
	}
	pv, err := parse(v)
	if err != nil {
		return Verdict{}, err
	}
	return affects(parse, pv, v, a), nil
}

func affects(parse scheme, pv version, raw string, a *Affected) Verdict {
	var out Verdict
	for _, r := range a.Ranges {
		if r.Type != "SEMVER" && r.Type != "ECOSYSTEM" {
			continue
		}
		if vd, ok := inRange(parse, pv, r.Events); ok {
			// Of several matching ranges, report the one with a fix.
			if !out.Affected || out.Fixed == "" {
				out = vd
			}
		}
	}
	if out.Affected {
		return out
	}
	for _, s := range a.Versions {
		if s == raw {
			return Verdict{Affected: true}
		}
		if lv, err := parse(s); err == nil && lv.compare(pv) == 0 {
			return Verdict{Affected: true}
		}
	}
	return Verdict{}
}

type event struct {
	kind int // order at equal versions: introduced first
	v    version
	raw  string
	zero bool // introduced "0": before every version
}

const (
	evIntroduced = iota
	evFixed
	evLastAffected
	evLimit
)

// inRange follows the OSV schema's evaluation: walk the events in version
// order; "introduced" at or below v opens the range, "fixed" at or below v
// closes it, "last_affected" below v closes it; "limit" events bound the
// whole range from above. Events whose version does not parse make the
// range unusable rather than guessed at.
func inRange(parse scheme, v version, evs []Event) (Verdict, bool) {
	list := make([]event, 0, len(evs))
	var limits []version
	for _, e := range evs {
		var ev event
		switch {
		case e.Introduced != "":
			ev = event{kind: evIntroduced, raw: e.Introduced, zero: e.Introduced == "0"}
		case e.Fixed != "":
			ev = event{kind: evFixed, raw: e.Fixed}
		case e.LastAffected != "":
			ev = event{kind: evLastAffected, raw: e.LastAffected}
		case e.Limit != "":
			if e.Limit == "*" {
				continue
			}
			lv, err := parse(e.Limit)
			if err != nil {
				return Verdict{}, false
			}
			limits = append(limits, lv)
			continue
		default:
			continue
		}
		if !ev.zero {
			pv, err := parse(ev.raw)
			if err != nil {
				return Verdict{}, false
			}
			ev.v = pv
		}
		list = append(list, ev)
	}
	if len(limits) > 0 {
		below := false
		for _, l := range limits {
			if v.compare(l) < 0 {
				below = true
				break
			}
		}
		if !below {
			return Verdict{}, false
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.zero || b.zero {
			return a.zero && !b.zero
		}
		if c := a.v.compare(b.v); c != 0 {
			return c < 0
		}
		return a.kind < b.kind
	})
	vulnerable := false
	at := -1 // index of the event that made v vulnerable
	for i, e := range list {
		switch e.kind {
		case evIntroduced:
			if e.zero || v.compare(e.v) >= 0 {
				vulnerable, at = true, i
			}
		case evFixed:
			if v.compare(e.v) >= 0 {
				vulnerable = false
			}
		case evLastAffected:
			if v.compare(e.v) > 0 {
				vulnerable = false
			}
		}
	}
	if !vulnerable {
		return Verdict{}, false
	}
	out := Verdict{Affected: true}
	for _, e := range list[at+1:] {
		switch e.kind {
		case evFixed:
			out.Fixed = e.raw
		case evLastAffected:
			out.LastAffected = e.raw
		default:
			continue
		}
		break
	}
	return out, true
}
