package config

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
)

// Insertion is a text edit that inserts Text at byte Offset.
type Insertion struct {
	Offset int
	Text   string
}

var (
	tableHeaderRE  = regexp.MustCompile(`^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$`)
	fingerprintsRE = regexp.MustCompile(`^\s*fingerprints\s*=\s*\[`)
)

// AddAllowlistFingerprint returns the edit that adds fp to
// [secrets.allowlist] fingerprints of an aisbx.toml (data may be empty: a
// file to create), keeping the rest of the file, comments included, as it
// is. It refuses when the result would not load, so a quick fix never
// breaks a config.
func AddAllowlistFingerprint(path string, data []byte, fp string) (Insertion, error) {
	if l := LoadLayers(Layer{Path: path, Data: data}); l.Config != nil && slices.Contains(l.Config.Secrets.Allowlist.Fingerprints, fp) {
		return Insertion{}, fmt.Errorf("%s already allows %s", path, fp)
	}
	quoted := strconv.Quote(fp)
	lines := bytes.SplitAfter(data, []byte("\n"))
	off, table := 0, ""
	headerEnd := -1
	for _, line := range lines {
		if m := tableHeaderRE.FindSubmatch(bytes.TrimRight(line, "\r\n")); m != nil {
			table = string(bytes.ReplaceAll(m[1], []byte(" "), nil))
			if table == "secrets.allowlist" {
				headerEnd = off + len(line)
			}
		} else if table == "secrets.allowlist" && fingerprintsRE.Match(line) {
			i := bytes.IndexByte(line, '[')
			sep := ", "
			if bytes.HasPrefix(bytes.TrimSpace(line[i+1:]), []byte("]")) {
				sep = ""
			}
			return checkedInsertion(path, data, Insertion{Offset: off + i + 1, Text: quoted + sep})
		}
		off += len(line)
	}
	if headerEnd >= 0 {
		text := "fingerprints = [" + quoted + "]\n"
		if headerEnd > 0 && data[headerEnd-1] != '\n' {
			text = "\n" + text
		}
		return checkedInsertion(path, data, Insertion{Offset: headerEnd, Text: text})
	}
	text := "[secrets.allowlist]\nfingerprints = [" + quoted + "]\n"
	switch {
	case len(data) == 0:
	case data[len(data)-1] != '\n':
		text = "\n\n" + text
	default:
		text = "\n" + text
	}
	return checkedInsertion(path, data, Insertion{Offset: len(data), Text: text})
}

func checkedInsertion(path string, data []byte, ins Insertion) (Insertion, error) {
	out := append(append(append([]byte{}, data[:ins.Offset]...), ins.Text...), data[ins.Offset:]...)
	l := LoadLayers(Layer{Path: path, Data: out})
	if l.HasErrors() || !slices.Contains(l.Config.Secrets.Allowlist.Fingerprints, fingerprintOf(ins.Text)) {
		return Insertion{}, fmt.Errorf("cannot add the fingerprint to %s automatically (its [secrets.allowlist] is written in a form aisbx does not edit); add it by hand: [secrets.allowlist] fingerprints = [%s]", path, ins.Text)
	}
	return ins, nil
}

var quotedRE = regexp.MustCompile(`"sha256:[0-9a-f]+"`)

func fingerprintOf(text string) string {
	q := quotedRE.FindString(text)
	s, _ := strconv.Unquote(q)
	return s
}
