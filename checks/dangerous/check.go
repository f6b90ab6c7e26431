package dangerous

import (
	"context"
	"fmt"
	"sort"

	"github.com/aisbx/aisbx/checks"
)

// DefaultMaxFileBytes bounds the files the check parses when
// Options.MaxFileBytes is zero. Larger files are generated or vendored far
// more often than written by hand, and parsing them would stall a keystroke.
const DefaultMaxFileBytes = 4 << 20

// Options tunes the check. The zero value enables every rule.
type Options struct {
	// DisabledRules are rule ids (e.g. "go-weak-hash") that never report.
	// Unlike the engine's list, disabling here also skips the analysis.
	DisabledRules []string
	// MaxFileBytes skips files larger than this. Zero means
	// DefaultMaxFileBytes; negative means no limit.
	MaxFileBytes int
	// TreeCacheEntries bounds how many files' syntax trees are kept so that
	// re-checking an edited file reparses only the edit. Zero means
	// DefaultTreeCacheEntries; negative disables the cache (a one-shot scan
	// such as `aisbxd check` gains nothing from it).
	TreeCacheEntries int
}

// Check finds dangerous code patterns with real parsers: go/ast for Go and
// tree-sitter for Python, JavaScript, TypeScript and shell.
type Check struct {
	disabled map[string]bool
	maxBytes int
	trees    *treeCache // nil when disabled
}

var (
	_ checks.Check      = (*Check)(nil)
	_ checks.RuleLister = (*Check)(nil)
)

// New returns the check. It is safe for concurrent use.
func New(opts Options) *Check {
	c := &Check{disabled: map[string]bool{}, maxBytes: opts.MaxFileBytes}
	for _, id := range opts.DisabledRules {
		c.disabled[id] = true
	}
	if c.maxBytes == 0 {
		c.maxBytes = DefaultMaxFileBytes
	}
	switch n := opts.TreeCacheEntries; {
	case n == 0:
		c.trees = newTreeCache(DefaultTreeCacheEntries)
	case n > 0:
		c.trees = newTreeCache(n)
	}
	return c
}

// Close frees the cached syntax trees (C memory). The check stays usable.
func (c *Check) Close() { c.trees.close() }

// Name implements checks.Check.
func (c *Check) Name() string { return "dangerous" }

// Applies implements checks.Check.
func (c *Check) Applies(f *checks.File) bool {
	switch f.Language {
	case checks.LangGo, checks.LangPython, checks.LangJavaScript, checks.LangTypeScript, checks.LangShell:
		return c.maxBytes < 0 || len(f.Content) <= c.maxBytes
	}
	return false
}

// Run implements checks.Check. A file that does not parse is analyzed as far
// as its parser recovered; a syntax error is never a finding.
func (c *Check) Run(ctx context.Context, f *checks.File) ([]checks.Finding, error) {
	if !c.Applies(f) {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := &report{disabled: c.disabled}
	var err error
	switch f.Language {
	case checks.LangGo:
		err = analyzeGo(ctx, f, r)
	case checks.LangPython:
		err = analyzePython(ctx, f, r, c.trees)
	case checks.LangJavaScript, checks.LangTypeScript:
		err = analyzeJS(ctx, f, r, c.trees)
	case checks.LangShell:
		err = analyzeShell(ctx, f, r, c.trees)
	}
	if err != nil {
		return nil, fmt.Errorf("dangerous: %s: %w", f.Rel(), err)
	}
	// The engine sorts too, but the check is usable on its own.
	sort.SliceStable(r.out, func(i, j int) bool {
		if r.out[i].Start != r.out[j].Start {
			return r.out[i].Start < r.out[j].Start
		}
		return r.out[i].Rule < r.out[j].Rule
	})
	return r.out, nil
}
