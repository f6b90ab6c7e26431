package deps

import (
	"strings"
	"sync"
)

// pep503 normalises a Python distribution name: lower case, runs of "-",
// "_" and "." become one "-". Import paths go through it too, so that
// google.cloud.storage meets google-cloud-storage.
func pep503(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	sep := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '-' || c == '_' || c == '.':
			sep = true
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if sep && b.Len() > 0 {
			b.WriteByte('-')
		}
		sep = false
		b.WriteByte(c)
	}
	return b.String()
}

var (
	pyStdOnce sync.Once
	pyStd     map[string]bool
	pyMapOnce sync.Once
	pyMap     map[string][]string // import path -> normalised distributions
)

func pythonStdlib() map[string]bool {
	pyStdOnce.Do(func() { pyStd = dataSet("python-stdlib.txt") })
	return pyStd
}

func pythonImportMap() map[string][]string {
	pyMapOnce.Do(func() {
		pyMap = map[string][]string{}
		for _, line := range dataLines("py-import-names.tsv") {
			imp, dists, ok := strings.Cut(line, "\t")
			if !ok {
				continue
			}
			for _, d := range strings.Split(dists, ",") {
				pyMap[imp] = append(pyMap[imp], pep503(strings.TrimSpace(d)))
			}
		}
	})
	return pyMap
}
