package dangerous

import (
	"bytes"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Node helpers. A missing child is a zero sitter.Node, and any method that
// reaches C on it crashes the process, so analyzers go through these
// helpers, which treat a zero node as empty, and never call Node methods on
// a node that may be missing.

// src wraps a file's bytes.
type src []byte

func (s src) text(n sitter.Node) string {
	if isNull(n) {
		return ""
	}
	return string(s[n.StartByte():n.EndByte()])
}

func isNull(n sitter.Node) bool { return n.Id() == 0 }

func kind(n sitter.Node) string {
	if isNull(n) {
		return ""
	}
	return n.Kind()
}

func span(n sitter.Node) (int, int) {
	if isNull(n) {
		return 0, 0
	}
	return int(n.StartByte()), int(n.EndByte())
}

func startOf(n sitter.Node) uint {
	if isNull(n) {
		return 0
	}
	return n.StartByte()
}

// field returns n's child for a field, or a zero node.
func field(n sitter.Node, name string) sitter.Node {
	if isNull(n) {
		return sitter.Node{}
	}
	if c := n.ChildByFieldName(name); c != nil {
		return *c
	}
	return sitter.Node{}
}

// namedChildren lists n's named children, skipping comments.
func namedChildren(n sitter.Node) []sitter.Node {
	if isNull(n) {
		return nil
	}
	cnt := n.NamedChildCount()
	out := make([]sitter.Node, 0, cnt)
	for i := uint(0); i < cnt; i++ {
		if c := n.NamedChild(i); c != nil && c.Kind() != "comment" {
			out = append(out, *c)
		}
	}
	return out
}

func parent(n sitter.Node) sitter.Node {
	if isNull(n) {
		return sitter.Node{}
	}
	if p := n.Parent(); p != nil {
		return *p
	}
	return sitter.Node{}
}

// identifiersIn lists the names of the identifier-like nodes under n, not
// looking inside string literals: a word in a string is data, not context.
func identifiersIn(n sitter.Node, s src, kinds map[string]bool, skip map[string]bool) []string {
	if isNull(n) {
		return nil
	}
	var out []string
	c := n.Walk()
	defer c.Close()
	for {
		node := c.Node()
		k := node.Kind()
		if kinds[k] {
			out = append(out, s.text(*node))
		}
		if !skip[k] && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() || c.Node().Id() == n.Id() {
				return out
			}
		}
	}
}

func endOf(n sitter.Node) uint {
	if isNull(n) {
		return 0
	}
	return n.EndByte()
}

func setOf(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// identIndex finds identifiers by name in one tree, remembering each
// answer: rules ask about the same few names many times.
type identIndex struct {
	root *sitter.Node
	s    src
	memo map[string][]sitter.Node
}

func newIdentIndex(root *sitter.Node, s src) *identIndex {
	return &identIndex{root: root, s: s, memo: map[string][]sitter.Node{}}
}

func (x *identIndex) named(name string) []sitter.Node {
	ns, ok := x.memo[name]
	if !ok {
		ns = identifiersNamed(x.root, x.s, name)
		x.memo[name] = ns
	}
	return ns
}

// identifiersNamed finds the identifier nodes spelled word: the text is
// searched, and each hit confirmed in the tree, so that the word in a
// comment or a string does not count.
func identifiersNamed(root *sitter.Node, s src, word string) []sitter.Node {
	var out []sitter.Node
	for off := 0; ; {
		i := bytes.Index(s[off:], []byte(word))
		if i < 0 {
			return out
		}
		start, end := off+i, off+i+len(word)
		off = end
		if start > 0 && isIdentByte(s[start-1]) || end < len(s) && isIdentByte(s[end]) {
			continue
		}
		n := root.NamedDescendantForByteRange(uint(start), uint(end))
		if n != nil && n.Kind() == "identifier" && int(n.StartByte()) == start && int(n.EndByte()) == end {
			out = append(out, *n)
		}
	}
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// same reports whether two nodes are the same node.
func same(a, b sitter.Node) bool { return !isNull(a) && a.Id() == b.Id() }
