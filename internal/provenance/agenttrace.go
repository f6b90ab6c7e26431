package provenance

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// AgentTracePath is where Agent Trace's reference implementation appends
// its records, relative to the workspace root.
const AgentTracePath = ".agent-trace/traces.jsonl"

// maxAgentTraceBytes bounds how much of a traces file is read: its newest
// records, from the end.
const maxAgentTraceBytes = 16 << 20

// agentTraceRecord is an Agent Trace record (spec 0.1.0): files, each with
// conversations, each with 1-based inclusive line ranges and a contributor.
type agentTraceRecord struct {
	Version   string    `json:"version"`
	ID        string    `json:"id"`
	Timestamp time.Time `json:"timestamp"`
	VCS       *struct {
		Type     string `json:"type"`
		Revision string `json:"revision"`
	} `json:"vcs"`
	Tool *struct {
		Name string `json:"name"`
	} `json:"tool"`
	Files []struct {
		Path          string `json:"path"`
		Conversations []struct {
			URL         string                 `json:"url"`
			Contributor *agentTraceContributor `json:"contributor"`
			Ranges      []struct {
				StartLine   int                    `json:"start_line"`
				EndLine     int                    `json:"end_line"`
				Contributor *agentTraceContributor `json:"contributor"`
			} `json:"ranges"`
		} `json:"conversations"`
	} `json:"files"`
}

type agentTraceContributor struct {
	Type    string `json:"type"` // human, ai, mixed, unknown
	ModelID string `json:"model_id"`
}

// ReadAgentTraces reads the Agent Trace records of the workspace at root
// (.agent-trace/traces.jsonl; none is no error) and returns the lines
// contributed by AI or mixed authors as Edits. Malformed lines are skipped
// and counted in the returned error, after the rest were read.
func ReadAgentTraces(root string) ([]Edit, error) {
	f, err := os.Open(filepath.Join(root, filepath.FromSlash(AgentTracePath)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("agent trace: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > maxAgentTraceBytes {
		if _, err := f.Seek(fi.Size()-maxAgentTraceBytes, io.SeekStart); err != nil {
			return nil, fmt.Errorf("agent trace: %w", err)
		}
	}
	var edits []Edit
	bad := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		var rec agentTraceRecord
		if err := json.Unmarshal(line, &rec); err != nil || rec.Version == "" {
			bad++
			continue
		}
		edits = append(edits, rec.edits(root)...)
	}
	if err := sc.Err(); err != nil {
		return edits, fmt.Errorf("agent trace: %w", err)
	}
	if bad > 0 {
		return edits, fmt.Errorf("agent trace: %d malformed record(s) skipped", bad)
	}
	return edits, nil
}

func (rec agentTraceRecord) edits(root string) []Edit {
	tool := ToolUnknown
	if rec.Tool != nil {
		if t, err := ParseTool(rec.Tool.Name); err == nil {
			tool = t
		}
	}
	commit := ""
	if rec.VCS != nil {
		commit = rec.VCS.Revision
	}
	var out []Edit
	for _, f := range rec.Files {
		for _, conv := range f.Conversations {
			var ranges []Range
			model := ""
			for _, r := range conv.Ranges {
				c := conv.Contributor
				if r.Contributor != nil {
					c = r.Contributor
				}
				if c == nil || (c.Type != "ai" && c.Type != "mixed") {
					continue
				}
				if rr, ok := fromOneBased(r.StartLine, r.EndLine); ok {
					ranges = append(ranges, rr)
					if model == "" {
						model = c.ModelID
					}
				}
			}
			if len(ranges) == 0 {
				continue
			}
			path := f.Path
			if !filepath.IsAbs(path) {
				path = filepath.Join(root, filepath.FromSlash(path))
			}
			transcript := ""
			if strings.HasPrefix(conv.URL, "file://") {
				transcript = strings.TrimPrefix(conv.URL, "file://")
			}
			out = append(out, Edit{
				Tool:           tool,
				Model:          model,
				Session:        conversationID(conv.URL),
				TranscriptPath: transcript,
				File:           path,
				Ranges:         normalize(ranges),
				Time:           rec.Timestamp,
				Source:         SourceAgentTrace,
				Confidence:     ConfidenceCommitted,
				Commit:         commit,
			})
		}
	}
	return out
}

// conversationID is the last path element of a conversation URL, which is
// how tools name sessions ("…/conversations/12345", "file://…/<id>.jsonl").
func conversationID(url string) string {
	if url == "" {
		return ""
	}
	base := url[strings.LastIndex(url, "/")+1:]
	return strings.TrimSuffix(base, ".jsonl")
}
