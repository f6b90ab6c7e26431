// Package vulndb is aisbx's local copy of the OSV vulnerability database for
// the Go, PyPI and npm ecosystems, and the matcher that says whether a
// package version is affected.
//
// The store lives under the user cache directory (DefaultDir); `aisbxd
// vulndb import` fills it from OSV's per-ecosystem exports (all.zip, one
// JSON advisory per file) and `aisbxd vulndb update` downloads them. Each
// ecosystem is one file holding a sorted name index and the advisories'
// JSON, so opening it reads only the index and a lookup reads only the
// advisories of that package.
//
// Matching follows OSV's evaluation rules (introduced, fixed,
// last_affected and limit events, plus explicit versions lists) with each
// ecosystem's ordering: Go module semver (golang.org/x/mod/semver), npm
// semver (Masterminds/semver), and PEP 440 for PyPI (pep440.go).
//
// It must not import checks or lsp: checks/vulns turns matches into
// findings. Read Store.Match first, then Affects, then Import.
package vulndb
