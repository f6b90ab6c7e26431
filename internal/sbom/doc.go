// Package sbom writes a workspace's dependency inventory as a software bill
// of materials: CycloneDX 1.5 JSON through github.com/CycloneDX/cyclonedx-go,
// or SPDX 2.3 JSON through the small set of structs in spdx.go (no
// maintained Go SPDX library builds here without a heavy dependency tree,
// and the document aisbx writes uses a handful of fields).
//
// Both carry package URLs, the direct/transitive graph where the lockfiles
// record it, and the tool that made them. Encode returns the bytes and
// their sha256, so a run record can store the hash and keep the file.
//
// It must not import checks, lsp or the vulnerability store. Read Encode
// first.
package sbom
