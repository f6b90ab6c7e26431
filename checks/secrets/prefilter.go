package secrets

// prefilter is an Aho-Corasick automaton over ASCII-case-folded keywords,
// compiled to a dense DFA over a reduced alphabet. One pass over a file
// finds every keyword occurrence; only the bytes around those occurrences
// are looked at again. Hand-written because the automaton is small and the
// scan loop is the hottest code in the check: a byte costs one table load.
type prefilter struct {
	class   [256]uint8 // byte -> alphabet class; 0 = in no keyword
	nclass  int
	delta   []uint16  // state*nclass + class -> next state
	outputs [][]int32 // state -> keyword ids ending here (fail links merged)
	// hot marks states with outputs so the loop tests one byte.
	hot []bool
}

// hit is a keyword occurrence: content[end-len(keyword):end].
type hit struct {
	kw  int32
	end int32
}

func newPrefilter(keywords []string) *prefilter {
	p := &prefilter{}
	n := 1
	for _, kw := range keywords {
		for i := 0; i < len(kw); i++ {
			c := lower(kw[i])
			if p.class[c] == 0 {
				p.class[c] = uint8(n)
				n++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		p.class[c] = p.class[c+'a'-'A']
	}
	p.nclass = n

	// Trie with -1 for "no edge", then BFS to fill fail links and the DFA.
	type node struct {
		next []int
		out  []int32
	}
	newNode := func() node {
		nx := make([]int, n)
		for i := range nx {
			nx[i] = -1
		}
		return node{next: nx}
	}
	nodes := []node{newNode()}
	for id, kw := range keywords {
		s := 0
		for i := 0; i < len(kw); i++ {
			c := p.class[lower(kw[i])]
			if nodes[s].next[c] < 0 {
				nodes = append(nodes, newNode())
				nodes[s].next[c] = len(nodes) - 1
			}
			s = nodes[s].next[c]
		}
		nodes[s].out = append(nodes[s].out, int32(id))
	}
	fail := make([]int, len(nodes))
	queue := []int{}
	for c := 0; c < n; c++ {
		if t := nodes[0].next[c]; t > 0 {
			queue = append(queue, t)
		} else {
			nodes[0].next[c] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		nodes[s].out = append(nodes[s].out, nodes[fail[s]].out...)
		for c := 0; c < n; c++ {
			t := nodes[s].next[c]
			if t < 0 {
				nodes[s].next[c] = nodes[fail[s]].next[c]
				continue
			}
			fail[t] = nodes[fail[s]].next[c]
			queue = append(queue, t)
		}
	}
	// Class 0 (a byte in no keyword) always leads back to the root.
	p.delta = make([]uint16, len(nodes)*n)
	p.outputs = make([][]int32, len(nodes))
	p.hot = make([]bool, len(nodes))
	for s, nd := range nodes {
		for c := 0; c < n; c++ {
			p.delta[s*n+c] = uint16(nd.next[c])
		}
		p.delta[s*n] = 0
		p.outputs[s] = nd.out
		p.hot[s] = len(nd.out) > 0
	}
	return p
}

// scan appends every keyword occurrence in b to hits.
func (p *prefilter) scan(b []byte, hits []hit) []hit {
	var s uint16
	delta, class, n := p.delta, &p.class, p.nclass
	for i := 0; i < len(b); i++ {
		c := class[b[i]]
		if s == 0 && c == 0 {
			continue
		}
		s = delta[int(s)*n+int(c)]
		if p.hot[s] {
			for _, kw := range p.outputs[s] {
				hits = append(hits, hit{kw: kw, end: int32(i + 1)})
			}
		}
	}
	return hits
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
