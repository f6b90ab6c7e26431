//go:build !unix

package linters

import "os/exec"

// killGroup: without process groups, cancellation kills the tool only.
func killGroup(cmd *exec.Cmd) {}
