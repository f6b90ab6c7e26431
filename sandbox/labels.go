package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
)

// Labels on every container aisbx creates. They let a later daemon find
// and reap what a crashed one left behind.
const (
	labelManaged   = "io.aisbx.managed"    // "1"
	labelDaemon    = "io.aisbx.daemon"     // instance id
	labelPID       = "io.aisbx.daemon.pid" // pid of the daemon process
	labelHost      = "io.aisbx.daemon.host"
	labelBoot      = "io.aisbx.daemon.start" // the daemon's start time, against pid reuse
	labelWorkspace = "io.aisbx.workspace"
	labelProfile   = "io.aisbx.profile"
	labelExpires   = "io.aisbx.expires" // unix seconds after which it is garbage
	labelKind      = "io.aisbx.kind"    // "pool" or "cold"

	// Image labels.
	labelImageProfile   = "io.aisbx.image.profile"
	labelImageBase      = "io.aisbx.image.base"
	labelImageBaseID    = "io.aisbx.image.base-id"
	labelImageLockfiles = "io.aisbx.image.lockfiles"
)

// instance identifies this daemon process in labels.
type instance struct {
	id, pid, host, start string
}

func newInstance(id string) instance {
	if id == "" {
		var b [6]byte
		_, _ = rand.Read(b[:])
		id = hex.EncodeToString(b[:])
	}
	host, _ := os.Hostname()
	pid := os.Getpid()
	return instance{id: id, pid: strconv.Itoa(pid), host: host, start: procStart(pid)}
}

func (in instance) labels() map[string]string {
	return map[string]string{
		labelManaged: "1",
		labelDaemon:  in.id,
		labelPID:     in.pid,
		labelHost:    in.host,
		labelBoot:    in.start,
	}
}

// procStart reads a process's start time (clock ticks since boot) from
// /proc, so that a recycled pid is not mistaken for a live daemon.
func procStart(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	// The command name may hold spaces; fields restart after its ')'.
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return ""
	}
	return f[19]
}

// alive reports whether the daemon that labelled a container still runs.
// ok is false when it cannot be known from here (another host).
func (in instance) alive(labels map[string]string) (alive, ok bool) {
	if labels[labelDaemon] == in.id {
		return true, true
	}
	if labels[labelHost] != in.host {
		return false, false
	}
	pid, err := strconv.Atoi(labels[labelPID])
	if err != nil || pid <= 0 {
		return false, true
	}
	start := procStart(pid)
	return start != "" && start == labels[labelBoot], true
}
