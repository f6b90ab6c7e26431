// Package cli implements aisbxd's command line: one file per command, each a
// function of the form
//
//	func cmdName(ctx context.Context, env *Env, args []string) int
//
// listed in the commands table below. Commands parse their own flags and
// return the process exit code; they never call os.Exit, so tests drive them
// through Main.
package cli

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
)

// Env is what a command may touch of the process: its streams and
// environment. Tests build their own.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

// StdEnv is the real process environment.
func StdEnv() *Env {
	return &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
}

// Exit codes shared by commands.
const (
	ExitOK       = 0
	ExitFailure  = 1 // the command ran and its gate failed (findings, failed tests)
	ExitUsage    = 2 // bad flags or config
	ExitInternal = 3 // the command could not do its job (engine down, I/O)
)

type command struct {
	run     func(ctx context.Context, env *Env, args []string) int
	summary string
}

var commands map[string]command

func init() {
	commands = map[string]command{
		"version": {cmdVersion, "print the version"},
		"serve":   {cmdServe, "speak LSP on stdio, through the shared daemon (editors run this)"},
		"daemon":  {cmdDaemon, "run the shared per-user daemon in the foreground"},
		"status":  {cmdStatus, "show the daemon, its clients and workspaces"},
		"doctor":  {cmdDoctor, "check the machine: Docker engine, socket, inotify, config, tools"},
		"config":  {cmdConfig, "check or print the effective aisbx.toml config"},
		"check":   {cmdCheck, "run the preflight checks over files: the CI gate (json, sarif, junit)"},
		"hook":    {cmdHook, "report an agent's edit (hook claude-code | hook edit --tool T --file F); exits 2 to block"},
		"image":   {cmdImage, "build, list or import the sandbox images (image build|list|import)"},
		"run":     {cmdRun, "run tests (or a command) in the sandbox: all, --affected, --file, --failed, or -- CMD"},
		"runs":    {cmdRuns, "list or show run records (runs list|show ID [--json|--junit])"},
		"sbom":    {cmdSBOM, "write a CycloneDX or SPDX bill of materials of a workspace"},
		"watch":   {cmdWatch, "print a live feed of AI edits, background checks and test runs"},
		"vulndb":  {cmdVulnDB, "manage the offline OSV vulnerability database (import|update|status|scan)"},
	}
}

// wantsHelp reports whether a command or a command group was given no
// arguments or asked for help; callers print their usage and exit 0.
func wantsHelp(args []string) bool {
	return len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help"
}

// Main runs the command named by args[0] and returns the exit code.
func Main(ctx context.Context, args []string, env *Env) int {
	if wantsHelp(args) {
		usage(env.Stdout)
		return ExitOK
	}
	if args[0] == "--version" || args[0] == "-version" {
		args[0] = "version"
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "aisbxd: unknown command %q\n\n", args[0])
		usage(env.Stderr)
		return ExitUsage
	}
	return cmd.run(ctx, env, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "aisbxd: preflight checks and sandboxed tests for AI-written code")
	fmt.Fprintln(w, "\nUsage: aisbxd <command> [flags]\n\nCommands:")
	names := slices.Sorted(maps.Keys(commands))
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %s%s  %s\n", n, strings.Repeat(" ", width-len(n)), commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'aisbxd <command> -h' for a command's flags.")
}
