package testresults

import (
	"encoding/json"
	"strings"
	"time"
)

// protoEvent is one line of the "@aisbx:" protocol the reporters print:
//
//	{"e":"run","total":N} or {"e":"run","add":N}   tests expected
//	{"e":"start","id","name","path","file"}         a test began
//	{"e":"end","id","name","path","file","status","ms","message","details","output","loc","frames"}
//	{"e":"error","id","name","file","message","details","loc"}  a file did not load
//	{"e":"drop","id"}                               a started entry was not a test after all
//	{"e":"dir","dir"}                               later relative paths are below dir
//	{"e":"done","exit"}
//
// status is passed, failed, error, skipped or unknown; paths are as the
// runner saw them (absolute in the container).
type protoEvent struct {
	E       string     `json:"e"`
	ID      string     `json:"id"`
	Name    string     `json:"name"`
	Path    []string   `json:"path"`
	File    string     `json:"file"`
	Status  string     `json:"status"`
	MS      float64    `json:"ms"`
	Message string     `json:"message"`
	Details string     `json:"details"`
	Output  string     `json:"output"`
	Loc     *protoLoc  `json:"loc"`
	Frames  []protoLoc `json:"frames"`
	Total   int        `json:"total"`
	Add     int        `json:"add"`
	Dir     string     `json:"dir"`
}

type protoLoc struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// protoLine handles the JSON after a marker; false when it is not an event.
func (p *Parser) protoLine(b []byte) bool {
	var ev protoEvent
	if err := json.Unmarshal(b, &ev); err != nil || ev.E == "" {
		return false
	}
	switch ev.E {
	case "run":
		if ev.Total > 0 {
			p.setTotal(ev.Total)
		} else if ev.Add > 0 {
			p.setTotal(p.progress.Total + ev.Add)
		}
	case "start":
		if _, ok := p.protoByID[ev.ID]; ok || ev.ID == "" {
			return true
		}
		r := p.protoResult(ev, KindTest)
		p.protoByID[ev.ID] = r
		p.start(r)
	case "end":
		r, ok := p.protoByID[ev.ID]
		if !ok {
			r = p.protoResult(ev, KindTest)
			p.protoByID[ev.ID] = r
		}
		if p.ended[r] {
			return true
		}
		p.protoFill(r, ev)
		p.finish(r)
	case "error":
		r := p.protoResult(ev, KindLoad)
		ev.Status = "failed"
		p.protoFill(r, ev)
		p.finish(r)
	case "drop":
		// A started entry turned out not to be a test (a node suite).
		if r, ok := p.protoByID[ev.ID]; ok && !p.ended[r] {
			delete(p.protoByID, ev.ID)
			p.unlist(r)
		}
	case "dir":
		if ev.Dir != "" {
			p.paths.dir = ev.Dir
		}
	case "done":
	default:
		return false
	}
	return true
}

func (p *Parser) protoResult(ev protoEvent, kind ResultKind) *Result {
	r := &Result{Kind: kind, Name: ev.Name, Path: ev.Path}
	if ev.File != "" {
		r.File, _ = p.paths.file(ev.File)
	}
	if r.Name == "" {
		r.Name = r.File
	}
	if len(r.Path) == 0 && kind == KindTest {
		switch {
		case strings.Contains(r.Name, " > "):
			r.Path = strings.Split(r.Name, " > ")
		default:
			r.Path = strings.Split(r.Name, "::")
		}
	}
	if kind == KindLoad {
		r.Path = nil
		if ev.File != "" {
			r.Name = r.File
		}
	}
	return r
}

func (p *Parser) protoFill(r *Result, ev protoEvent) {
	r.Duration = time.Duration(ev.MS * float64(time.Millisecond))
	switch ev.Status {
	case "passed":
		r.Status = StatusPassed
	case "failed", "error":
		r.Status = StatusFailed
	case "skipped":
		r.Status = StatusSkipped
	default:
		r.Status = StatusUnknown
	}
	r.Message = firstLine(ev.Message)
	out := newExcerpt(p.opts.MaxOutput)
	if ev.Details != "" {
		out.WriteString(strings.TrimRight(ev.Details, "\n"))
		out.WriteString("\n")
	}
	if ev.Output != "" {
		out.WriteString(ev.Output)
	}
	r.Output = out.String()
	if r.Status != StatusFailed {
		return
	}
	if ev.Loc != nil && ev.Loc.Line > 0 {
		l := p.paths.location(ev.Loc.File, ev.Loc.Line, ev.Loc.Col)
		r.Location = &l
	}
	for _, f := range ev.Frames {
		if len(r.Frames) >= maxFrames {
			break
		}
		if f.Line > 0 {
			r.Frames = append(r.Frames, p.paths.location(f.File, f.Line, f.Col))
		}
	}
}
