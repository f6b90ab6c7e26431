package testsel

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/aisbx/aisbx/internal/gitx"
	"github.com/aisbx/aisbx/internal/ignore"
)

// ChangedSince lists the files of the workspace at root that differ from
// git revision rev ("" means HEAD): modified, added, deleted and renamed
// files of the work tree and index, plus untracked files no ignore rule
// excludes. Paths are slash-separated and relative to root, also when root
// is a subdirectory of the repository.
func ChangedSince(ctx context.Context, root, rev string) ([]string, error) {
	if rev == "" {
		rev = "HEAD"
	}
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("revision %q looks like a flag", rev)
	}
	diff, err := gitx.Output(ctx, root, "diff", "--name-only", "-z", "--no-renames", "--relative", rev, "--", ".")
	if err != nil {
		return nil, fmt.Errorf("git diff against %s: %w", rev, err)
	}
	untracked, err := gitx.Output(ctx, root, "ls-files", "-z", "--others", "--exclude-standard", "--", ".")
	if err != nil {
		return nil, fmt.Errorf("listing untracked files: %w", err)
	}
	m := ignore.NewMatcher(root)
	seen := map[string]bool{}
	var out []string
	for i, chunk := range [][]byte{diff, untracked} {
		for _, f := range bytes.Split(chunk, []byte{0}) {
			p := string(f)
			if p == "" || seen[p] || strings.HasPrefix(p, "../") {
				continue
			}
			seen[p] = true
			// ls-files honours .gitignore; the matcher adds aisbx's
			// always-skipped directories (node_modules, .aisbx, ...). A
			// tracked file's change counts wherever it is.
			if i == 1 && m.Ignored(p, false) {
				continue
			}
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}
