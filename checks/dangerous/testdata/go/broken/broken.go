// A file that does not compile; go/parser recovers and the rules still run.
package broken

import (
	"crypto/md5"
	"os/exec"
)

func half(x string {
	exec.Command("sh", "-c", x).Run()
}

func whole(b []byte) {
	_ = md5.Sum(b) // want: go-weak-hash
}

func tail(cmd string) {
	exec.Command("sh", "-c", cmd).Run() // want: go-exec-shell
	if {
}
