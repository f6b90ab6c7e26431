package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aisbx/aisbx/internal/config"
)

// cmdConfig is `aisbxd config check|print [DIR]`.
func cmdConfig(ctx context.Context, env *Env, args []string) int {
	if len(args) == 0 || (args[0] != "check" && args[0] != "print") {
		fmt.Fprintln(env.Stderr, "Usage: aisbxd config check [DIR]    report problems in aisbx.toml and the user config\n       aisbxd config print [--json] [DIR]    show the effective config and where each value came from")
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			return ExitOK
		}
		return ExitUsage
	}
	sub := args[0]
	fs := newFlagSet("config "+sub, "config "+sub+" [--json] [DIR]", env)
	asJSON := fs.Bool("json", false, "print JSON")
	if code := parse(fs, args[1:]); code >= 0 {
		return code
	}
	dir := "."
	if fs.NArg() > 0 {
		dir = fs.Arg(0)
	}
	root := workspaceRoot(dir)
	l := config.Load(root)

	if sub == "check" {
		if *asJSON {
			out := map[string]any{"root": root, "ok": !l.HasErrors(), "problems": l.Problems}
			if l.Problems == nil {
				out["problems"] = []config.Problem{}
			}
			_ = json.NewEncoder(env.Stdout).Encode(out)
		} else {
			for _, p := range l.Problems {
				fmt.Fprintln(env.Stdout, p.String())
			}
			if len(l.Problems) == 0 {
				fmt.Fprintf(env.Stdout, "config ok (%d file(s) read for %s)\n", len(l.Layers), root)
			}
		}
		if l.HasErrors() {
			return ExitUsage
		}
		return ExitOK
	}

	if l.Config == nil {
		for _, p := range l.Problems {
			fmt.Fprintln(env.Stderr, p.String())
		}
		fmt.Fprintln(env.Stderr, "aisbxd config print: the config has errors; fix them first (aisbxd config check)")
		return ExitUsage
	}
	if *asJSON {
		flat := config.Flatten(l.Config)
		out := map[string]any{}
		for k, v := range flat {
			origin := "default"
			if o, ok := l.Origins[k]; ok {
				origin = o
			}
			out[k] = map[string]any{"value": v, "origin": origin}
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(out)
		return ExitOK
	}
	fmt.Fprintf(env.Stdout, "# effective aisbx config for %s\n", root)
	if err := config.Print(env.Stdout, l.Config, l.Origins); err != nil {
		fmt.Fprintln(env.Stderr, "aisbxd config print:", err)
		return ExitInternal
	}
	for _, p := range l.Problems {
		fmt.Fprintln(env.Stderr, p.String())
	}
	return ExitOK
}
