package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/aisbx/aisbx/internal/config"
	"github.com/aisbx/aisbx/internal/workspace"
	"github.com/aisbx/aisbx/sandbox"
)

// cmdImage manages the sandbox images: `image build`, `image list` and
// `image import`.
func cmdImage(ctx context.Context, env *Env, args []string) int {
	if wantsHelp(args) {
		imageUsage(env.Stdout)
		return ExitOK
	}
	switch args[0] {
	case "build":
		return imageBuild(ctx, env, args[1:])
	case "list", "ls":
		return imageList(ctx, env, args[1:])
	case "import":
		return imageImport(ctx, env, args[1:])
	}
	fmt.Fprintf(env.Stderr, "aisbxd image: unknown subcommand %q\n\n", args[0])
	imageUsage(env.Stderr)
	return ExitUsage
}

func imageUsage(w io.Writer) {
	fmt.Fprint(w, `Usage:
  aisbxd image build [--profile NAME]... [--dir DIR] [--base REF] [--force] [--json]
      Build (or reuse) the sandbox image of each profile for DIR's lockfiles.
      Without --profile: the profiles DIR uses (go.mod, package.json, ...).
      --base overrides the base image, e.g. aisbx-base/go on an air-gapped
      machine (scripts/images builds those).
  aisbxd image list [--json]
      List the images aisbx built.
  aisbxd image import --tag REF [--change INSTR]... FILE|-
      Make a base image from a root filesystem tarball (docker import).
`)
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// openSandbox opens a sandbox for dir's workspace with its aisbx.toml
// profile overrides (an air-gapped base, say), without a pool.
func openSandbox(ctx context.Context, env *Env, dir string) (*sandbox.Sandbox, int) {
	root := workspaceRoot(dir)
	l := config.Load(root)
	if l.Config == nil {
		for _, p := range l.Problems {
			fmt.Fprintln(env.Stderr, p.String())
		}
		fmt.Fprintln(env.Stderr, "aisbxd image: the config has errors (aisbxd config check)")
		return nil, ExitUsage
	}
	opts := workspace.SandboxOptions(root, l.Config)
	opts.Host, opts.PoolSize = env.Getenv("DOCKER_HOST"), -1
	sb, err := sandbox.New(ctx, opts)
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd image: %v\n", err)
		return nil, ExitUsage
	}
	if err := sb.Ping(ctx); err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd image: %v\n", err)
		_ = sb.Close(ctx)
		return nil, ExitInternal
	}
	return sb, ExitOK
}

func imageBuild(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("image build", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	var profiles multiFlag
	fs.Var(&profiles, "profile", "profile to build (repeatable; default: detected from --dir)")
	dir := fs.String("dir", ".", "workspace whose lockfiles pin the dependencies")
	base := fs.String("base", "", "base image to build FROM, overriding the profile's")
	force := fs.Bool("force", false, "rebuild without the build cache even when the image exists")
	asJSON := fs.Bool("json", false, "print the images as JSON")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "aisbxd image build: unexpected arguments %v\n", fs.Args())
		return ExitUsage
	}
	sb, code := openSandbox(ctx, env, *dir)
	if sb == nil {
		return code
	}
	defer sb.Close(context.WithoutCancel(ctx))
	bar := newProgressBar(env.Stderr)
	imgs, err := sb.Build(ctx, sandbox.BuildOptions{Workspace: workspaceRoot(*dir), Profiles: profiles, Base: *base, Force: *force, Progress: bar.update})
	bar.finish()
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd image build: %v\n", err)
		if strings.Contains(err.Error(), "registry") || strings.Contains(err.Error(), "no such host") || strings.Contains(err.Error(), "pull access denied") {
			fmt.Fprintln(env.Stderr, "The base image cannot be pulled from here. On a machine without registry access, build a local base\n"+
				"(scripts/images/all.sh makes aisbx-base/go, aisbx-base/python and aisbx-base/node), then either pass\n"+
				"--base aisbx-base/go or set it in aisbx.toml:  [sandbox.profiles.go] base = \"aisbx-base/go\"")
		}
		if errors.Is(err, sandbox.ErrUnknownProfile) {
			return ExitUsage
		}
		return ExitInternal
	}
	if *asJSON {
		return printJSON(env, imgs)
	}
	for _, im := range imgs {
		verb := "reused"
		if im.Built {
			verb = "built"
		}
		fmt.Fprintf(env.Stdout, "%s\t%s\t%s (%s, from %s)\n", im.Profile, verb, im.Ref, shortImageID(im.ID), im.Base)
	}
	return ExitOK
}

