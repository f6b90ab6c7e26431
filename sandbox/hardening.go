package sandbox

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/mount"
)

// spec is everything needed to create one hardened container.
type spec struct {
	profile Profile
	image   string
	limits  Limits
	labels  map[string]string
	mounts  []Mount // active read-only host mounts
}

// containerConfig returns the create request for a sandbox container.
// Every restriction of the sandbox is here, in one place.
func (s *Sandbox) containerConfig(sp spec, kind string, idle time.Duration) (*container.Config, *container.HostConfig, error) {
	p := sp.profile
	labels := map[string]string{}
	for k, v := range sp.labels {
		labels[k] = v
	}
	labels[labelProfile] = p.Name
	labels[labelKind] = kind
	labels[labelExpires] = strconv.FormatInt(time.Now().Add(idle+time.Minute).Unix(), 10)

	env := []string{"AISBX_WORKDIR=" + p.Workdir, "AISBX=1", "TMPDIR=/tmp"}
	for _, k := range slices.Sorted(maps.Keys(p.Env)) {
		env = append(env, k+"="+p.Env[k])
	}
	user := fmt.Sprintf("%d:%d", sandboxUID, sandboxUID)
	cfg := &container.Config{
		Image:           sp.image,
		User:            user,
		WorkingDir:      p.Workdir,
		Env:             env,
		Labels:          labels,
		Hostname:        "sandbox",
		NetworkDisabled: true,
		// PID 1 (under the engine's init) prepares the tmpfs, marks the
		// container ready and idles; it exits by itself after idle, so even a
		// container nobody reaps does not live for ever.
		Cmd: []string{"/bin/sh", "-c", idleScript(p, idle)},
	}
	tmpfsOpts := fmt.Sprintf("rw,exec,nosuid,nodev,size=%d,uid=%d,gid=%d", sp.limits.TmpfsSize, sandboxUID, sandboxUID)
	secOpts := []string{"no-new-privileges:true"}
	sc, err := seccompOpt(s.opts.Seccomp)
	if err != nil {
		return nil, nil, err
	}
	if sc != "" {
		secOpts = append(secOpts, sc)
	}
	pids := sp.limits.Pids
	init := true
	host := &container.HostConfig{
		NetworkMode:    "none",
		ReadonlyRootfs: true,
		Tmpfs:          map[string]string{"/tmp": tmpfsOpts, p.Workdir: tmpfsOpts},
		CapDrop:        []string{"ALL"},
		SecurityOpt:    secOpts,
		Init:           &init,
		AutoRemove:     true,
		IpcMode:        container.IPCModePrivate,
		ShmSize:        64 << 20,
		Runtime:        s.opts.Runtime,
		LogConfig:      container.LogConfig{Type: "json-file", Config: map[string]string{"max-size": "1m", "max-file": "1"}},
		Resources: container.Resources{
			Memory:     sp.limits.Memory,
			MemorySwap: sp.limits.Memory, // swap included: no swap beyond the limit
			NanoCPUs:   int64(sp.limits.CPUs * 1e9),
			PidsLimit:  &pids,
			Ulimits:    []*container.Ulimit{{Name: "core", Soft: 0, Hard: 0}, {Name: "nofile", Soft: 4096, Hard: 4096}},
		},
	}
	for _, m := range sp.mounts {
		host.Mounts = append(host.Mounts, mount.Mount{
			Type: mount.TypeBind, Source: m.Source, Target: m.Target, ReadOnly: true,
			BindOptions: &mount.BindOptions{Propagation: mount.PropagationRPrivate},
		})
	}
	return cfg, host, nil
}

// activeMounts keeps the profile's mounts that can apply: only with a
// local engine (a path means nothing to a remote one), and optional ones
// only when the source exists.
func activeMounts(p Profile, local bool) []Mount {
	if !local {
		return nil
	}
	var out []Mount
	for _, m := range p.Mounts {
		if _, err := os.Stat(m.Source); err != nil {
			if m.Optional {
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

func mountTargets(ms []Mount) string {
	var t []string
	for _, m := range ms {
		t = append(t, m.Target)
	}
	sort.Strings(t)
	return strings.Join(t, " ")
}

// idleScript is PID 1's command: prepare, mark ready, sleep.
func idleScript(p Profile, idle time.Duration) string {
	var b strings.Builder
	b.WriteString("mkdir -p \"$HOME\" 2>/dev/null; ")
	for _, step := range p.Prepare {
		b.WriteString("{ " + step + "; } >/dev/null 2>&1; ")
	}
	fmt.Fprintf(&b, ": > %s; exec sleep %d", readyMark, int(idle.Seconds()))
	return b.String()
}

// jobScript is the command of a job's exec. It is started with the
// container, before any job exists, and waits: for the container to be
// prepared, then for one line on stdin holding the job's shell script
// (octal-escaped, so a printf format of plain ASCII carries any bytes), then
// the workspace tar. It unpacks the tar and becomes the job with an empty
// stdin. An exec costs tens of milliseconds in the engine (runc); started
// ahead, it is off the run's path. EOF on stdin (the pool was closed, the
// daemon went away) ends it quietly.
const jobScript = `i=0; while [ ! -e ` + readyMark + ` ]; do i=$((i+1)); [ $i -gt 30000 ] && { echo "aisbx: container never became ready" >&2; exit 125; }; sleep 0.01; done
IFS= read -r job || exit 0
printf "$job" > /tmp/.aisbx-job || { echo "aisbx: cannot write the job script" >&2; exit 125; }
tar -x -m -f - -C / 2>/tmp/.aisbx-tar-err || { echo "aisbx: unpacking the workspace failed: $(head -c 500 /tmp/.aisbx-tar-err)" >&2; exit 125; }
exec /bin/sh /tmp/.aisbx-job </dev/null`

// jobLine is the first line a job's exec reads: a shell script that enters
// dir, sets env and execs argv, with every byte but [A-Za-z0-9] written as
// an octal escape so that the line is a safe printf format.
func jobLine(dir string, env, argv []string) []byte {
	var sc strings.Builder
	fmt.Fprintf(&sc, "cd %s || exit 125\n", shellQuote(dir))
	for _, e := range env {
		k, v, _ := strings.Cut(e, "=")
		fmt.Fprintf(&sc, "export %s=%s\n", k, shellQuote(v))
	}
	sc.WriteString("exec")
	for _, a := range argv {
		sc.WriteString(" " + shellQuote(a))
	}
	sc.WriteString("\n")
	var out []byte
	for _, c := range []byte(sc.String()) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			out = append(out, c)
		} else {
			out = fmt.Appendf(out, "\\%03o", c)
		}
	}
	return append(out, '\n')
}

// shellQuote quotes s for POSIX sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
