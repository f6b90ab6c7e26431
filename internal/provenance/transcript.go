package provenance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// transcriptEntry is the part of a Claude Code transcript line aisbx reads.
type transcriptEntry struct {
	Type    string `json:"type"`
	IsMeta  bool   `json:"isMeta"`
	Message struct {
		Role    string          `json:"role"`
		Model   string          `json:"model"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// ReadTranscriptTail reads the end of a Claude Code transcript (JSONL) and
// returns the model of the last assistant message and the text of the last
// prompt the user typed. It reads at most maxBytes from the end, so a long
// session costs no more than a short one; either result may be empty.
func ReadTranscriptTail(path string, maxBytes int64) (model string, prompt []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", nil, fmt.Errorf("opening transcript: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", nil, fmt.Errorf("transcript: %w", err)
	}
	start := max(fi.Size()-maxBytes, 0)
	buf := make([]byte, fi.Size()-start)
	if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
		return "", nil, fmt.Errorf("reading transcript: %w", err)
	}
	if start > 0 { // the first line is cut: skip it
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		} else {
			buf = nil
		}
	}
	lines := bytes.Split(buf, []byte{'\n'})
	for i := len(lines) - 1; i >= 0 && (model == "" || prompt == nil); i-- {
		line := bytes.TrimSpace(lines[i])
		if len(line) == 0 || !bytes.Contains(line, []byte(`"type"`)) {
			continue
		}
		var e transcriptEntry
		if json.Unmarshal(line, &e) != nil {
			continue // a line still being written, or another shape
		}
		switch {
		case e.Type == "assistant" && model == "" && e.Message.Model != "" && e.Message.Model != "<synthetic>":
			model = e.Message.Model
		case e.Type == "user" && prompt == nil && !e.IsMeta:
			prompt = userText(e.Message.Content)
		}
	}
	return model, prompt, nil
}

// userText extracts what a person typed from a user message's content: a
// plain string, or the text blocks of an array. Tool results are not typed
// by anyone and give nil.
func userText(raw json.RawMessage) []byte {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return nil
		}
		return []byte(s)
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return nil
	}
	var out []byte
	for _, b := range blocks {
		if b.Type == "text" && b.Text != "" {
			if len(out) > 0 {
				out = append(out, '\n')
			}
			out = append(out, b.Text...)
		}
	}
	return out
}
