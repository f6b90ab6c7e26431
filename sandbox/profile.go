package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Profile describes how to run one language's tests: the image to start
// from, how to install pinned dependencies into it, the command, and the
// environment. Built-ins: go, python, node (see BuiltinProfiles). Options
// can override any field or add profiles.
type Profile struct {
	Name string `json:"name"`
	// Base is the image the profile's image is built FROM (an official tag,
	// or a local air-gapped base such as aisbx-base/go).
	Base string `json:"base"`
	// Image, when set, is used as is: no build, no dependency install.
	Image string `json:"image,omitempty"`
	// TestCmd is the default command of a run.
	TestCmd []string `json:"test_cmd"`
	// Workdir is where the snapshot lands; a tmpfs.
	Workdir string `json:"workdir"`
	// Env is set in every container of the profile.
	Env map[string]string `json:"env,omitempty"`
	// Lockfiles are glob patterns (relative to the workspace root) of the
	// files that pin dependencies. Their content is part of the image tag and
	// they are copied into /opt/aisbx/deps for Install.
	Lockfiles []string `json:"lockfiles,omitempty"`
	// Install are shell commands run as root in /opt/aisbx/deps at image
	// build time, with the network. A command runs only when every lockfile
	// it names in its Needs exists.
	Install []InstallStep `json:"install,omitempty"`
	// Warm are shell commands run at image build time in a throwaway stage
	// holding the workspace snapshot at Workdir; what they leave in
	// /opt/aisbx/warm is copied into the image (e.g. a Go build cache).
	Warm []string `json:"warm,omitempty"`
	// Prepare runs when a pooled container starts, before it is handed out:
	// it seeds the tmpfs from /opt/aisbx/warm, so no run waits for it.
	Prepare []string `json:"prepare,omitempty"`
	// Mounts are read-only host mounts, used only with a local engine.
	Mounts []Mount `json:"mounts,omitempty"`
	// Limits override the sandbox-wide limits for this profile.
	Limits Limits `json:"limits"`
	// Marker files whose presence says a workspace uses this profile.
	Markers []string `json:"markers,omitempty"`
}

// InstallStep is one dependency install command of an image build.
type InstallStep struct {
	Run   string   `json:"run"`
	Needs []string `json:"needs,omitempty"` // lockfile names that must exist
}

// Mount is a read-only host directory a profile exposes to its containers.
type Mount struct {
	Source string `json:"source"`
	Target string `json:"target"`
	// Optional mounts are skipped when Source does not exist.
	Optional bool `json:"optional,omitempty"`
}

// Limits bound one container. Zero fields take the sandbox defaults.
type Limits struct {
	Memory    int64   `json:"memory,omitempty"`     // bytes, swap included
	CPUs      float64 `json:"cpus,omitempty"`       // cores
	Pids      int64   `json:"pids,omitempty"`       // processes and threads
	TmpfsSize int64   `json:"tmpfs_size,omitempty"` // bytes, for /tmp and for the work dir each
}

func (l Limits) or(d Limits) Limits {
	if l.Memory == 0 {
		l.Memory = d.Memory
	}
	if l.CPUs == 0 {
		l.CPUs = d.CPUs
	}
	if l.Pids == 0 {
		l.Pids = d.Pids
	}
	if l.TmpfsSize == 0 {
		l.TmpfsSize = d.TmpfsSize
	}
	return l
}

// Paths inside every image built by aisbx.
const (
	depsDir   = "/opt/aisbx/deps"
	warmDir   = "/opt/aisbx/warm"
	readyMark = "/tmp/.aisbx-ready"
	// sandboxUID is the non-root user every job runs as.
	sandboxUID = 10001
)

