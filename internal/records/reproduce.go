package records

import (
	"fmt"
	"path"
	"strings"

	"github.com/aisbx/aisbx/internal/testresults"
)

// Reproduce describes how to run this again: the image by digest, the
// workspace content by snapshot hash, and the command, as an `aisbxd run`
// line and as the equivalent `docker run`.
func (r *Record) Reproduce() string {
	var b strings.Builder
	// A locally built image has no registry digest: the sandbox records its
	// image id (sha256:...), which docker accepts as an image reference.
	image := r.Image.Digest
	if image == "" {
		image = r.Image.Ref
	}
	shown := image
	if r.Image.Ref != "" && r.Image.Digest != "" {
		shown = r.Image.Ref + " (" + r.Image.Digest + ")"
	}
	fmt.Fprintf(&b, "image     %s\n", orUnknown(shown))
	fmt.Fprintf(&b, "snapshot  %s (%d files, %d bytes): the workspace must hash to this\n", orUnknown(r.Snapshot.Hash), r.Snapshot.Files, r.Snapshot.Bytes)
	dir := r.Command.Dir
	if dir == "" {
		dir = "."
	}
	fmt.Fprintf(&b, "command   (in %s) %s\n", dir, shellLine(append(append([]string(nil), r.Command.Env...), r.Command.Argv...)))
	args := []string{"aisbxd", "run", "--dir", orDot(r.Root)}
	if r.Profile != "" {
		args = append(args, "--profile", r.Profile)
	}
	argv := r.Command.Argv
	if dir != "." {
		argv = []string{"sh", "-c", testresults.Command{Dir: dir, Argv: append([]string{"exec"}, argv...)}.String()}
	}
	args = append(append(args, "--"), argv...)
	fmt.Fprintf(&b, "\n  %s\n", shellLine(args))
	if r.Workdir != "" && image != "" {
		docker := []string{"docker", "run", "--rm", "--network", "none", "-w", path.Join(r.Workdir, dir)}
		for _, e := range r.Command.Env {
			docker = append(docker, "-e", e)
		}
		docker = append(append(docker, image), r.Command.Argv...)
		fmt.Fprintf(&b, "  # or, with the snapshot's files in %s:\n  %s\n", r.Workdir, shellLine(docker))
	}
	return b.String()
}

func orUnknown(s string) string {
	if s == "" {
		return "(not recorded)"
	}
	return s
}

func orDot(s string) string {
	if s == "" {
		return "."
	}
	return s
}

// shellLine quotes argv for sh, the way commands are shown everywhere.
func shellLine(argv []string) string { return testresults.Command{Argv: argv}.String() }
