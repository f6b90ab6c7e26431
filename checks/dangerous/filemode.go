package dangerous

import (
	"strconv"
	"strings"
)

// worldWritable is the permission bit that lets any user write.
const worldWritable = 0o002

// parseIntLiteral reads an integer literal of Go, Python or shell: 0777,
// 0o777, 0x1ff, 511, with optional underscores.
func parseIntLiteral(s string) (int64, bool) {
	s = strings.ReplaceAll(s, "_", "")
	if len(s) > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '7' {
		v, err := strconv.ParseInt(s[1:], 8, 64)
		return v, err == nil
	}
	v, err := strconv.ParseInt(s, 0, 64)
	return v, err == nil
}

// saferMode removes group and world write from a literal mode, keeping the
// literal's style: 0777 -> 0755, 0o666 -> 0o644.
func saferMode(lit string, mode int64) string {
	m := mode &^ 0o022
	switch {
	case strings.HasPrefix(lit, "0o"), strings.HasPrefix(lit, "0O"):
		return "0o" + strconv.FormatInt(m, 8)
	case strings.HasPrefix(lit, "0x"), strings.HasPrefix(lit, "0X"):
		return "0x" + strconv.FormatInt(m, 16)
	case len(lit) > 1 && lit[0] == '0':
		return "0" + strconv.FormatInt(m, 8)
	}
	return strconv.FormatInt(m, 10)
}
