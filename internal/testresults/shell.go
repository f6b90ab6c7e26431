package testresults

import (
	"fmt"
	"strings"
)

// shellSequence runs several argvs in sh, all of them, and exits with the
// first non-zero status.
func shellSequence(runs [][]string) []string {
	var b strings.Builder
	b.WriteString("rc=0")
	for _, argv := range runs {
		b.WriteString("; ")
		b.WriteString(shellJoin(argv))
		b.WriteString(` || { s=$?; [ "$rc" -eq 0 ] && rc=$s; }`)
	}
	b.WriteString(`; exit "$rc"`)
	return []string{"sh", "-c", b.String()}
}

func shellJoin(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = shellQuote(a)
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for sh when it needs it.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shellQuoteEnv(kv string) string {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return shellQuote(kv)
	}
	return k + "=" + shellQuote(v)
}

// scriptPart is one command of a combined script: a line to print first,
// the directory to run in and the argv (which starts with "env K=V ...").
type scriptPart struct {
	announce string
	dir      string
	argv     []string
}

// combinedScript runs each part in a subshell in its directory, all of
// them, and exits with the first non-zero status.
func combinedScript(parts []scriptPart) []string {
	var b strings.Builder
	b.WriteString("rc=0")
	for _, p := range parts {
		fmt.Fprintf(&b, "; printf '%%s\\n' %s; (cd %s && exec %s)", shellQuote(p.announce), shellQuote(p.dir), shellJoin(p.argv))
		b.WriteString(` || { s=$?; [ "$rc" -eq 0 ] && rc=$s; }`)
	}
	b.WriteString(`; exit "$rc"`)
	return []string{"sh", "-c", b.String()}
}
