package deps

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aisbx/aisbx/checks"
	"golang.org/x/mod/module"
)

// registry asks PyPI, npm and the Go module proxy whether names exist. Its
// answers are cached (an hour), and after a failure it does not ask the
// same registry again for a minute, so an offline laptop is not slowed
// down on every keystroke.
type registry struct {
	urls    [numEcosystems]string
	client  *http.Client
	budget  time.Duration // for all the lookups of one run
	mu      sync.Mutex
	answers map[string]regAnswer
	down    [numEcosystems]regDown
}

type regAnswer struct {
	exists bool
	at     time.Time
}

type regDown struct {
	until time.Time
	err   error
}

const (
	regAnswerTTL = time.Hour
	regBackoff   = time.Minute
)

func newRegistry(r Registries, timeout time.Duration) *registry {
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	reg := &registry{client: &http.Client{Timeout: timeout}, budget: timeout, answers: map[string]regAnswer{}}
	reg.urls[ecoPyPI] = strings.TrimRight(firstNonEmpty(r.PyPI, "https://pypi.org"), "/")
	reg.urls[ecoNPM] = strings.TrimRight(firstNonEmpty(r.NPM, "https://registry.npmjs.org"), "/")
	reg.urls[ecoGo] = strings.TrimRight(firstNonEmpty(r.GoProxy, goProxyFromEnv(), "https://proxy.golang.org"), "/")
	return reg
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// goProxyFromEnv returns the first URL of $GOPROXY, or "".
func goProxyFromEnv() string {
	for _, p := range strings.FieldsFunc(os.Getenv("GOPROXY"), func(r rune) bool { return r == ',' || r == '|' }) {
		if strings.HasPrefix(p, "https://") || strings.HasPrefix(p, "http://") {
			return p
		}
	}
	return ""
}

// exists reports whether the registry of e has a package called name.
func (r *registry) exists(ctx context.Context, e ecosystem, name string) (bool, error) {
	key := e.String() + "\x00" + name
	r.mu.Lock()
	if a, ok := r.answers[key]; ok && time.Since(a.at) < regAnswerTTL {
		r.mu.Unlock()
		return a.exists, nil
	}
	if d := r.down[e]; time.Now().Before(d.until) {
		r.mu.Unlock()
		return false, d.err
	}
	r.mu.Unlock()

	req, err := r.request(ctx, e, name)
	if err != nil {
		return false, err
	}
	resp, err := r.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err() // our deadline, not the registry's fault
		}
		err = fmt.Errorf("%s (%s): %w: %v", e, r.urls[e], ErrRegistryUnreachable, err)
		r.mu.Lock()
		r.down[e] = regDown{until: time.Now().Add(regBackoff), err: err}
		r.mu.Unlock()
		return false, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	var exists bool
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		exists = true
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		exists = false
	default:
		return false, fmt.Errorf("%s (%s) answered %s for %q: %w", e, r.urls[e], resp.Status, name, ErrRegistryUnreachable)
	}
	r.mu.Lock()
	r.answers[key] = regAnswer{exists: exists, at: time.Now()}
	r.mu.Unlock()
	return exists, nil
}

func (r *registry) request(ctx context.Context, e ecosystem, name string) (*http.Request, error) {
	switch e {
	case ecoPyPI:
		return http.NewRequestWithContext(ctx, http.MethodGet, r.urls[e]+"/pypi/"+url.PathEscape(pep503(name))+"/json", nil)
	case ecoNPM:
		// Scoped names keep their "@" and escape the "/".
		return http.NewRequestWithContext(ctx, http.MethodHead, r.urls[e]+"/"+strings.Replace(name, "/", "%2f", 1), nil)
	case ecoGo:
		esc, err := module.EscapePath(name)
		if err != nil {
			return nil, fmt.Errorf("module path %q: %w", name, err)
		}
		return http.NewRequestWithContext(ctx, http.MethodGet, r.urls[e]+"/"+esc+"/@v/list", nil)
	}
	return nil, fmt.Errorf("no registry for %s", e)
}

// pending is a finding whose verdict an online lookup may sharpen.
type pending struct {
	idx  int
	eco  ecosystem
	name string
}

// errOnlineIncomplete says a run's time for registry lookups ran out; the
// answers that came are cached, so the next run goes on from there.
var errOnlineIncomplete = errors.New("not every name could be verified in time; the next check goes on")

// lookupAll asks the registry about every pending name, four at a time,
// within one request timeout for them all: a manifest with twenty new names
// must not hold the check past the engine's timeout.
func (r *registry) lookupAll(ctx context.Context, ps []pending) ([]bool, []error) {
	ctx, cancel := context.WithTimeout(ctx, r.budget)
	defer cancel()
	found := make([]bool, len(ps))
	errs := make([]error, len(ps))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			found[i], errs[i] = r.exists(ctx, p.eco, p.name)
			if errs[i] != nil && errors.Is(errs[i], context.DeadlineExceeded) {
				errs[i] = errOnlineIncomplete
			}
		}()
	}
	wg.Wait()
	return found, errs
}

// verifyImports turns unresolved imports whose package the registry does
// not know into errors: the name was invented.
func (c *Check) verifyImports(ctx context.Context, out []checks.Finding, ps []pending) error {
	if c.reg == nil || len(ps) == 0 {
		return nil
	}
	found, errs := c.reg.lookupAll(ctx, ps)
	for i, p := range ps {
		if errs[i] == nil && !found[i] {
			fd := &out[p.idx]
			fd.Severity = checks.SeverityError
			fd.Message = fmt.Sprintf("%q does not exist on %s: the import was most likely invented, and anyone could register that name. %s", p.name, p.eco, fd.Message)
		}
	}
	return firstRegistryErr(errs)
}

// verifyDeps adds a dep-not-found error for new dependencies the registry
// does not have, replacing the review note.
func (c *Check) verifyDeps(ctx context.Context, out []checks.Finding, ps []pending) error {
	if c.reg == nil || len(ps) == 0 {
		return nil
	}
	found, errs := c.reg.lookupAll(ctx, ps)
	for i, p := range ps {
		if errs[i] != nil || found[i] {
			continue
		}
		fd := &out[p.idx]
		msg := fmt.Sprintf("%q does not exist on %s: remove it or use the real package; anyone could register that name and ship code to whoever installs it", p.name, p.eco)
		nf := finding(RuleNotFound, fd.Start, fd.End, msg)
		if fd.Rule == RuleTyposquat {
			nf.Fixes = fd.Fixes
		}
		*fd = nf
	}
	return firstRegistryErr(errs)
}

func firstRegistryErr(errs []error) error {
	var out []error
	seen := map[string]bool{}
	for _, err := range errs {
		if err != nil && !seen[err.Error()] {
			seen[err.Error()] = true
			out = append(out, err)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return fmt.Errorf("online verification: %w", errors.Join(out...))
}
