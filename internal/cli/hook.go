package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/aisbx/aisbx/internal/daemon"
	"github.com/aisbx/aisbx/internal/provenance"
	"github.com/aisbx/aisbx/internal/workspace"
	"github.com/aisbx/aisbx/lsp"
)

// hookParams is aisbx/hook's request: what the agent reported, unparsed, so
// that the daemon (which knows the file's previous content) reads it.
type hookParams struct {
	Root    string          `json:"root"`
	Kind    string          `json:"kind"` // claude-code or edit
	Payload json.RawMessage `json:"payload,omitempty"`
	Edit    *editFlags      `json:"edit,omitempty"`
}

type editFlags struct {
	Tool, File, Session, Model, PromptFile, Cwd string
}

// hookMaxPayload bounds what a hook reads from stdin (Write payloads carry
// the whole file).
const hookMaxPayload = 32 << 20

// cmdHook is `aisbxd hook claude-code` (a Claude Code hook: JSON on stdin)
// and `aisbxd hook edit --tool NAME --file F [...]` (any other agent). It
// reports the edit to the daemon, starting it if needed, and exits 2 with
// the reason on stderr when aisbx.toml's agents.block_on says to block.
func cmdHook(ctx context.Context, env *Env, args []string) int {
	if len(args) == 0 || (args[0] != "claude-code" && args[0] != "edit") {
		fmt.Fprintln(env.Stderr, "Usage: aisbxd hook claude-code < hook.json\n       aisbxd hook edit --tool NAME --file F [--session ID] [--model M] [--prompt-file P]\nSee docs/agents.md for each agent's setup.")
		return ExitUsage
	}
	p := hookParams{Kind: args[0]}
	var socket string
	if args[0] == "claude-code" {
		fs := newFlagSet("hook claude-code", "hook claude-code < payload.json", env)
		fs.StringVar(&socket, "socket", daemon.SocketPath(), "the daemon's socket (env AISBX_SOCKET)")
		if code := parse(fs, args[1:]); code >= 0 {
			return code
		}
		payload, err := io.ReadAll(io.LimitReader(env.Stdin, hookMaxPayload))
		if err != nil {
			fmt.Fprintln(env.Stderr, "aisbxd hook:", err)
			return ExitUsage
		}
		h, err := provenance.ParseClaudeHook(bytes.NewReader(payload))
		if err != nil {
			fmt.Fprintln(env.Stderr, "aisbxd hook claude-code:", err)
			return ExitUsage
		}
		if !h.EditsFile() {
			return ExitOK // Bash, Read, ...: nothing to check
		}
		p.Payload = payload
		p.Root = workspaceRoot(filepath.Dir(h.File()))
	} else {
		fs := newFlagSet("hook edit", "hook edit --tool NAME --file F [--session ID] [--model M] [--prompt-file P]", env)
		e := &editFlags{}
		fs.StringVar(&e.Tool, "tool", "", "the agent: claude-code, codex, aider, copilot, or another name")
		fs.StringVar(&e.File, "file", "", "the file it edited")
		fs.StringVar(&e.Session, "session", "", "the agent's session id")
		fs.StringVar(&e.Model, "model", "", "the model")
		fs.StringVar(&e.PromptFile, "prompt-file", "", "a file holding the prompt (kept redacted)")
		fs.StringVar(&socket, "socket", daemon.SocketPath(), "the daemon's socket (env AISBX_SOCKET)")
		if code := parse(fs, args[1:]); code >= 0 {
			return code
		}
		if e.Tool == "" || e.File == "" {
			fmt.Fprintln(env.Stderr, "aisbxd hook edit: --tool and --file are required")
			return ExitUsage
		}
		e.Cwd, _ = filepath.Abs(".")
		abs, _ := filepath.Abs(e.File)
		p.Edit, p.Root = e, workspaceRoot(filepath.Dir(abs))
	}

	var res workspace.HookResult
	conn, err := daemon.Connect(ctx, socket, daemon.StartOptions{Wait: 3 * time.Second})
	if err == nil {
		err = daemon.Request(ctx, conn, "aisbx/hook", p, &res, nil)
		conn.Close()
	}
	if err != nil {
		// No daemon to be had (or it went away): decide here, so that
		// blocking still works and the edit is still recorded.
		res, err = handleHookLocally(ctx, p)
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "aisbxd hook:", err)
		return ExitInternal
	}
	if res.Block {
		fmt.Fprintln(env.Stderr, res.Reason)
		return 2 // Claude Code's convention: block, and show stderr to the agent
	}
	return ExitOK
}

// hookControl answers aisbx/hook in the daemon.
func hookControl(d *daemon.Daemon) lsp.ControlHandler {
	return func(ctx context.Context, c *lsp.ControlCall) (any, error) {
		var p hookParams
		if err := json.Unmarshal(c.Params, &p); err != nil || p.Root == "" {
			return nil, fmt.Errorf("aisbx/hook needs {root, kind, ...}: %v", err)
		}
		user := "hook-" + c.ClientID
		ws, err := d.Registry().Acquire(ctx, p.Root, user)
		if err != nil {
			return nil, err
		}
		defer d.Registry().Release(ws, user)
		return handleHook(ctx, ws, p)
	}
}

// handleHook parses the report against the workspace and handles it.
func handleHook(ctx context.Context, ws *workspace.Workspace, p hookParams) (workspace.HookResult, error) {
	opts := workspace.HookOptions()
	var r workspace.HookReport
	switch p.Kind {
	case "claude-code":
		h, err := provenance.ParseClaudeHook(bytes.NewReader(p.Payload))
		if err != nil {
			return workspace.HookResult{}, err
		}
		e, content, err := h.Edit(opts)
		if err != nil {
			return workspace.HookResult{}, err
		}
		r = workspace.HookReport{Edit: e, Content: content, Pre: h.Pre()}
	case "edit":
		if p.Edit == nil {
			return workspace.HookResult{}, errors.New("aisbx/hook edit without its flags")
		}
		in := provenance.GenericInput{Tool: p.Edit.Tool, File: p.Edit.File, Session: p.Edit.Session, Model: p.Edit.Model,
			PromptFile: p.Edit.PromptFile, Cwd: p.Edit.Cwd}
		abs := in.File
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(in.Cwd, abs)
		}
		in.Before, in.HaveBefore = ws.LastContent(filepath.Clean(abs))
		e, content, err := provenance.GenericEdit(in, opts)
		if err != nil {
			return workspace.HookResult{}, err
		}
		r = workspace.HookReport{Edit: e, Content: content}
	default:
		return workspace.HookResult{}, fmt.Errorf("unknown hook kind %q", p.Kind)
	}
	return ws.HandleHook(ctx, r)
}

// handleHookLocally handles a hook in this process when no daemon can be
// reached or started.
func handleHookLocally(ctx context.Context, p hookParams) (workspace.HookResult, error) {
	reg := workspace.NewRegistry(ctx, workspace.Options{Logger: slog.New(slog.DiscardHandler), NewEngine: engineFactory})
	defer reg.Close()
	ws, err := reg.Acquire(ctx, p.Root, "hook")
	if err != nil {
		return workspace.HookResult{}, err
	}
	return handleHook(ctx, ws, p)
}
