// Package deps checks dependencies for the AI-specific risk: imports of
// packages that do not exist (hallucinated) and new dependencies whose names
// sit one typo away from a popular package (typosquatted, "slopsquatted").
//
// For Go, Python and JavaScript/TypeScript source it flags every import that
// resolves to neither the standard library, the workspace's own code, nor a
// dependency the workspace declares or has installed. A Python or JS file
// with no manifest or virtualenv above it (a loose script) gets only the
// near misses of popular packages (pyLooseTypo, jsLooseTypo): what it
// imports may be installed anywhere. For manifests (go.mod,
// requirements*.txt, pyproject.toml, Pipfile, package.json) it compares the
// buffer with the manifest at git HEAD and judges each newly added name
// against shipped lists of popular packages. Everything works offline; asking
// the registries is behind Options.Online.
//
// Resolution data (manifests, lockfiles, site-packages, node_modules, the
// standard library lists) is cached per file and revalidated by stat; a
// workspace snapshot is reused for up to a second, or until DependsOn hears
// of a change, so a warm check costs well under a microsecond per import.
// Imports are found by small lexers (Python, JS/TS) and go/parser (Go); the
// tests hold the lexers to tree-sitter's answers on real code.
//
// It imports checks and the standard library plus golang.org/x/mod and
// BurntSushi/toml; it must never import lsp/, go.lsp.dev or the CLI.
//
// Read New and Check.Run first, then goRun.resolve (gomod.go),
// pyEnv.resolve (pyenv.go) and jsRun.resolve (jsenv.go); newDependencies
// (newdeps.go) holds the manifest side, popList.lookalike the typosquat
// judgement.
package deps
