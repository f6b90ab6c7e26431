package sandbox

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// cgroupFiles are the host paths of a container's limit counters. They are
// known only when the engine is local and this process sees the host's
// /sys/fs/cgroup; empty fields mean "ask inside the container".
type cgroupFiles struct {
	pidsEvents string // "max N": forks refused at the pids limit
	memEvents  string // v2 memory.events or v1 memory.oom_control: "oom_kill N"
}

// findCgroupFiles maps a container's init pid to its cgroup counters, for
// cgroup v1 (one hierarchy per controller) and v2 (one unified tree).
func findCgroupFiles(pid int) cgroupFiles {
	var cg cgroupFiles
	if pid <= 0 {
		return cg
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return cg
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		ctrls, path := parts[1], parts[2]
		switch {
		case ctrls == "": // v2
			dir := filepath.Join("/sys/fs/cgroup", path)
			setIfExists(&cg.pidsEvents, filepath.Join(dir, "pids.events"))
			setIfExists(&cg.memEvents, filepath.Join(dir, "memory.events"))
		case hasController(ctrls, "pids"):
			setIfExists(&cg.pidsEvents, filepath.Join("/sys/fs/cgroup", ctrls, path, "pids.events"))
		case hasController(ctrls, "memory"):
			setIfExists(&cg.memEvents, filepath.Join("/sys/fs/cgroup", ctrls, path, "memory.oom_control"))
		}
	}
	return cg
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

func setIfExists(dst *string, p string) {
	if *dst != "" {
		return
	}
	if _, err := os.Stat(p); err == nil {
		*dst = p
	}
}

// counter reads "key N" from a cgroup key-value file; -1 when unknown.
func counter(path, key string) int64 {
	if path == "" {
		return -1
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return -1
	}
	return parseCounter(b, key)
}

func parseCounter(b []byte, key string) int64 {
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == key {
			if n, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return n
			}
		}
	}
	return -1
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
