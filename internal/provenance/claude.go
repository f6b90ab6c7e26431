package provenance

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// MaxHookInput bounds what ParseClaudeHook reads: a Write of a large file
// carries the whole file, twice in PostToolUse.
const MaxHookInput = 64 << 20

// ClaudeHook is a Claude Code hook input (PreToolUse or PostToolUse), as
// documented in Claude Code's hooks reference. Unknown fields are ignored.
type ClaudeHook struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolUseID      string          `json:"tool_use_id"`
	ToolInput      claudeToolInput `json:"tool_input"`
	// ToolResponse is kept raw: its shape depends on the tool, and for
	// some tools it is not an object at all.
	ToolResponse json.RawMessage `json:"tool_response"`
}

type claudeToolInput struct {
	FilePath     string  `json:"file_path"`
	NotebookPath string  `json:"notebook_path"`
	Content      *string `json:"content"`
	OldString    string  `json:"old_string"`
	NewString    string  `json:"new_string"`
	ReplaceAll   bool    `json:"replace_all"`
	Edits        []struct {
		OldString  string `json:"old_string"`
		NewString  string `json:"new_string"`
		ReplaceAll bool   `json:"replace_all"`
	} `json:"edits"`
	NewSource string `json:"new_source"`
}

// claudeToolResponse is what Write and Edit return in PostToolUse.
type claudeToolResponse struct {
	FilePath        string  `json:"filePath"`
	Type            string  `json:"type"` // Write: "create" or "update"
	OriginalFile    *string `json:"originalFile"`
	StructuredPatch []struct {
		NewStart int      `json:"newStart"`
		Lines    []string `json:"lines"`
	} `json:"structuredPatch"`
}

// Claude Code's file-editing tools.
var claudeEditTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true}

// ParseClaudeHook reads one hook input from r.
func ParseClaudeHook(r io.Reader) (*ClaudeHook, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxHookInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading the hook input: %w", err)
	}
	if len(data) > MaxHookInput {
		return nil, fmt.Errorf("hook input larger than %d MiB", MaxHookInput>>20)
	}
	var h ClaudeHook
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, fmt.Errorf("hook input is not Claude Code hook JSON: %w", err)
	}
	if h.HookEventName == "" {
		return nil, errors.New("hook input has no hook_event_name: is this a Claude Code hook?")
	}
	return &h, nil
}

// EditsFile reports whether the hook is about a tool that writes a file:
// Write, Edit, MultiEdit or NotebookEdit, before or after it ran.
func (h *ClaudeHook) EditsFile() bool {
	return claudeEditTools[h.ToolName] && h.rawPath() != "" &&
		(h.HookEventName == "PreToolUse" || h.HookEventName == "PostToolUse")
}

// Pre reports whether the tool has not run yet: the file on disk is still
// the old one, and blocking prevents the edit.
func (h *ClaudeHook) Pre() bool { return h.HookEventName == "PreToolUse" }

func (h *ClaudeHook) rawPath() string {
	if h.ToolInput.FilePath != "" {
		return h.ToolInput.FilePath
	}
	return h.ToolInput.NotebookPath
}

// File is the edited file's absolute path (relative paths are taken from
// the hook's cwd).
func (h *ClaudeHook) File() string {
	p := h.rawPath()
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) && h.Cwd != "" {
		p = filepath.Join(h.Cwd, p)
	}
	return filepath.Clean(p)
}

