package report

import (
	"encoding/json"
	"io"
)

// jsonReport is the JSON format, as the CLI documents it.
type jsonReport struct {
	Findings     []jsonFinding `json:"findings"`
	FilesScanned int           `json:"files_scanned"`
	BytesScanned int64         `json:"bytes_scanned"`
	DurationMS   int64         `json:"duration_ms"`
}

type jsonFinding struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Rule      string `json:"rule"`
	Category  string `json:"category"`
	Severity  string `json:"severity"`
	Message   string `json:"message"`
}

// WriteJSON writes r as one JSON object:
//
//	{"findings":[{"path","line","column","end_line","end_column","rule",
//	  "category","severity","message"}],"files_scanned","bytes_scanned",
//	  "duration_ms"}
//
// Lines and columns are 1-based, columns in UTF-16 code units, end_column
// exclusive.
func WriteJSON(w io.Writer, r *Report) error {
	out := jsonReport{
		Findings:     []jsonFinding{},
		FilesScanned: r.FilesScanned,
		BytesScanned: r.BytesScanned,
		DurationMS:   r.Duration.Milliseconds(),
	}
	for _, f := range r.view() {
		for _, fd := range f.Findings {
			out.Findings = append(out.Findings, jsonFinding{
				Path:      fd.Rel,
				Line:      fd.pos.Line,
				Column:    fd.pos.Col,
				EndLine:   fd.pos.EndLine,
				EndColumn: fd.pos.EndCol,
				Rule:      fd.Rule,
				Category:  string(fd.Category),
				Severity:  fd.Severity.String(),
				Message:   fd.Message,
			})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