func imageList(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("image list", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	sb, code := openSandbox(ctx, env, "")
	if sb == nil {
		return code
	}
	defer sb.Close(context.WithoutCancel(ctx))
	imgs, err := sb.Images(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd image list: %v\n", err)
		return ExitInternal
	}
	if *asJSON {
		if imgs == nil {
			imgs = []sandbox.ImageInfo{}
		}
		return printJSON(env, imgs)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROFILE\tIMAGE\tID\tBASE\tSIZE\tCREATED")
	for _, im := range imgs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", im.Profile, im.Ref, shortImageID(im.ID), im.Base,
			humanBytes(im.Size), im.Created.Local().Format(time.DateTime))
	}
	_ = tw.Flush()
	return ExitOK
}

func imageImport(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("image import", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	tag := fs.String("tag", "", "name of the new image, e.g. aisbx-base/python:latest")
	var changes multiFlag
	fs.Var(&changes, "change", "Dockerfile instruction to apply (repeatable), e.g. 'ENV PATH=/usr/bin:/bin'")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if *tag == "" || fs.NArg() != 1 {
		fmt.Fprintln(env.Stderr, "aisbxd image import: want --tag REF and one tarball (or - for stdin)")
		return ExitUsage
	}
	var src io.Reader = env.Stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(env.Stderr, "aisbxd image import: %v\n", err)
			return ExitUsage
		}
		defer f.Close()
		src = f
	}
	sb, code := openSandbox(ctx, env, "")
	if sb == nil {
		return code
	}
	defer sb.Close(context.WithoutCancel(ctx))
	ref, err := sb.ImportRootfs(ctx, src, *tag, changes)
	if err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd image import: %v\n", err)
		return ExitInternal
	}
	fmt.Fprintf(env.Stdout, "imported %s (%s)\n", ref.Ref, shortImageID(ref.ID))
	return ExitOK
}

func printJSON(env *Env, v any) int {
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(env.Stderr, "aisbxd: %v\n", err)
		return ExitInternal
	}
	return ExitOK
}

func shortImageID(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1fGB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0fMB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0fkB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%dB", n)
}

// progressBar draws build progress: a bar redrawn in place on a terminal,
// one line per step elsewhere (logs, CI).
type progressBar struct {
	w    io.Writer
	tty  bool
	last string
}

func newProgressBar(w io.Writer) *progressBar {
	tty := false
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return &progressBar{w: w, tty: tty}
}

func (b *progressBar) update(p sandbox.BuildProgress) {
	msg := p.Message
	if len(msg) > 60 {
		msg = msg[:57] + "..."
	}
	line := fmt.Sprintf("[%s] %s", p.Profile, msg)
	if p.Steps > 0 {
		const width = 20
		done := width * p.Step / p.Steps
		line = fmt.Sprintf("[%s] [%s%s] %d/%d %s", p.Profile, strings.Repeat("#", done), strings.Repeat("-", width-done), p.Step, p.Steps, msg)
	}
	if b.tty {
		fmt.Fprintf(b.w, "\r\033[K%s", line)
		if p.Done {
			fmt.Fprintln(b.w)
		}
		return
	}
	if p.Step > 0 || p.Done || p.Steps == 0 {
		if line != b.last {
			fmt.Fprintln(b.w, line)
			b.last = line
		}
	}
}

func (b *progressBar) finish() {
	if b.tty {
		fmt.Fprint(b.w, "\r\033[K")
	}
}
