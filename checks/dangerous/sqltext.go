package dangerous

import (
	"regexp"
	"strings"
)

// sqlRE recognizes SQL in the literal parts of a string being built. It
// keeps the SQL rules from firing on every string passed to a method that
// happens to be called Exec or execute.
var sqlRE = regexp.MustCompile(`(?is)\b(select\b.*\bfrom|insert\s+(or\s+\w+\s+)?into|update\b.*\bset|delete\s+from|replace\s+into|merge\s+into|upsert\b|where\b|order\s+by|group\s+by|values\s*\(|(create|drop|alter|truncate)\s+(table|index|view|database|schema|user)\b|grant\b.*\bon\b)`)

// looksLikeSQL reports whether the literal fragments of a built string read
// as SQL. Fragments are joined with a placeholder so that "SELECT a " and
// " FROM t" still form a statement.
func looksLikeSQL(fragments []string) bool {
	return sqlRE.MatchString(strings.Join(fragments, " ? "))
}

// sqlState describes a string expression that may become SQL.
type sqlState struct {
	sqlish  bool // its literal parts read as SQL
	dynamic bool // a non-constant value is spliced into its text
}

func (a sqlState) or(b sqlState) sqlState {
	return sqlState{sqlish: a.sqlish || b.sqlish, dynamic: a.dynamic || b.dynamic}
}

// formatVerbs returns the conversion letters of a printf-style format
// (Go's fmt or Python's %), in order; "%%" is skipped.
func formatVerbs(format string) []byte {
	var out []byte
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		j := i + 1
		if j < len(format) && format[j] == '%' {
			i = j
			continue
		}
		if j < len(format) && format[j] == '(' { // Python's %(name)s
			for j < len(format) && format[j] != ')' {
				j++
			}
			j++
		}
		for j < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[j]) >= 0 {
			j++
		}
		if j < len(format) {
			out = append(out, format[j])
		}
		i = j
	}
	return out
}

// textVerb reports whether a conversion can splice arbitrary text: %d of a
// string prints an error marker, not the string, so numeric verbs are safe.
func textVerb(v byte) bool {
	return strings.IndexByte("svqra", v) >= 0
}
