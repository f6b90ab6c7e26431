package watcher

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// A scenario is a script of file operations read from testdata/scenarios:
// the setup a test lays down before watching, then phases a separate agent
// process performs. The test derives what the watcher must report from the
// same script, so expectations are never written twice.
type scenario struct {
	setup  []op
	phases []phase
}

type phase struct {
	name string
	ops  []op
}

type op struct {
	verb    string
	args    []string
	silent  bool // "!": none of its paths may be reported
	content string
}

func parseScenario(path string) (*scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := &scenario{}
	s := bufio.NewScanner(f)
	for n := 1; s.Scan(); n++ {
		line := strings.TrimSpace(s.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		o := op{}
		if strings.HasPrefix(line, "!") {
			o.silent = true
			line = strings.TrimSpace(line[1:])
		}
		fields := strings.Fields(line)
		o.verb, o.args = fields[0], fields[1:]
		want := map[string]int{"setup": -1, "phase": 1, "write": -1, "atomic": 1, "mkdirp": 1, "remove": 1, "rename": 2, "burst": 3, "vim": 1}
		nargs, ok := want[o.verb]
		if !ok || (nargs >= 0 && len(o.args) != nargs) || len(o.args) == 0 {
			return nil, fmt.Errorf("%s:%d: bad op %q", path, n, line)
		}
		if nargs < 0 { // PATH [CONTENT]
			o.content = strings.ReplaceAll(strings.Join(o.args[1:], " "), `\n`, "\n")
			o.args = o.args[:1]
		}
		switch o.verb {
		case "setup":
			sc.setup = append(sc.setup, o)
		case "phase":
			sc.phases = append(sc.phases, phase{name: o.args[0]})
		default:
			if len(sc.phases) == 0 {
				return nil, fmt.Errorf("%s:%d: op before the first phase", path, n)
			}
			p := &sc.phases[len(sc.phases)-1]
			p.ops = append(p.ops, o)
		}
	}
	return sc, s.Err()
}

// expectation is what one phase must produce: the first kind reported for
// a path that must appear, or the last kind for one that must end gone.
type expectation struct {
	first map[string]Kind // path -> kind of its first report in the phase
	gone  map[string]bool // path -> its last report must be Removed or Renamed
	quiet map[string]bool // paths that must never be reported
}

// model tracks which files exist, to derive expectations phase by phase.
type model struct{ files map[string]bool }

func (m *model) under(dir string) []string {
	var out []string
	for f := range m.files {
		if strings.HasPrefix(f, dir+"/") {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

func (m *model) expect(ph phase) expectation {
	before := map[string]bool{}
	for f := range m.files {
		before[f] = true
	}
	ex := expectation{first: map[string]Kind{}, gone: map[string]bool{}, quiet: map[string]bool{}}
	touch := func(p string, silent bool) {
		if silent {
			ex.quiet[p] = true
			return
		}
		m.files[p] = true
		delete(ex.gone, p)
		if _, ok := ex.first[p]; ok {
			return
		}
		if before[p] {
			ex.first[p] = Written
		} else {
			ex.first[p] = Created
		}
	}
	drop := func(p string) {
		delete(m.files, p)
		if before[p] {
			ex.gone[p] = true
		}
		if !before[p] {
			delete(ex.first, p) // came and went: may or may not be seen
		}
	}
	for _, o := range ph.ops {
		switch o.verb {
		case "write", "atomic", "mkdirp":
			touch(o.args[0], o.silent)
		case "vim":
			touch(o.args[0], false)
			for _, a := range vimArtifacts(o.args[0]) {
				ex.quiet[a] = true
			}
		case "remove":
			if files := m.under(o.args[0]); len(files) > 0 {
				for _, f := range files {
					drop(f)
				}
			} else {
				drop(o.args[0])
			}
		case "rename":
			from, to := o.args[0], o.args[1]
			if files := m.under(from); len(files) > 0 {
				for _, f := range files {
					drop(f)
					touch(to+strings.TrimPrefix(f, from), false)
				}
			} else {
				drop(from)
				touch(to, false)
			}
		case "burst":
			for _, p := range burstFiles(o) {
				touch(p, o.silent)
			}
		}
	}
	return ex
}

func burstFiles(o op) []string {
	n, _ := strconv.Atoi(o.args[1])
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s/f%03d.txt", o.args[2], i)
	}
	return out
}

func vimArtifacts(p string) []string {
	dir, base := filepath.Dir(p), filepath.Base(p)
	return []string{p + "~", filepath.Join(dir, "."+base+".swp"), filepath.Join(dir, "4913")}
}

// run performs one op below root, as the agent process does.
func (o op) run(root string, seq *int) error {
	abs := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	write := func(p string) error {
		*seq++
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		content := o.content
		if content == "" {
			content = fmt.Sprintf("// write %d to %s\n", *seq, filepath.Base(p))
		}
		return os.WriteFile(p, []byte(content), 0o644)
	}
	switch o.verb {
	case "write", "mkdirp":
		return write(abs(o.args[0]))
	case "atomic":
		tmp := fmt.Sprintf("%s.aisbx-tmp-%d", abs(o.args[0]), *seq)
		if err := write(tmp); err != nil {
			return err
		}
		return os.Rename(tmp, abs(o.args[0]))
	case "remove":
		return os.RemoveAll(abs(o.args[0]))
	case "rename":
		if err := os.MkdirAll(filepath.Dir(abs(o.args[1])), 0o755); err != nil {
			return err
		}
		return os.Rename(abs(o.args[0]), abs(o.args[1]))
	case "burst":
		writes, _ := strconv.Atoi(o.args[0])
		files := burstFiles(o)
		for i := 0; i < writes; i++ {
			if err := write(abs(files[i%len(files)])); err != nil {
				return err
			}
		}
		return nil
	case "vim":
		// What vim does with 'backupcopy=no': probe, back up by rename, write
		// anew, drop the backup; the swap file lives beside the file.
		p := abs(o.args[0])
		art := vimArtifacts(o.args[0])
		swp, probe := abs(art[1]), abs(art[2])
		if err := write(swp); err != nil {
			return err
		}
		if err := write(probe); err != nil {
			return err
		}
		if err := os.Remove(probe); err != nil {
			return err
		}
		if err := os.Rename(p, p+"~"); err != nil {
			return err
		}
		if err := write(p); err != nil {
			return err
		}
		if err := os.Remove(p + "~"); err != nil {
			return err
		}
		return os.Remove(swp)
	}
	return fmt.Errorf("unknown op %q", o.verb)
}
