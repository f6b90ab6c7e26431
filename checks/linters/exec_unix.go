//go:build unix

package linters

import (
	"os/exec"
	"syscall"
)

// killGroup makes cancellation kill the tool's whole process group: `go vet`
// runs the vet binary and eslint runs under node, and killing only the
// parent would leave them running.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
