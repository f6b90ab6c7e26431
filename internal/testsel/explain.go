package testsel

import (
	"fmt"
	"strings"
)

// maxChainShown bounds how many hops of a dependency chain a reason spells
// out; the Item's Chain keeps all of them.
const maxChainShown = 4

// explain words why node was reached: "changed (a.go)", "imports x → y
// (changed)", "tests import x (changed)", "uses tests/conftest.py → y
// (changed)". The chain returned runs from the unit to the change.
func explain(reached map[string]step, node string, starts map[string][]string, dynamic map[string]int) (string, []string) {
	nodes, vias := shortestPath(reached, node)
	chain := make([]string, len(nodes))
	for i, n := range nodes {
		chain[i] = nodeName(n)
	}
	last := nodes[len(nodes)-1]
	files := changedFiles(starts[last])
	// A Go test root leads to its own package first; that hop says nothing.
	if len(vias) > 0 && vias[0] == viaOwnTests {
		nodes, vias, chain = nodes[1:], vias[1:], chain[1:]
	}
	if len(vias) == 0 {
		if strings.HasSuffix(node, " [test]") && nodes[0] == node {
			return "its tests changed (" + files + ")", chain
		}
		return "changed (" + files + ")", chain
	}
	verb := "imports"
	switch vias[0] {
	case viaTestImport:
		verb = "tests import"
	case viaConftest:
		verb = "uses"
	case viaDynamic:
		verb = "may load dynamically"
	}
	hops := chain[1:]
	if len(hops) > maxChainShown {
		hops = append(append(append([]string(nil), hops[:maxChainShown-2]...), "…"), hops[len(hops)-1])
	}
	why := fmt.Sprintf("%s %s (changed", verb, strings.Join(hops, " → "))
	for i, v := range vias {
		if v == viaDynamic {
			why += fmt.Sprintf("; %s:%d imports by a computed name", nodeName(nodes[i]), dynamic[nodes[i]])
			break
		}
	}
	why += ")"
	return why, chain
}

func nodeName(n string) string {
	n = strings.TrimSuffix(n, " [test]")
	if i := strings.IndexByte(n, ':'); i >= 0 {
		return n[i+1:]
	}
	return n
}

func changedFiles(files []string) string {
	const shown = 3
	if len(files) > shown {
		return fmt.Sprintf("%s and %d more", strings.Join(files[:shown], ", "), len(files)-shown)
	}
	return strings.Join(files, ", ")
}
