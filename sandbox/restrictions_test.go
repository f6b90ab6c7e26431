package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// probeScript prints one fact per line, key=value, from inside a sandbox.
const probeScript = `
echo "ifaces=$(ls /sys/class/net | tr '\n' ' ')"
if touch /rootfile 2>/dev/null; then echo root_write=ok; else echo root_write=denied; fi
for d in /tmp "$AISBX_WORKDIR"; do printf '#!/bin/sh\necho ran\n' > "$d/x.sh" && chmod +x "$d/x.sh" && echo "exec_$(basename $d)=$("$d/x.sh")"; done
echo "capeff=$(awk '/^CapEff/ {print $2}' /proc/self/status)"
echo "capbnd=$(awk '/^CapBnd/ {print $2}' /proc/self/status)"
echo "nnp=$(awk '/^NoNewPrivs/ {print $2}' /proc/self/status)"
echo "seccomp=$(awk '/^Seccomp:/ {print $2}' /proc/self/status)"
echo "uid=$(id -u) gid=$(id -g)"
echo "pid1=$(tr '\0' ' ' < /proc/1/cmdline)"
echo "pids_max=$(cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max)"
echo "mem_limit=$(cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max)"
echo "memsw_limit=$(cat /sys/fs/cgroup/memory/memory.memsw.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.swap.max)"
echo "cpu=$(cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us 2>/dev/null || cut -d' ' -f1 /sys/fs/cgroup/cpu.max)/$(cat /sys/fs/cgroup/cpu/cpu.cfs_period_us 2>/dev/null || cut -d' ' -f2 /sys/fs/cgroup/cpu.max)"
if linux64 true 2>/dev/null; then echo personality=ok; else echo personality=denied; fi
if { echo x > /mnt/ro/probe; } 2>/dev/null; then echo declared_mount_write=ok; else echo declared_mount_write=denied; fi
echo "declared_mount_read=$(cat /mnt/ro/visible.txt 2>/dev/null)"
while read dev mnt fs opts rest; do echo "mount=$mnt $fs $opts"; done < /proc/mounts
`

// TestRestrictions asserts every hardening of a sandbox container from
// inside it.
func TestRestrictions(t *testing.T) {
	hostDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(hostDir, "visible.txt"), []byte("from-host"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, seccomp := range []string{"default", "strict"} {
		t.Run(seccomp, func(t *testing.T) {
			sb := newTestSandbox(t, Options{PoolSize: 1, Seccomp: seccomp, Memory: 300 << 20, CPUs: 0.5, PidsLimit: 77,
				Profiles: map[string]Profile{"go": {Image: needBase(t, "go"), Mounts: []Mount{{Source: hostDir, Target: "/mnt/ro"}}}}})
			ws := writeTree(t, map[string]string{"probe.sh": probeScript})
			res, err := sb.Run(t.Context(), Job{Workspace: ws, Profile: "go", Cmd: []string{"sh", "probe.sh"}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != StatusPassed {
				t.Fatalf("probe %s: %s\n%s", res.Status, res.Reason, res.Output)
			}
			if os.Getenv("AISBX_DEBUG_PROBE") != "" {
				t.Logf("probe output:\n%s", res.Output)
			}
			facts := map[string]string{}
			var mounts []string
			for _, line := range strings.Split(string(res.Output), "\n") {
				k, v, ok := strings.Cut(line, "=")
				if !ok {
					continue
				}
				if k == "mount" {
					mounts = append(mounts, v)
					continue
				}
				facts[k] = v
			}
			want := map[string]string{
				"ifaces":               "lo ",
				"root_write":           "denied",
				"exec_tmp":             "ran",
				"exec_work":            "ran",
				"capeff":               "0000000000000000",
				"capbnd":               "0000000000000000",
				"nnp":                  "1",
				"seccomp":              "2",
				"uid":                  "10001 gid=10001",
				"pids_max":             "77",
				"mem_limit":            "314572800",
				"memsw_limit":          "314572800",
				"cpu":                  "50000/100000",
				"declared_mount_write": "denied",
				"declared_mount_read":  "from-host",
			}
			if seccomp == "strict" {
				want["personality"] = "denied"
			} else {
				want["personality"] = "ok"
			}
			for k, v := range want {
				if facts[k] != v {
					t.Errorf("%s = %q, want %q", k, facts[k], v)
				}
			}
			if !strings.Contains(facts["pid1"], "docker-init") && !strings.Contains(facts["pid1"], "tini") {
				t.Errorf("pid 1 is %q, want the engine's init", facts["pid1"])
			}
			checkMounts(t, mounts)
		})
	}
}

// checkMounts: tmpfs for /tmp and /work with exec and the size limit; the
// root read-only; host files only where the engine always puts its own
// per-container files (hosts, hostname, resolv.conf), its init binary
// (read-only) or where declared (read-only).
func checkMounts(t *testing.T, mounts []string) {
	t.Helper()
	engineFiles := map[string]bool{"/etc/hosts": true, "/etc/hostname": true, "/etc/resolv.conf": true}
	seen := map[string]string{}
	for _, m := range mounts {
		f := strings.Fields(m)
		if len(f) != 3 {
			continue
		}
		target, fs, opts := f[0], f[1], f[2]
		seen[target] = fs + " " + opts
		switch {
		case target == "/":
			if !hasOpt(opts, "ro") {
				t.Errorf("root mounted %s, want ro", opts)
			}
		case target == "/tmp" || target == "/work":
			if fs != "tmpfs" || hasOpt(opts, "noexec") || !strings.Contains(opts, "size=") {
				t.Errorf("%s: %s %s, want a sized exec tmpfs", target, fs, opts)
			}
		case target == "/mnt/ro" || target == "/sbin/docker-init":
			if !hasOpt(opts, "ro") {
				t.Errorf("declared mount %s is %s, want ro", target, opts)
			}
		case engineFiles[target]:
		case fs == "proc" || fs == "sysfs" || fs == "cgroup" || fs == "cgroup2" || fs == "devpts" || fs == "mqueue" || fs == "tmpfs" || fs == "overlay":
		default:
			t.Errorf("unexpected mount %s: %s %s", target, fs, opts)
		}
	}
	for _, must := range []string{"/", "/tmp", "/work", "/mnt/ro"} {
		if seen[must] == "" {
			t.Errorf("no mount at %s", must)
		}
	}
}

func hasOpt(opts, o string) bool {
	for _, x := range strings.Split(opts, ",") {
		if x == o {
			return true
		}
	}
	return false
}