// Edit turns the hook into an Edit and returns the content its ranges
// refer to: for PostToolUse the file as written, for PreToolUse the file as
// it will be once the tool runs (what a blocking check must look at).
func (h *ClaudeHook) Edit(opts HookOptions) (Edit, []byte, error) {
	opts = opts.withDefaults()
	if !h.EditsFile() {
		return Edit{}, nil, fmt.Errorf("%s of %q edits no file", h.HookEventName, h.ToolName)
	}
	e := Edit{
		Tool:           ToolClaudeCode,
		Session:        h.SessionID,
		TranscriptPath: h.TranscriptPath,
		File:           h.File(),
		Time:           opts.Now(),
		Source:         SourceHook,
		Confidence:     ConfidenceHook,
	}
	content, ranges, err := h.contentAndRanges()
	if err != nil {
		return Edit{}, nil, err
	}
	e.Ranges = ranges
	if h.TranscriptPath != "" {
		// A missing or odd transcript costs the model, not the edit.
		model, prompt, _ := ReadTranscriptTail(h.TranscriptPath, opts.TranscriptTailBytes)
		e.Model = model
		e.Prompt = opts.keepPrompt(prompt)
	}
	return e, content, nil
}

func (h *ClaudeHook) response() claudeToolResponse {
	var r claudeToolResponse
	_ = json.Unmarshal(h.ToolResponse, &r) // not an object: nothing to learn from it
	return r
}

func (h *ClaudeHook) replacements() []replacement {
	in := h.ToolInput
	if h.ToolName == "MultiEdit" {
		rs := make([]replacement, len(in.Edits))
		for i, e := range in.Edits {
			rs[i] = replacement{e.OldString, e.NewString, e.ReplaceAll}
		}
		return rs
	}
	return []replacement{{in.OldString, in.NewString, in.ReplaceAll}}
}

func (h *ClaudeHook) contentAndRanges() ([]byte, []Range, error) {
	file := h.File()
	disk, err := os.ReadFile(file)
	if err != nil && !(errors.Is(err, os.ErrNotExist) && h.Pre()) {
		return nil, nil, fmt.Errorf("reading the edited file: %w", err)
	}
	if h.Pre() {
		return h.prospective(disk)
	}
	resp := h.response()
	if ranges, ok := patchRanges(resp); ok && h.ToolName != "NotebookEdit" {
		if h.ToolName == "Write" && resp.Type == "create" {
			return disk, wholeFile(disk), nil
		}
		return disk, ranges, nil
	}
	switch h.ToolName {
	case "Write", "NotebookEdit":
		// A notebook's cells are JSON strings: their lines cannot be told
		// apart in the file, so the whole notebook counts.
		return disk, wholeFile(disk), nil
	}
	if resp.OriginalFile != nil {
		return disk, RangesFromDiff([]byte(*resp.OriginalFile), disk), nil
	}
	var inserted []string
	for _, r := range h.replacements() {
		inserted = append(inserted, r.New)
	}
	return disk, linesOf(disk, locate(disk, inserted)), nil
}

// prospective computes the file as the tool is about to write it.
func (h *ClaudeHook) prospective(disk []byte) ([]byte, []Range, error) {
	switch h.ToolName {
	case "Write":
		if h.ToolInput.Content == nil {
			return nil, nil, errors.New("Write without content")
		}
		c := []byte(*h.ToolInput.Content)
		return c, wholeFile(c), nil
	case "NotebookEdit":
		return disk, wholeFile(disk), nil // the cell's place in the JSON is not known before
	}
	after, err := applyReplacements(disk, h.replacements())
	if err != nil {
		return nil, nil, fmt.Errorf("%s of %s: %w", h.ToolName, h.File(), err)
	}
	// Diffing rather than taking new_string whole: agents repeat the
	// lines around a change to anchor it, and those lines are not theirs.
	return after, RangesFromDiff(disk, after), nil
}

// patchRanges reads the added lines from a structuredPatch (unified diff
// hunks with 1-based newStart); false when there is no patch.
func patchRanges(r claudeToolResponse) ([]Range, bool) {
	if len(r.StructuredPatch) == 0 {
		return nil, false
	}
	var out []Range
	for _, hunk := range r.StructuredPatch {
		line := hunk.NewStart - 1
		for _, l := range hunk.Lines {
			switch {
			case strings.HasPrefix(l, "+"):
				out = append(out, Range{line, line + 1})
				line++
			case strings.HasPrefix(l, " "):
				line++
			}
		}
	}
	return normalize(out), true
}
