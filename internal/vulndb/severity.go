package vulndb

import (
	"encoding/json"
	"strings"

	cvss20 "github.com/pandatix/go-cvss/20"
	cvss30 "github.com/pandatix/go-cvss/30"
	cvss31 "github.com/pandatix/go-cvss/31"
	cvss40 "github.com/pandatix/go-cvss/40"
)

// Level is a qualitative severity, as CVSS v3 names its score bands.
type Level string

const (
	LevelUnknown  Level = "unknown"
	LevelLow      Level = "low"
	LevelMedium   Level = "medium"
	LevelHigh     Level = "high"
	LevelCritical Level = "critical"
)

// Severity is how bad an advisory is.
type Severity struct {
	Level Level
	// Score is the CVSS base score (0.0–10.0) when the advisory carries a
	// vector; 0 otherwise.
	Score  float64
	Vector string
	// Source says where the severity came from: "CVSS_V3", "CVSS_V4",
	// "CVSS_V2", "database_specific", or "" when the advisory gives none
	// (the Go vulnerability database does not rate its entries).
	Source string
}

// LevelOf returns the CVSS v3 band of a base score.
func LevelOf(score float64) Level {
	switch {
	case score >= 9.0:
		return LevelCritical
	case score >= 7.0:
		return LevelHigh
	case score >= 4.0:
		return LevelMedium
	case score > 0:
		return LevelLow
	}
	return LevelUnknown
}

// SeverityOf rates an advisory for one affected entry: a CVSS vector,
// preferring v3 (what most gates are written against), then v4, then v2,
// scored with pandatix/go-cvss (the library osv-scanner uses); failing
// that, the database's own label (GitHub's "severity": "MODERATE").
func SeverityOf(adv *Advisory, aff *Affected) Severity {
	entries := adv.Severity
	if aff != nil && len(aff.Severity) > 0 {
		entries = aff.Severity
	}
	for _, typ := range []string{"CVSS_V3", "CVSS_V4", "CVSS_V2"} {
		for _, e := range entries {
			if e.Type != typ {
				continue
			}
			if score, ok := cvssBaseScore(typ, e.Score); ok {
				return Severity{Level: LevelOf(score), Score: score, Vector: e.Score, Source: typ}
			}
		}
	}
	for _, raw := range []json.RawMessage{dbSpecific(aff), adv.DatabaseSpecific} {
		var ds struct {
			Severity string `json:"severity"`
		}
		if len(raw) == 0 || json.Unmarshal(raw, &ds) != nil || ds.Severity == "" {
			continue
		}
		switch strings.ToUpper(ds.Severity) {
		case "CRITICAL":
			return Severity{Level: LevelCritical, Source: "database_specific"}
		case "HIGH":
			return Severity{Level: LevelHigh, Source: "database_specific"}
		case "MODERATE", "MEDIUM":
			return Severity{Level: LevelMedium, Source: "database_specific"}
		case "LOW":
			return Severity{Level: LevelLow, Source: "database_specific"}
		}
	}
	return Severity{Level: LevelUnknown}
}

func dbSpecific(aff *Affected) json.RawMessage {
	if aff == nil {
		return nil
	}
	return aff.DatabaseSpecific
}

// cvssBaseScore scores a CVSS vector of the given OSV type.
func cvssBaseScore(typ, vector string) (float64, bool) {
	switch typ {
	case "CVSS_V3":
		if strings.HasPrefix(vector, "CVSS:3.0/") {
			c, err := cvss30.ParseVector(vector)
			if err != nil {
				return 0, false
			}
			return c.BaseScore(), true
		}
		c, err := cvss31.ParseVector(vector)
		if err != nil {
			return 0, false
		}
		return c.BaseScore(), true
	case "CVSS_V4":
		c, err := cvss40.ParseVector(vector)
		if err != nil {
			return 0, false
		}
		return c.Score(), true
	case "CVSS_V2":
		c, err := cvss20.ParseVector(vector)
		if err != nil {
			return 0, false
		}
		return c.BaseScore(), true
	}
	return 0, false
}
