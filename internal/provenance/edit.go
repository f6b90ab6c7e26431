package provenance

import (
	"fmt"
	"strings"
	"time"
)

// Tool names the agent that made an edit. The constants are the names aisbx
// knows; other agents keep the name they were reported under.
type Tool string

const (
	ToolClaudeCode Tool = "claude-code"
	ToolCodex      Tool = "codex"
	ToolAider      Tool = "aider"
	ToolCopilot    Tool = "copilot"
	ToolUnknown    Tool = "unknown"
)

// ParseTool normalizes a tool name as given on a command line or in a
// record: case and common aliases ("claude", "Claude Code", "github-copilot")
// are folded into the known names; another plain name (letters, digits,
// ".", "_", "-") is kept as is.
func ParseTool(name string) (Tool, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.ReplaceAll(n, " ", "-")
	switch n {
	case "":
		return "", fmt.Errorf("empty tool name (want claude-code, codex, aider, copilot or another agent's name)")
	case "claude", "claude-code", "claudecode", "claude_code":
		return ToolClaudeCode, nil
	case "codex", "codex-cli", "openai-codex":
		return ToolCodex, nil
	case "aider", "aider-chat":
		return ToolAider, nil
	case "copilot", "github-copilot", "copilot-agent", "github-copilot-agent":
		return ToolCopilot, nil
	}
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return "", fmt.Errorf("tool name %q: only letters, digits, '.', '_' and '-' are allowed", name)
		}
	}
	return Tool(n), nil
}

// Source says how aisbx learned about an edit.
type Source string

const (
	SourceHook          Source = "hook"                     // the agent's hook reported it
	SourceGitAI         Source = "git-ai"                   // a git-ai note on a commit
	SourceAgentTrace    Source = "agent-trace"              // an Agent Trace record
	SourceExternalWrite Source = "heuristic-external-write" // the file changed on disk, no editor wrote it
	SourceLargeInsert   Source = "heuristic-large-insert"   // one editor change inserted many lines
)

// How much each source is trusted. A committed record is exact for the
// commit it names but says nothing of later edits, hence a little below a
// hook.
const (
	ConfidenceHook          = 1.0
	ConfidenceCommitted     = 0.9
	ConfidenceExternalWrite = 0.5
	ConfidenceLargeInsert   = 0.4
)

// Range is a span of lines: 0-based, End exclusive.
type Range struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Len is the number of lines in r.
func (r Range) Len() int { return r.End - r.Start }

func (r Range) String() string { return fmt.Sprintf("[%d,%d)", r.Start, r.End) }

// Edit is one change an AI made (or is believed to have made) to one file.
type Edit struct {
	// ID identifies the edit in a Store ("Mark reviewed" names it). The
	// Store assigns one when empty.
	ID      string `json:"id"`
	Tool    Tool   `json:"tool"`
	Model   string `json:"model,omitempty"`
	Session string `json:"session,omitempty"`
	// Prompt is the user's request that led to the edit, redacted and
	// truncated; empty unless a redactor was configured.
	Prompt         string `json:"prompt,omitempty"`
	TranscriptPath string `json:"transcript,omitempty"`
	// File is the absolute path of the edited file.
	File string `json:"file"`
	// Ranges are the lines the AI wrote, in the file as it was right after
	// the edit (or, for committed records, at Commit). Empty when the edit
	// only deleted lines.
	Ranges     []Range   `json:"ranges,omitempty"`
	Time       time.Time `json:"time"`
	Source     Source    `json:"source"`
	Confidence float64   `json:"confidence"`
	Reviewed   bool      `json:"reviewed,omitempty"`
	// Commit is the revision committed records refer to; empty otherwise.
	Commit string `json:"commit,omitempty"`
}

// Lines is the number of lines in e's ranges.
func (e Edit) Lines() int {
	n := 0
	for _, r := range e.Ranges {
		n += r.Len()
	}
	return n
}
