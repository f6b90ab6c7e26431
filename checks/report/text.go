package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/aisbx/aisbx/checks"
)

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiBlue   = "\x1b[34m"
)

// IsTerminal reports whether w is a character device, where colour helps;
// a file or a pipe gets plain text.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// WriteText writes findings grouped by file, then check errors and a
// summary line:
//
//	src/app.py
//	  3:9   error    Hard-coded AWS secret access key  [aws-secret-access-key]
func WriteText(w io.Writer, r *Report, opts Options) error {
	bw := bufio.NewWriter(w)
	paint := func(code, s string) string {
		if !opts.Color {
			return s
		}
		return code + s + ansiReset
	}
	counts := map[checks.Severity]int{}
	for _, f := range r.view() {
		fmt.Fprintln(bw, paint(ansiBold, f.Rel))
		width := 0
		for _, fd := range f.Findings {
			width = max(width, len(fmt.Sprintf("%d:%d", fd.pos.Line, fd.pos.Col)))
		}
		for _, fd := range f.Findings {
			counts[fd.Severity]++
			at := fmt.Sprintf("%d:%d", fd.pos.Line, fd.pos.Col)
			sev := fmt.Sprintf("%-7s", fd.Severity)
			fmt.Fprintf(bw, "  %s%s  %s  %s  %s\n", paint(ansiDim, at), strings.Repeat(" ", width-len(at)),
				paint(severityColor(fd.Severity), sev), oneLine(fd.Message), paint(ansiDim, "["+fd.Rule+"]"))
		}
		fmt.Fprintln(bw)
	}
	for _, e := range r.Errors {
		fmt.Fprintf(bw, "%s %s: %s: %s\n", paint(ansiYellow, "warning:"), r.rel(e.Path), e.Check, oneLine(e.Message))
	}
	if len(r.Errors) > 0 {
		fmt.Fprintln(bw)
	}
	fmt.Fprintln(bw, summary(r, counts))
	return bw.Flush()
}

func severityColor(s checks.Severity) string {
	switch s {
	case checks.SeverityError:
		return ansiRed
	case checks.SeverityWarning:
		return ansiYellow
	}
	return ansiBlue
}

// summary reads "3 findings (1 error, 2 warnings) in 120 files, 1.2 MB, 340ms".
func summary(r *Report, counts map[checks.Severity]int) string {
	total := r.Total()
	var parts []string
	for _, s := range []checks.Severity{checks.SeverityError, checks.SeverityWarning, checks.SeverityInfo, checks.SeverityHint} {
		if n := counts[s]; n > 0 {
			parts = append(parts, plural(n, s.String()))
		}
	}
	head := "no findings"
	if total > 0 {
		head = plural(total, "finding") + " (" + strings.Join(parts, ", ") + ")"
	}
	return fmt.Sprintf("%s in %s, %s, %v", head, plural(r.FilesScanned, "file"), humanBytes(r.BytesScanned), r.Duration.Round(time.Millisecond))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// oneLine keeps a multi-line tool message on its finding's line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
