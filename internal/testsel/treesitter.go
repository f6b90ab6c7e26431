package testsel

import (
	"fmt"
	"sync"

	"github.com/aisbx/aisbx/internal/tsfast"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// grammar names the tree-sitter grammar a file is parsed with.
type grammar int

const (
	grammarPython grammar = iota
	grammarJS
	grammarTS
	grammarTSX
	grammarCount
)

var (
	languagesOnce sync.Once
	languages     [grammarCount]*sitter.Language
	// Parsers are not safe for concurrent use and cost a C allocation each,
	// so they are pooled per grammar.
	parserPools [grammarCount]sync.Pool
)

func language(g grammar) *sitter.Language {
	languagesOnce.Do(func() {
		languages[grammarPython] = sitter.NewLanguage(tspy.Language())
		languages[grammarJS] = sitter.NewLanguage(tsjs.Language())
		languages[grammarTS] = sitter.NewLanguage(tsts.LanguageTypescript())
		languages[grammarTSX] = sitter.NewLanguage(tsts.LanguageTSX())
	})
	return languages[g]
}

// withTree parses src with grammar g and calls fn with the root node. The
// tree is freed when fn returns, so fn must not keep nodes.
func withTree(g grammar, src []byte, fn func(root *sitter.Node)) error {
	p, _ := parserPools[g].Get().(*sitter.Parser)
	if p == nil {
		p = sitter.NewParser()
		if err := p.SetLanguage(language(g)); err != nil {
			p.Close()
			return fmt.Errorf("tree-sitter grammar %d: %w", g, err)
		}
	}
	tree := tsfast.ParseString(p, src)
	parserPools[g].Put(p)
	if tree == nil {
		return fmt.Errorf("tree-sitter could not parse %d bytes", len(src))
	}
	defer tree.Close()
	fn(tree.RootNode())
	return nil
}

// text returns the source text of n.
func text(n *sitter.Node, src []byte) string {
	if n == nil {
		return ""
	}
	s, e := n.StartByte(), n.EndByte()
	if e > uint(len(src)) || s > e {
		return ""
	}
	return string(src[s:e])
}

// namedChildren returns n's named children.
func namedChildren(n *sitter.Node) []*sitter.Node {
	count := n.NamedChildCount()
	out := make([]*sitter.Node, 0, count)
	for i := uint(0); i < count; i++ {
		if c := n.NamedChild(i); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// compiledQuery is a tree-sitter query compiled once for one grammar.
type compiledQuery struct {
	g      grammar
	source string
	once   sync.Once
	q      *sitter.Query
	err    error
}

func (cq *compiledQuery) get() (*sitter.Query, error) {
	cq.once.Do(func() {
		q, qerr := sitter.NewQuery(language(cq.g), cq.source)
		if qerr != nil {
			cq.err = fmt.Errorf("compiling query: %s", qerr.Error())
			return
		}
		cq.q = q
	})
	return cq.q, cq.err
}

// eachMatch runs the query over root and calls fn with each match's pattern
// index and captures by name.
func (cq *compiledQuery) eachMatch(root *sitter.Node, src []byte, fn func(pattern uint, caps map[string]*sitter.Node)) error {
	q, err := cq.get()
	if err != nil {
		return err
	}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	names := q.CaptureNames()
	matches := qc.Matches(q, root, src)
	for m := matches.Next(); m != nil; m = matches.Next() {
		caps := make(map[string]*sitter.Node, len(m.Captures))
		for i := range m.Captures {
			n := m.Captures[i].Node
			caps[names[m.Captures[i].Index]] = &n
		}
		fn(m.PatternIndex, caps)
	}
	return nil
}
