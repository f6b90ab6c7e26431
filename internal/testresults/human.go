package testresults

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Human turns one line of a test run's stdout into what a person wants to
// read, for output channels and terminals: the tests' own output instead of
// the reporters' protocol. go test -json lines give their Output text;
// "@aisbx:" events give a PASS/FAIL line (and a failure's details); other
// lines pass as they are. It returns nil for lines with nothing to show.
func Human(line []byte) []byte {
	trimmed := bytes.TrimSpace(line)
	switch {
	case bytes.HasPrefix(trimmed, []byte(Marker)):
		return humanProto(trimmed[len(Marker):])
	case bytes.HasPrefix(trimmed, []byte(`{"Time"`)) || bytes.HasPrefix(trimmed, []byte(`{"Action"`)) || bytes.HasPrefix(trimmed, []byte(`{"ImportPath"`)):
		var ev struct {
			Action string `json:"Action"`
			Output string `json:"Output"`
		}
		if json.Unmarshal(trimmed, &ev) != nil {
			return nil // a protocol line cut short (the output cap): noise
		}
		if ev.Action == "output" || ev.Action == "build-output" {
			return []byte(ev.Output)
		}
		return nil
	}
	return line
}

func humanProto(data []byte) []byte {
	var ev protoEvent
	if json.Unmarshal(data, &ev) != nil {
		return nil
	}
	name := ev.Name
	if len(ev.Path) > 0 {
		name = strings.Join(ev.Path, " > ")
	}
	var b strings.Builder
	switch ev.E {
	case "end":
		fmt.Fprintf(&b, "--- %s: %s (%.2fs)\n", strings.ToUpper(statusWord(ev.Status)), name, ev.MS/1000)
		if ev.Status == "failed" || ev.Status == "error" {
			writeIndented(&b, ev.Message, ev.Details, ev.Output)
		}
	case "error":
		fmt.Fprintf(&b, "--- ERROR: %s did not load\n", ev.File)
		writeIndented(&b, ev.Message, ev.Details, "")
	default:
		return nil
	}
	return []byte(b.String())
}

func statusWord(s string) string {
	switch s {
	case "passed":
		return "pass"
	case "failed":
		return "fail"
	case "skipped":
		return "skip"
	}
	return s
}

func writeIndented(b *strings.Builder, parts ...string) {
	for _, p := range parts {
		p = strings.TrimRight(p, "\n")
		if p == "" {
			continue
		}
		for _, l := range strings.Split(p, "\n") {
			b.WriteString("    " + l + "\n")
		}
	}
}
