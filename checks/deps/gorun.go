package deps

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/aisbx/aisbx/checks"
)

func (c *Check) runGo(ctx context.Context, f *checks.File) ([]checks.Finding, error) {
	imps := goImports(f.Content)
	if len(imps) == 0 {
		return nil, nil
	}
	var env *goRun
	var out []checks.Finding
	var online []pending
	for _, imp := range imps {
		if imp.path == "C" || c.std.has(imp.path) || c.allow.path(imp.path) {
			continue
		}
		if env == nil {
			ge, err := c.goEnvMemo(filepath.Dir(f.Path), f.Root)
			if ge == nil {
				return nil, err
			}
			env = &goRun{goEnv: ge}
		}
		verdict, mod := env.resolve(imp.path)
		if verdict == goOK {
			continue
		}
		out = append(out, c.goUnresolved(env, imp, verdict, mod))
		if verdict == goNoModule {
			online = append(online, pending{idx: len(out) - 1, eco: ecoGo, name: goModuleGuess(imp.path)})
		}
	}
	return out, c.verifyImports(ctx, out, online)
}

// goModuleGuess is the module an import path most likely belongs to: three
// elements on the big code hosts, else the whole path.
func goModuleGuess(path string) string {
	parts := strings.Split(path, "/")
	if owner(ecoGo, path) != parts[0] && len(parts) > 3 {
		return strings.Join(parts[:3], "/")
	}
	return path
}

func (c *Check) goUnresolved(env *goRun, imp importRef, v goVerdict, mod string) checks.Finding {
	p := imp.path
	// A near miss of a required module is most likely a typo: offer the fix.
	for _, k := range env.known {
		if v == goMissingPackage || v == goNotVendored {
			break // the module is known; only the package is missing
		}
		n := strings.Count(k, "/") + 1
		parts := strings.SplitN(p, "/", n+1)
		if len(parts) < n {
			continue
		}
		prefix := strings.Join(parts[:n], "/")
		if prefix != k && typoSegmentLen(prefix, k) >= minTargetLen && c.nearPath(prefix, k) {
			msg := fmt.Sprintf("no module in go.mod provides %q; did you mean %q?", p, k+p[len(prefix):])
			return finding(RuleGoUnresolved, imp.start, imp.start+len(prefix), msg, replaceFix("Replace with "+k, imp.start, imp.start+len(prefix), k))
		}
	}
	switch v {
	case goNotStd:
		return finding(RuleGoUnresolved, imp.start, imp.end, fmt.Sprintf("%q is not a standard library package, and no module in go.mod provides it; third-party paths start with a domain: check the path", p))
	case goMissingPackage:
		return finding(RuleGoUnresolved, imp.start, imp.end, fmt.Sprintf("module %s has no package %q: check the path (an assistant may have invented the subpackage)", mod, p))
	case goNotVendored:
		return finding(RuleGoUnresolved, imp.start, imp.end, fmt.Sprintf("%q is not in vendor/modules.txt: run go mod vendor", p))
	}
	guess := goModuleGuess(p)
	if popularity(ecoGo).rank(guess) > 0 {
		return finding(RuleGoUnresolved, imp.start, imp.end, fmt.Sprintf("%s is not required in go.mod: run go get %s", guess, guess))
	}
	if t := c.popularLookalike(ecoGo, guess); t != "" {
		msg := fmt.Sprintf("no module in go.mod provides %q, and %s is one typo away from the popular module %s: check the path before you go get anything", p, guess, t)
		end := imp.start + len(guess)
		return finding(RuleGoUnresolved, imp.start, imp.end, msg, replaceFix("Replace with "+t, imp.start, end, t))
	}
	return finding(RuleGoUnresolved, imp.start, imp.end, fmt.Sprintf("no module in go.mod provides %q: check that the package really exists, then go get it", p))
}

// typoSegmentLen is the length of the first path element where a and b
// differ, as b spells it: a one-letter difference in a one-letter element
// (example.com/a vs example.com/c) is not a typo worth pointing at.
func typoSegmentLen(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for i := range bs {
		if i >= len(as) || as[i] != bs[i] {
			return len(bs[i])
		}
	}
	return 0
}

// nearPath reports whether a module path prefix is a near miss of module k.
func (c *Check) nearPath(prefix, k string) bool {
	if c.dist < 0 {
		return false
	}
	a, b := strings.ToLower(prefix), strings.ToLower(k)
	return editDistance(a, b, c.dist) <= c.dist || skeleton(a) == skeleton(b)
}
