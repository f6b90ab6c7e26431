package provenance

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/aisbx/aisbx/checks"
)

// BlockPolicy says which findings in an agent's edit make its hook refuse
// the edit (aisbx.toml: hooks.block).
type BlockPolicy string

const (
	BlockNever  BlockPolicy = "never"  // report, never block
	BlockSecret BlockPolicy = "secret" // block edits that add a secret
	BlockError  BlockPolicy = "error"  // block edits that add a secret or any error-level finding
)

// ParseBlockPolicy reads "never", "secret" or "error".
func ParseBlockPolicy(s string) (BlockPolicy, error) {
	switch p := BlockPolicy(strings.ToLower(strings.TrimSpace(s))); p {
	case BlockNever, BlockSecret, BlockError:
		return p, nil
	}
	return "", fmt.Errorf("unknown block policy %q (want never, secret or error)", s)
}

// Decision is whether a hook must block, and what to tell the agent. With
// Claude Code's convention the CLI exits 2 and writes Reason to stderr.
type Decision struct {
	Block  bool
	Reason string
}

// maxReasonFindings bounds how many findings the reason lists.
const maxReasonFindings = 10

// Decide applies policy to the findings of checks run on content (the file
// as the edit leaves it). Only findings on lines in ranges count (the lines
// the edit wrote); nil ranges count every line. The reason names rules,
// lines and messages, never the offending text: findings do not carry
// secrets and neither does the reason.
func Decide(policy BlockPolicy, file string, content []byte, ranges []Range, findings []checks.Finding) Decision {
	if policy == BlockNever || policy == "" {
		return Decision{}
	}
	x := newLineIndex(content)
	var hits []blockHit
	for _, f := range findings {
		if !blocks(policy, f) {
			continue
		}
		first, last := x.lineOf(f.Start), x.lineOf(max(f.Start, f.End-1))
		if ranges != nil && !touches(ranges, first, last+1) {
			continue
		}
		hits = append(hits, blockHit{first, f})
	}
	if len(hits) == 0 {
		return Decision{}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].line < hits[j].line })
	var b strings.Builder
	what := "an error-level finding"
	if policy == BlockSecret {
		what = "a secret"
	}
	fmt.Fprintf(&b, "aisbx blocked this edit to %s: it adds %s (policy %q).\n", filepath.Base(file), what, policy)
	for i, h := range hits {
		if i == maxReasonFindings {
			fmt.Fprintf(&b, "  ... and %d more\n", len(hits)-i)
			break
		}
		fmt.Fprintf(&b, "  line %d: %s [%s, %s]", h.line+1, h.f.Message, h.f.Rule, h.f.Category)
		if h.f.DocURL != "" {
			fmt.Fprintf(&b, " %s", h.f.DocURL)
		}
		b.WriteByte('\n')
	}
	if policy == BlockSecret || hasSecret(hits) {
		b.WriteString("Do not write credentials into files: read them from the environment or a secret store, and write the edit again without them.\n")
	} else {
		b.WriteString("Fix these findings and write the edit again.\n")
	}
	return Decision{Block: true, Reason: b.String()}
}

func blocks(policy BlockPolicy, f checks.Finding) bool {
	switch policy {
	case BlockSecret:
		return f.Category == checks.CategorySecret
	case BlockError:
		return f.Category == checks.CategorySecret || f.Severity == checks.SeverityError
	}
	return false
}

func touches(ranges []Range, start, end int) bool {
	for _, r := range ranges {
		if r.Start < end && start < r.End {
			return true
		}
	}
	return false
}

// blockHit is a finding that blocks, with its 0-based first line.
type blockHit struct {
	line int
	f    checks.Finding
}

func hasSecret(hits []blockHit) bool {
	for _, h := range hits {
		if h.f.Category == checks.CategorySecret {
			return true
		}
	}
	return false
}