// BuiltinProfiles returns the go, python and node profiles. Each call
// returns fresh values the caller may change.
func BuiltinProfiles() map[string]Profile {
	return map[string]Profile{
		"go": {
			Name:    "go",
			Base:    "golang:1.26",
			TestCmd: []string{"go", "test", "-json", "-fullpath", "./..."},
			Workdir: "/work",
			Env: map[string]string{
				"HOME":        "/tmp/home",
				"GOCACHE":     "/tmp/gocache",
				"GOMODCACHE":  "/go/pkg/mod",
				"GOPATH":      "/tmp/gopath",
				"GOFLAGS":     "-buildvcs=false",
				"GOPROXY":     "off",
				"GOSUMDB":     "off",
				"GOTOOLCHAIN": "local",
				"GOTELEMETRY": "off",
				"CGO_ENABLED": "0",
				"GOTMPDIR":    "/tmp",
			},
			Lockfiles: []string{"go.mod", "go.sum"},
			Install: []InstallStep{
				// Skipped when the host module cache is mounted over /go/pkg/mod:
				// the mount would hide what it downloads.
				{Run: `case " $AISBX_MOUNTS " in *" /go/pkg/mod "*) echo "aisbx: host module cache mounted; no go mod download" ;; *) GOMODCACHE=/go/pkg/mod go mod download ;; esac`, Needs: []string{"go.mod"}},
			},
			Warm: []string{
				// Build and vet everything the tests import, without running a
				// test; a package that does not compile only makes the cache
				// partial.
				"GOCACHE=" + warmDir + "/gocache go test -count=1 -run '^$' ./... >/dev/null 2>&1 || echo 'aisbx: warm-up build had errors; the cache is partial'",
			},
			Prepare: []string{"if [ -d " + warmDir + "/gocache ]; then cp -r " + warmDir + "/gocache /tmp/gocache; fi"},
			Mounts:  goModCacheMount(),
			Markers: []string{"go.mod"},
		},
		"python": {
			Name:    "python",
			Base:    "python:3.12-slim",
			TestCmd: []string{"python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"},
			Workdir: "/work",
			Env: map[string]string{
				"HOME":                    "/tmp/home",
				"PYTHONDONTWRITEBYTECODE": "1",
				"PYTHONUNBUFFERED":        "1",
				"PIP_NO_INDEX":            "1",
			},
			Lockfiles: []string{"requirements*.txt", "poetry.lock", "uv.lock", "Pipfile.lock"},
			Install: []InstallStep{
				{Run: "for f in requirements*.txt; do python3 -m pip install --no-cache-dir --break-system-packages -r \"$f\" || python3 -m pip install --no-cache-dir -r \"$f\" || exit 1; done", Needs: []string{"requirements*.txt"}},
			},
			Markers: []string{"pyproject.toml", "requirements.txt", "setup.py", "pytest.ini"},
		},
		"node": {
			Name:    "node",
			Base:    "node:22-slim",
			TestCmd: []string{"node", "--test"},
			Workdir: "/work",
			Env: map[string]string{
				"HOME":               "/tmp/home",
				"NODE_ENV":           "test",
				"npm_config_cache":   "/tmp/npm-cache",
				"npm_config_offline": "true",
				"NODE_OPTIONS":       "--max-old-space-size=768",
			},
			Lockfiles: []string{"package.json", "package-lock.json", "npm-shrinkwrap.json"},
			Install: []InstallStep{
				{Run: "npm ci --no-audit --no-fund", Needs: []string{"package-lock.json"}},
			},
			Prepare: []string{"if [ -d " + depsDir + "/node_modules ]; then ln -s " + depsDir + "/node_modules \"$AISBX_WORKDIR/node_modules\"; fi"},
			Markers: []string{"package.json"},
		},
	}
}

// goModCacheMount declares the host's Go module cache, read-only, at the
// container's GOMODCACHE, when there is one.
func goModCacheMount() []Mount {
	dir := os.Getenv("GOMODCACHE")
	if dir == "" {
		if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
			dir = strings.TrimSpace(string(out))
		}
	}
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, "go", "pkg", "mod")
		}
	}
	if dir == "" {
		return nil
	}
	return []Mount{{Source: dir, Target: "/go/pkg/mod", Optional: true}}
}

// merge lays the non-zero fields of o over p.
func (p Profile) merge(o Profile) Profile {
	if o.Base != "" {
		p.Base = o.Base
	}
	if o.Image != "" {
		p.Image = o.Image
	}
	if len(o.TestCmd) > 0 {
		p.TestCmd = o.TestCmd
	}
	if o.Workdir != "" {
		p.Workdir = o.Workdir
	}
	if len(o.Env) > 0 {
		env := map[string]string{}
		for k, v := range p.Env {
			env[k] = v
		}
		for k, v := range o.Env {
			env[k] = v
		}
		p.Env = env
	}
	if o.Lockfiles != nil {
		p.Lockfiles = o.Lockfiles
	}
	if o.Install != nil {
		p.Install = o.Install
	}
	if o.Warm != nil {
		p.Warm = o.Warm
	}
	if o.Prepare != nil {
		p.Prepare = o.Prepare
	}
	if o.Mounts != nil {
		p.Mounts = o.Mounts
	}
	if o.Markers != nil {
		p.Markers = o.Markers
	}
	p.Limits = o.Limits.or(p.Limits)
	return p
}

func (p Profile) validate() error {
	if p.Name == "" || strings.ContainsAny(p.Name, "/: ") {
		return fmt.Errorf("profile name %q: want a plain word", p.Name)
	}
	if p.Base == "" && p.Image == "" {
		return fmt.Errorf("profile %s: set base (or image)", p.Name)
	}
	if !strings.HasPrefix(p.Workdir, "/") || p.Workdir == "/" || p.Workdir == "/tmp" {
		return fmt.Errorf("profile %s: workdir %q must be an absolute path other than / and /tmp", p.Name, p.Workdir)
	}
	for _, m := range p.Mounts {
		if !filepath.IsAbs(m.Source) || !strings.HasPrefix(m.Target, "/") {
			return fmt.Errorf("profile %s: mount %s:%s needs absolute paths", p.Name, m.Source, m.Target)
		}
	}
	return nil
}

// resolveProfiles merges the built-ins with the configured overrides.
func resolveProfiles(over map[string]Profile) (map[string]Profile, error) {
	out := BuiltinProfiles()
	for name, o := range over {
		o.Name = name
		if base, ok := out[name]; ok {
			out[name] = base.merge(o)
		} else {
			if o.Workdir == "" {
				o.Workdir = "/work"
			}
			out[name] = o
		}
	}
	for _, p := range out {
		if err := p.validate(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DetectProfiles names the profiles whose marker files are at root, sorted.
func DetectProfiles(root string, profiles map[string]Profile) []string {
	var names []string
	for name, p := range profiles {
		for _, m := range p.Markers {
			if _, err := os.Stat(filepath.Join(root, m)); err == nil {
				names = append(names, name)
				break
			}
		}
	}
	sort.Strings(names)
	return names
}
