package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/moby/profiles/seccomp"
)

// StrictDenied are the syscalls the "strict" seccomp profile removes from
// Docker's default profile. None is needed to build or test ordinary Go,
// Python or Node code; each widens the kernel surface a hostile test can
// reach:
//   - ptrace, process_vm_readv/writev, kcmp: inspecting other processes;
//   - personality: turning off ASLR and other execution domains;
//   - userfaultfd: a classic primitive for kernel race exploits;
//   - perf_event_open, bpf: large, frequently exploited subsystems;
//   - io_uring_setup/enter/register: same (libuv falls back to epoll);
//   - keyctl, add_key, request_key: the kernel keyring;
//   - name_to_handle_at, open_by_handle_at: file handles that bypass paths;
//   - unshare, setns: new namespaces (clone3 is left alone: the default
//     profile already answers ENOSYS so that glibc falls back to clone, and
//     EPERM there would break every thread start);
//   - mount_setattr, fsopen, fsmount, fsconfig, fspick, open_tree, move_mount: the new mount API;
//   - syslog, acct, quotactl, vhangup, lookup_dcookie: host-wide facilities.
var StrictDenied = []string{
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
	"personality", "userfaultfd", "perf_event_open", "bpf",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"keyctl", "add_key", "request_key",
	"name_to_handle_at", "open_by_handle_at",
	"unshare", "setns",
	"mount_setattr", "fsopen", "fsmount", "fsconfig", "fspick", "open_tree", "move_mount",
	"syslog", "acct", "quotactl", "vhangup", "lookup_dcookie",
}

var strictOnce = sync.OnceValues(buildStrictProfile)

// StrictSeccompProfile returns the JSON of the "strict" profile: Docker's
// default profile (github.com/moby/profiles/seccomp) minus StrictDenied.
// Denied calls fail with EPERM, as under the default profile.
func StrictSeccompProfile() ([]byte, error) { return strictOnce() }

func buildStrictProfile() ([]byte, error) {
	p := seccomp.DefaultProfile()
	for _, sc := range p.Syscalls {
		sc.Names = slices.DeleteFunc(sc.Names, func(n string) bool { return slices.Contains(StrictDenied, n) })
	}
	p.Syscalls = slices.DeleteFunc(p.Syscalls, func(sc *seccomp.Syscall) bool { return len(sc.Names) == 0 && sc.Name == "" })
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("strict seccomp profile: %w", err)
	}
	return b, nil
}

// seccompOpt turns Options.Seccomp into a security option: "" or
// "default" keep the engine's default profile, "strict" the shipped one,
// anything else is a path to a JSON profile.
func seccompOpt(name string) (string, error) {
	switch name {
	case "", "default":
		return "", nil
	case "strict":
		b, err := StrictSeccompProfile()
		if err != nil {
			return "", err
		}
		return "seccomp=" + string(b), nil
	case "unconfined":
		return "", fmt.Errorf("seccomp %q is refused: a sandbox always filters syscalls", name)
	default:
		b, err := os.ReadFile(name)
		if err != nil {
			return "", fmt.Errorf("seccomp profile: %w", err)
		}
		var probe map[string]any
		if err := json.Unmarshal(b, &probe); err != nil {
			return "", fmt.Errorf("seccomp profile %s: not JSON: %w", name, err)
		}
		return "seccomp=" + string(b), nil
	}
}
