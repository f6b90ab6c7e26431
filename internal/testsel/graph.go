package testsel

// depGraph is a reverse dependency graph: for each node, the nodes that
// depend on it and how. Node ids carry a language prefix ("go:", "py:",
// "js:") so that one graph type serves every language.
type depGraph struct {
	dependents map[string][]dep
}

type dep struct {
	node string
	via  edgeKind
}

// edgeKind says why one node depends on another; it shows in explanations.
type edgeKind uint8

const (
	viaImport      edgeKind = iota // a source import
	viaTestImport                  // a Go test file's import
	viaOwnTests                    // a Go package's tests depend on the package itself
	viaConftest                    // a pytest conftest.py applies to a test file
	viaDynamic                     // a non-literal dynamic import might load anything
	viaTestFileDir                 // a test file's tests run from a changed Go testdata directory
)

func newDepGraph() *depGraph { return &depGraph{dependents: map[string][]dep{}} }

// add records that from depends on to.
func (g *depGraph) add(from, to string, via edgeKind) {
	g.dependents[to] = append(g.dependents[to], dep{node: from, via: via})
}

// step is how a reached node leads toward a changed node on a shortest path.
type step struct {
	next string // the node it depends on, one hop closer to a change; "" for a changed node
	via  edgeKind
	dist int
}

// reach walks the reverse edges breadth-first from the changed nodes, so
// that each reached node remembers a shortest path to a change.
func (g *depGraph) reach(changed []string) map[string]step {
	seen := make(map[string]step, len(changed))
	queue := make([]string, 0, len(changed))
	for _, c := range changed {
		if _, ok := seen[c]; !ok {
			seen[c] = step{}
			queue = append(queue, c)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		d := seen[n].dist
		for _, e := range g.dependents[n] {
			if _, ok := seen[e.node]; ok {
				continue
			}
			seen[e.node] = step{next: n, via: e.via, dist: d + 1}
			queue = append(queue, e.node)
		}
	}
	return seen
}

// shortestPath returns the nodes from n to the change it was reached from,
// inclusive, and the edge kinds between them.
func shortestPath(reached map[string]step, n string) ([]string, []edgeKind) {
	nodes := []string{n}
	var vias []edgeKind
	for {
		s, ok := reached[n]
		if !ok || s.next == "" {
			return nodes, vias
		}
		nodes = append(nodes, s.next)
		vias = append(vias, s.via)
		n = s.next
		if len(nodes) > len(reached) { // a corrupt map cannot loop forever
			return nodes, vias
		}
	}
}
