package linters

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/aisbx/aisbx/checks"
)

// compileRule is the rule of a type error reported by any Go tool: one id,
// so the engine drops the copies when several tools report the same error.
const compileRule = "go/compile"

// goPackage returns the package directory of f and its module's go.mod, or
// ok false when Go's tools would not treat it as a package of a module
// (testdata, vendor, _ and . directories, no go.mod).
func goPackage(f *checks.File) (dir, modFile string, ok bool) {
	dir = filepath.Dir(filepath.Clean(f.Path))
	for d := dir; ; {
		base := filepath.Base(d)
		if base == "testdata" || base == "vendor" || strings.HasPrefix(base, "_") || (strings.HasPrefix(base, ".") && base != ".") {
			return "", "", false
		}
		if m := filepath.Join(d, "go.mod"); fileExists(m) {
			return dir, m, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", false
		}
		d = parent
	}
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// parsePosn reads go/token's "file:line:col" (or "file:line"); relative
// files are resolved against dir.
func parsePosn(s, dir string) (file string, p loc, ok bool) {
	nums := make([]int, 0, 2)
	rest := s
	for range 2 {
		i := strings.LastIndexByte(rest, ':')
		if i < 0 {
			break
		}
		n, err := strconv.Atoi(rest[i+1:])
		if err != nil {
			break
		}
		nums = append(nums, n)
		rest = rest[:i]
	}
	switch len(nums) {
	case 2:
		p = loc{Line: nums[1], Col: nums[0]}
	case 1:
		p = loc{Line: nums[0]}
	default:
		return "", loc{}, false
	}
	return absIn(rest, dir), p, rest != ""
}

func absIn(file, dir string) string {
	if file == "" || filepath.IsAbs(file) {
		return filepath.Clean(file)
	}
	return filepath.Join(dir, file)
}

// compileLineRE matches a type error as go vet and staticcheck print it:
// "vet: ./b.go:4:9: undefined: x" or "./b.go:4:9: undefined: x".
var compileLineRE = regexp.MustCompile(`^(?:vet: )?(\S+?\.go):(\d+)(?::(\d+))?: (.+)$`)

// parseCompileErrors reads type errors out of free text.
func parseCompileErrors(text []byte, dir string) []diag {
	var out []diag
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		m := compileLineRE.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		out = append(out, diag{
			File:     absIn(m[1], dir),
			Start:    loc{Line: line, Col: col},
			Rule:     compileRule,
			Message:  m[4],
			Severity: checks.SeverityError,
		})
	}
	return out
}
