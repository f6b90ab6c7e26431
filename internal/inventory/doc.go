// Package inventory lists a workspace's dependencies from its manifests and
// lockfiles: go.mod and go.sum; requirements*.txt, poetry.lock, uv.lock and
// pyproject.toml; package.json, package-lock.json, pnpm-lock.yaml and
// yarn.lock.
//
// Each Package carries its ecosystem and name as OSV spells them (PyPI names
// normalised per PEP 503), its exact version when one is known, whether it is
// a direct or transitive dependency, and where it is declared (file, line and
// byte span), so that findings land on the declaring line.
//
// It reads files only: it never runs a package manager and never touches the
// network. It must not import checks, lsp or the vulnerability store; the
// vulnerability check and the SBOM writer build on it.
//
// Read Parse first (one file, usable on an unsaved editor buffer), then Scan
// (a whole workspace) and Inventory.Packages (the effective set).
package inventory
