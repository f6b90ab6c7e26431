package deps

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aisbx/aisbx/checks"
)

// fakeRegistry serves the three registry protocols on loopback for the names
// it knows, and answers 404 for the rest, as the real ones do (for npm, a
// HEAD of an unknown package was seen to answer 404 with an empty body; the
// Go proxy answers 404 or 410 "not found").
func fakeRegistry(t *testing.T, known ...string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	set := map[string]bool{}
	for _, k := range known {
		set[k] = true
	}
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		p := r.URL.EscapedPath()
		var name string
		switch {
		case strings.HasPrefix(p, "/pypi/") && strings.HasSuffix(p, "/json"):
			name = "pypi:" + strings.TrimSuffix(strings.TrimPrefix(p, "/pypi/"), "/json")
		case strings.HasSuffix(p, "/@v/list"):
			name = "go:" + strings.TrimSuffix(strings.TrimPrefix(p, "/"), "/@v/list")
		case r.Method == http.MethodHead:
			name = "npm:" + strings.Replace(strings.TrimPrefix(p, "/"), "%2f", "/", 1)
		}
		if set[name] {
			w.WriteHeader(http.StatusOK)
			return
		}
		if strings.HasPrefix(name, "go:") {
			http.Error(w, "not found: module "+name, http.StatusGone)
			return
		}
		w.WriteHeader(http.StatusNotFound)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func onlineCheck(url string) *Check {
	return New(Options{Online: true, OnlineTimeout: time.Second, GoModCache: "",
		Registries: Registries{PyPI: url, NPM: url, GoProxy: url}})
}

// TestOnlineManifest: with Online, a new dependency the registry does not
// have becomes a dep-not-found error; one it has stays a review note.
func TestOnlineManifest(t *testing.T) {
	srv, hits := fakeRegistry(t, "pypi:flask-extra-tools", "npm:@acme/known")
	requireTool(t, "git")
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q")
	c := onlineCheck(srv.URL)
	write := func(name, content string) {
		if err := writeFile(filepath.Join(dir, name), content); err != nil {
			t.Fatal(err)
		}
	}
	write("requirements.txt", "flask\n")
	write("package.json", `{"dependencies": {}}`)
	gitRun(t, dir, "add", ".")
	gitRun(t, dir, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "base")

	f, fs := runManifest(t, c, dir, "requirements.txt", "flask\nflask-extra-tools\nflask-halucinated-helper\nreqeusts\n")
	got := strings.Join(describe(f, fs), "\n")
	want := strings.Join(sorted([]string{
		"dep-new-unknown flask-extra-tools",
		"dep-not-found flask-halucinated-helper",
		"dep-not-found reqeusts -> requests",
	}), "\n")
	if got != want {
		t.Errorf("requirements.txt:\n%s\nwant\n%s", got, want)
	}
	for _, fd := range fs {
		if fd.Rule == RuleNotFound && fd.Severity != checks.SeverityError {
			t.Errorf("dep-not-found severity %s", fd.Severity)
		}
	}
	f, fs = runManifest(t, c, dir, "package.json", `{"dependencies": {"@acme/known": "1", "@acme/made-up": "1"}}`)
	if got := strings.Join(describe(f, fs), "\n"); got != "dep-new-unknown @acme/known\ndep-not-found @acme/made-up" {
		t.Errorf("package.json:\n%s", got)
	}
	// Answers are cached: the same run asks nothing new.
	n := hits.Load()
	runManifest(t, c, dir, "package.json", `{"dependencies": {"@acme/known": "1", "@acme/made-up": "1"}}`)
	if hits.Load() != n {
		t.Errorf("registry asked again: %d -> %d requests", n, hits.Load())
	}
}

// TestOnlineImports: an unresolved import whose package does not exist is
// escalated to an error saying so.
func TestOnlineImports(t *testing.T) {
	srv, _ := fakeRegistry(t, "npm:react-super-hooks", "go:github.com/sirupsen/logrus")
	c := onlineCheck(srv.URL)
	f, fs, err := runFile(t, c, "js/proj", "js/proj/src/App.tsx")
	if err != nil {
		t.Fatal(err)
	}
	bySpec := map[string]checks.Finding{}
	for _, fd := range fs {
		bySpec[string(f.Content[fd.Start:fd.End])] = fd
	}
	if fd := bySpec["react-super-hooks"]; fd.Severity != checks.SeverityWarning {
		t.Errorf("an existing package was escalated: %+v", fd)
	}
	if fd := bySpec["side-effect-pkg"]; fd.Severity != checks.SeverityError || !strings.Contains(fd.Message, "does not exist on npm") {
		t.Errorf("a missing package was not escalated: %+v", fd)
	}
	c.goW.modCache = abs(t, "gomodcache")
	f, fs, err = runFile(t, c, "go/app", "go/app/main.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fs {
		text := string(f.Content[fd.Start:fd.End])
		if text == "github.com/hallucinated/fastjson" && fd.Severity != checks.SeverityError {
			t.Errorf("hallucinated module not escalated: %+v", fd)
		}
	}
}

// TestOffline: when the registry cannot be reached, the offline findings
// still come back, with an error that says why, and the check does not
// retry on every run.
func TestOffline(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there now: connections are refused
	c := onlineCheck(url)
	f := checks.NewFile(t.TempDir(), filepath.Join(t.TempDir(), "requirements.txt"), []byte("reqeusts\n"))
	fs, err := c.Run(context.Background(), f)
	if !errors.Is(err, ErrRegistryUnreachable) {
		t.Fatalf("err = %v, want ErrRegistryUnreachable", err)
	}
	if len(fs) != 1 || fs[0].Rule != RuleTyposquat {
		t.Fatalf("offline findings lost: %+v", fs)
	}
	start := time.Now()
	if _, err := c.Run(context.Background(), f); !errors.Is(err, ErrRegistryUnreachable) {
		t.Fatalf("second run: %v", err)
	}
	if c.reg.down[ecoPyPI].until.Before(start) {
		t.Errorf("no back-off recorded after the failure")
	}
}

// TestOnlineBudget: a slow registry cannot hold the check past its budget;
// the offline findings come back with an error that says so, and the slow
// registry is not taken for a dead one.
func TestOnlineBudget(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusNotFound)
	}))
	defer srv.Close()
	c := New(Options{Online: true, OnlineTimeout: 150 * time.Millisecond, Registries: Registries{PyPI: srv.URL}})
	f := checks.NewFile("", filepath.Join(t.TempDir(), "requirements.txt"), []byte("reqeusts\ncolourama\n"))
	fs, err := c.Run(context.Background(), f)
	if !errors.Is(err, errOnlineIncomplete) {
		t.Fatalf("err = %v, want errOnlineIncomplete", err)
	}
	if len(fs) != 2 {
		t.Fatalf("offline findings lost: %+v", fs)
	}
	if !c.reg.down[ecoPyPI].until.IsZero() {
		t.Errorf("a slow registry was backed off as unreachable")
	}
}
