package deps

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aisbx/aisbx/checks"
)

// Options configures the check. The zero value is the offline default.
type Options struct {
	// Online lets the check ask the package registries about names it cannot
	// settle locally (new dependencies that are not popular, unresolved
	// imports). Off by default; when the registries cannot be reached, Run
	// returns its offline findings together with an error wrapping
	// ErrRegistryUnreachable.
	Online bool
	// Allow lists names that are never flagged: Go module or package paths
	// (a path also allows everything below it), PyPI distributions or Python
	// module names, npm package names.
	Allow []string
	// TyposquatDistance is the largest edit distance at which a new
	// dependency counts as a look-alike of a popular package. Zero means 1;
	// a negative value turns look-alike detection off.
	TyposquatDistance int
	// Registries overrides where Online looks names up; empty fields keep the
	// public registries (GOPROXY's first URL for Go).
	Registries Registries
	// OnlineTimeout bounds one registry request. Zero means 2s.
	OnlineTimeout time.Duration
	// GoModCache is the Go module cache; "" means $GOMODCACHE, else
	// $GOPATH/pkg/mod, else ~/go/pkg/mod.
	GoModCache string
	// GoRoot is the toolchain whose standard library counts; "" means
	// $GOROOT, else `go env GOROOT`. The Go 1.26 package list is built in
	// and used until the toolchain's own list is read.
	GoRoot string
}

// Registries are base URLs of package registries.
type Registries struct {
	PyPI    string // default https://pypi.org (GET /pypi/NAME/json)
	NPM     string // default https://registry.npmjs.org (HEAD /NAME)
	GoProxy string // default $GOPROXY's first URL, else https://proxy.golang.org
}

// Check is the dependency check. It is safe for concurrent use and keeps
// per-workspace resolution data cached between runs.
type Check struct {
	opts  Options
	dist  int
	allow allowList

	dirs dirCache
	goW  goCaches
	pyW  pyCaches
	jsW  jsCaches
	std  *stdLib
	git  gitBase
	reg  *registry // nil unless Online

	// envs memoises workspace snapshots (memo.go); gen counts the changes
	// DependsOn was told about, which end them.
	envs sync.Map
	gen  atomic.Int64
}

// New returns a dependency check.
func New(opts Options) *Check {
	c := &Check{opts: opts, dist: opts.TyposquatDistance}
	if c.dist == 0 {
		c.dist = 1
	}
	c.allow = newAllowList(opts.Allow)
	c.std = sharedStdLib(opts.GoRoot)
	c.goW.modCache = opts.GoModCache
	if c.goW.modCache == "" {
		c.goW.modCache = defaultModCache()
	}
	if opts.Online {
		c.reg = newRegistry(opts.Registries, opts.OnlineTimeout)
	}
	return c
}

// Name implements checks.Check.
func (c *Check) Name() string { return "deps" }

// Applies implements checks.Check: Go, Python and JS/TS sources and the
// manifests whose new dependencies it judges.
func (c *Check) Applies(f *checks.File) bool {
	if manifestKindOf(f.Path) != manifestNone {
		return true
	}
	if installedCode(f.Path) {
		return false
	}
	switch f.Language {
	case checks.LangGo, checks.LangPython, checks.LangJavaScript, checks.LangTypeScript:
		return true
	}
	return false
}

// Run implements checks.Check.
func (c *Check) Run(ctx context.Context, f *checks.File) ([]checks.Finding, error) {
	if k := manifestKindOf(f.Path); k != manifestNone {
		return c.newDependencies(ctx, f, k)
	}
	switch f.Language {
	case checks.LangGo:
		return c.runGo(ctx, f)
	case checks.LangPython:
		return c.runPython(ctx, f)
	case checks.LangJavaScript, checks.LangTypeScript:
		return c.runJS(ctx, f)
	}
	return nil, nil
}

// DependsOn reports whether a change at path can change this check's
// findings in files other than path, so that cached results must be dropped
// (checks.Engine.Invalidate). existenceChanged says the path was created,
// removed or renamed rather than written: a new foo.py or package directory
// can resolve an import that was unresolved a moment ago. When it returns
// true the check also drops its own workspace snapshots, so the next run
// reads the change.
func (c *Check) DependsOn(path string, existenceChanged bool) bool {
	if c.dependsOn(path, existenceChanged) {
		c.gen.Add(1)
		return true
	}
	return false
}

func (c *Check) dependsOn(path string, existenceChanged bool) bool {
	slash := filepath.ToSlash(path)
	base := filepath.Base(path)
	switch {
	case manifestKindOf(path) != manifestNone, resolutionFiles[base]:
		return true
	case strings.HasPrefix(base, "requirements") && (strings.HasSuffix(base, ".txt") || strings.HasSuffix(base, ".in")),
		strings.HasPrefix(base, "tsconfig") && strings.HasSuffix(base, ".json"):
		return true
	case strings.Contains(slash, "/site-packages/"), strings.Contains(slash, "/node_modules/"):
		return existenceChanged || strings.HasSuffix(base, ".pth") || base == "package.json"
	case strings.Contains(slash, "/.git/"):
		return base == "HEAD" || base == "packed-refs" || strings.Contains(slash, "/.git/refs/")
	case strings.HasSuffix(slash, "/vendor/modules.txt"):
		return true
	}
	if !existenceChanged {
		return false
	}
	switch filepath.Ext(base) {
	case "", ".py", ".pyi", ".so", ".go", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".d.ts":
		return true
	}
	return false
}

// installedCode reports files of installed third-party packages
// (node_modules, site-packages, a Go vendor/ tree): their imports are their
// authors' business, resolved by their own manifests.
func installedCode(path string) bool {
	slash := filepath.ToSlash(path)
	return strings.Contains(slash, "/node_modules/") || strings.Contains(slash, "/site-packages/") ||
		strings.Contains(slash, "/dist-packages/") || (strings.HasSuffix(slash, ".go") && strings.Contains(slash, "/vendor/"))
}

// resolutionFiles are files, other than manifests, that imports resolve against.
var resolutionFiles = map[string]bool{
	"go.work": true, "modules.txt": true,
	"setup.cfg": true, "setup.py": true, "poetry.lock": true, "uv.lock": true, "pdm.lock": true, "Pipfile.lock": true, "pyvenv.cfg": true,
	"package-lock.json": true, "npm-shrinkwrap.json": true, "yarn.lock": true, "pnpm-lock.yaml": true, "pnpm-workspace.yaml": true, "bun.lock": true,
	"jsconfig.json": true,
}

// ErrRegistryUnreachable is wrapped by the error Run returns when Online is
// set and a registry could not be asked.
var ErrRegistryUnreachable = errors.New("package registry unreachable")

// ancestors returns dir and its parents up to and including stop. When stop
// is "" or not above dir, the walk ends at the first directory holding .git,
// or at the filesystem root.
func (c *Check) ancestors(dir, stop string) []string {
	dir = filepath.Clean(dir)
	bounded := false
	if stop != "" {
		stop = filepath.Clean(stop)
		if rel, err := filepath.Rel(stop, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			bounded = true
		}
	}
	var out []string
	for {
		out = append(out, dir)
		if bounded && dir == stop {
			return out
		}
		if !bounded && statStamp(filepath.Join(dir, ".git")).exists {
			return out
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return out
		}
		dir = parent
	}
}

// joinErrs collects non-fatal errors of one run.
func joinErrs(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return errors.Join(errs...)
}
