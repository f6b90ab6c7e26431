package sbom

import (
	"encoding/json"
	"io"
	"regexp"

	"github.com/aisbx/aisbx/internal/inventory"
)

// The SPDX 2.3 JSON document, reduced to the fields aisbx fills.

type spdxDocument struct {
	SPDXVersion       string             `json:"spdxVersion"`
	DataLicense       string             `json:"dataLicense"`
	SPDXID            string             `json:"SPDXID"`
	Name              string             `json:"name"`
	DocumentNamespace string             `json:"documentNamespace"`
	CreationInfo      spdxCreationInfo   `json:"creationInfo"`
	Packages          []spdxPackage      `json:"packages"`
	Relationships     []spdxRelationship `json:"relationships"`
}

type spdxCreationInfo struct {
	Created  string   `json:"created"`
	Creators []string `json:"creators"`
}

type spdxPackage struct {
	SPDXID                string       `json:"SPDXID"`
	Name                  string       `json:"name"`
	VersionInfo           string       `json:"versionInfo,omitempty"`
	DownloadLocation      string       `json:"downloadLocation"`
	FilesAnalyzed         bool         `json:"filesAnalyzed"`
	PrimaryPackagePurpose string       `json:"primaryPackagePurpose,omitempty"`
	ExternalRefs          []spdxExtRef `json:"externalRefs,omitempty"`
	Comment               string       `json:"comment,omitempty"`
}

type spdxExtRef struct {
	ReferenceCategory string `json:"referenceCategory"`
	ReferenceType     string `json:"referenceType"`
	ReferenceLocator  string `json:"referenceLocator"`
}

type spdxRelationship struct {
	SPDXElementID      string `json:"spdxElementId"`
	RelationshipType   string `json:"relationshipType"`
	RelatedSPDXElement string `json:"relatedSpdxElement"`
}

var spdxIDUnsafe = regexp.MustCompile(`[^a-zA-Z0-9.-]+`)

func writeSPDX(w io.Writer, d *described, opts Options) error {
	const rootID = "SPDXRef-Project"
	doc := spdxDocument{
		SPDXVersion:       "SPDX-2.3",
		DataLicense:       "CC0-1.0",
		SPDXID:            "SPDXRef-DOCUMENT",
		Name:              d.name,
		DocumentNamespace: "https://spdx.org/spdxdocs/" + spdxIDUnsafe.ReplaceAllString(d.name, "-") + "-" + opts.Serial,
		CreationInfo: spdxCreationInfo{
			Created:  opts.Time.Format("2006-01-02T15:04:05Z"),
			Creators: []string{"Tool: aisbx-" + toolVersion()},
		},
	}
	doc.Packages = append(doc.Packages, spdxPackage{
		SPDXID: rootID, Name: d.name, VersionInfo: d.version,
		DownloadLocation: "NOASSERTION", PrimaryPackagePurpose: "APPLICATION",
	})
	doc.Relationships = append(doc.Relationships, spdxRelationship{"SPDXRef-DOCUMENT", "DESCRIBES", rootID})
	ids := map[string]string{} // Package.Key -> SPDXID
	for i, p := range d.packages {
		ids[p.Key()] = "SPDXRef-Package-" + itoa(i+1) + "-" + spdxIDUnsafe.ReplaceAllString(p.Name, "-")
	}
	for _, p := range d.packages {
		id := ids[p.Key()]
		sp := spdxPackage{
			SPDXID:                id,
			Name:                  p.Name,
			VersionInfo:           p.Version,
			DownloadLocation:      "NOASSERTION",
			PrimaryPackagePurpose: "LIBRARY",
			ExternalRefs:          []spdxExtRef{{"PACKAGE-MANAGER", "purl", d.refs[p.Key()]}},
		}
		if p.Location.File != "" {
			sp.Comment = p.Relation.String() + " dependency declared in " + locationString(p.Location)
		}
		doc.Packages = append(doc.Packages, sp)
		switch {
		case p.Relation == inventory.Direct && p.Dev:
			doc.Relationships = append(doc.Relationships, spdxRelationship{id, "DEV_DEPENDENCY_OF", rootID})
		case p.Relation == inventory.Direct:
			doc.Relationships = append(doc.Relationships, spdxRelationship{rootID, "DEPENDS_ON", id})
		}
		for _, k := range p.Deps {
			if dep, ok := ids[k]; ok && dep != id {
				doc.Relationships = append(doc.Relationships, spdxRelationship{id, "DEPENDS_ON", dep})
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
