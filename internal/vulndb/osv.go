package vulndb

import (
	"encoding/json"
	"time"
)

// Advisory is one OSV record (https://ossf.github.io/osv-schema/), reduced
// to the fields aisbx reads.
type Advisory struct {
	ID               string          `json:"id"`
	Modified         time.Time       `json:"modified"`
	Published        time.Time       `json:"published"`
	Withdrawn        *time.Time      `json:"withdrawn,omitempty"`
	Aliases          []string        `json:"aliases,omitempty"`
	Summary          string          `json:"summary,omitempty"`
	Details          string          `json:"details,omitempty"`
	Severity         []SeverityEntry `json:"severity,omitempty"`
	Affected         []Affected      `json:"affected"`
	References       []Reference     `json:"references,omitempty"`
	DatabaseSpecific json.RawMessage `json:"database_specific,omitempty"`
}

// SeverityEntry is a CVSS vector ("CVSS_V3", "CVSS:3.1/AV:N/...").
type SeverityEntry struct {
	Type  string `json:"type"`
	Score string `json:"score"`
}

// Affected is one package an advisory affects, and which versions.
type Affected struct {
	Package           AffectedPackage `json:"package"`
	Severity          []SeverityEntry `json:"severity,omitempty"`
	Ranges            []Range         `json:"ranges,omitempty"`
	Versions          []string        `json:"versions,omitempty"`
	EcosystemSpecific json.RawMessage `json:"ecosystem_specific,omitempty"`
	DatabaseSpecific  json.RawMessage `json:"database_specific,omitempty"`
}

// AffectedPackage names a package as OSV does.
type AffectedPackage struct {
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	PURL      string `json:"purl,omitempty"`
}

// Range is a set of version events of one type: SEMVER, ECOSYSTEM or GIT.
type Range struct {
	Type   string  `json:"type"`
	Repo   string  `json:"repo,omitempty"`
	Events []Event `json:"events"`
}

// Event is one change of status; exactly one field is set.
type Event struct {
	Introduced   string `json:"introduced,omitempty"`
	Fixed        string `json:"fixed,omitempty"`
	LastAffected string `json:"last_affected,omitempty"`
	Limit        string `json:"limit,omitempty"`
}

// Reference is a link about the advisory.
type Reference struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// GoImport is an entry of a Go advisory's ecosystem_specific.imports: the
// package path and the symbols whose use makes code vulnerable.
type GoImport struct {
	Path    string   `json:"path"`
	Symbols []string `json:"symbols,omitempty"`
}

// GoImports reads the Go vulnerability database's per-package symbols.
func (a *Affected) GoImports() []GoImport {
	if len(a.EcosystemSpecific) == 0 {
		return nil
	}
	var es struct {
		Imports []GoImport `json:"imports"`
	}
	if json.Unmarshal(a.EcosystemSpecific, &es) != nil {
		return nil
	}
	return es.Imports
}
