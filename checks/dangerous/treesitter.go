package dangerous

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
	"unsafe"

	_ "github.com/aisbx/aisbx/internal/tsfast" // tree-sitter at its own speed (libc allocator)

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// grammar is one tree-sitter language with its compiled query and a pool of
// parsers. Parsers are not goroutine-safe, so each parse borrows one; the
// query is immutable once compiled and shared by all runs.
type grammar struct {
	name    string
	lang    *sitter.Language
	source  string // the query text
	once    sync.Once
	query   *sitter.Query
	names   []string // capture names, indexed by capture index
	err     error
	parsers chan *sitter.Parser
}

func newGrammar(name string, lang unsafe.Pointer, query string) *grammar {
	return &grammar{
		name:    name,
		lang:    sitter.NewLanguage(lang),
		source:  query,
		parsers: make(chan *sitter.Parser, runtime.GOMAXPROCS(0)),
	}
}

// compiled compiles the query on first use. It lives as long as the process.
func (g *grammar) compiled() (*sitter.Query, error) {
	g.once.Do(func() {
		q, qerr := sitter.NewQuery(g.lang, g.source)
		if qerr != nil {
			g.err = fmt.Errorf("compile %s query: %w", g.name, qerr)
			return
		}
		g.query, g.names = q, q.CaptureNames()
	})
	return g.query, g.err
}

// borrow takes a parser from the pool, or makes one. A bounded channel
// rather than a sync.Pool: the pool may drop parsers at any GC, and a
// dropped parser leaks its C memory.
func (g *grammar) borrow() (*sitter.Parser, error) {
	select {
	case p := <-g.parsers:
		return p, nil
	default:
	}
	p := sitter.NewParser()
	if err := p.SetLanguage(g.lang); err != nil {
		p.Close()
		return nil, fmt.Errorf("load %s grammar: %w", g.name, err)
	}
	return p, nil
}

func (g *grammar) giveBack(p *sitter.Parser) {
	select {
	case g.parsers <- p:
	default:
		p.Close()
	}
}

// parse parses src, reusing the cached tree of the same file when there is
// one, and caches the result. The caller closes the returned tree.
//
// Cancellation goes through the parser's timeout, set from ctx's deadline:
// go-tree-sitter v0.25's option callbacks (ParseWithOptions,
// MatchesWithOptions) register their payload with go-pointer and never
// release it, which would leak on every keystroke in a long-lived daemon.
func (g *grammar) parse(ctx context.Context, src []byte, cache *treeCache, path string) (*sitter.Tree, error) {
	p, err := g.borrow()
	if err != nil {
		return nil, err
	}
	key := ""
	if path != "" {
		key = g.name + "\x00" + path
	}
	var old *sitter.Tree
	if prev := cache.take(key); prev != nil {
		edit := diffEdit(prev.src, src)
		prev.tree.Edit(&edit)
		old = prev.tree
		defer old.Close()
	}
	p.SetTimeoutMicros(timeoutMicros(ctx))
	tree := p.Parse(src, old)
	if tree == nil {
		// A parse that stopped early resumes on the next call unless reset.
		p.Reset()
		g.giveBack(p)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, errors.New("parse timed out")
	}
	g.giveBack(p)
	cache.put(key, tree, src)
	return tree, nil
}

// capture is one node of a query match, with its capture name.
type capture struct {
	name string
	node sitter.Node
}

// matcher runs a grammar's query over parts of one tree, each match once.
type matcher struct {
	g    *grammar
	tree *sitter.Tree
	src  []byte
	seen map[[2]uintptr]bool // pattern index and first node of matches already handed out
	caps []capture
}

func (g *grammar) matcher(tree *sitter.Tree, src []byte) *matcher {
	return &matcher{g: g, tree: tree, src: src, seen: map[[2]uintptr]bool{}}
}

// run calls fn with the captures of every match over the windows (the
// whole file when all is true), in document order. The slice is reused:
// fn copies what it keeps.
func (m *matcher) run(ctx context.Context, ws []window, all bool, fn func(caps []capture)) error {
	q, err := m.g.compiled()
	if err != nil {
		return err
	}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	qc.SetTimeoutMicros(timeoutMicros(ctx))
	if all {
		ws = []window{{0, len(m.src)}}
	}
	for _, w := range ws {
		if err := ctx.Err(); err != nil {
			return err
		}
		qc.SetByteRange(uint(w.start), uint(w.end))
		ms := qc.Matches(q, m.tree.RootNode(), m.src)
		for match := ms.Next(); match != nil; match = ms.Next() {
			if len(match.Captures) == 0 {
				continue
			}
			key := [2]uintptr{uintptr(match.PatternIndex), match.Captures[0].Node.Id()}
			if m.seen[key] {
				continue // a node spanning two windows
			}
			m.seen[key] = true
			m.caps = m.caps[:0]
			for _, c := range match.Captures {
				m.caps = append(m.caps, capture{m.g.names[c.Index], c.Node})
			}
			fn(m.caps)
		}
	}
	// The cursor's timeout ends a query without a word; past the deadline the
	// matches may be partial, and partial findings must not pass for a result.
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return ctx.Err()
}

// runImportsFirst runs the query over the lines holding importWords,
// then over the lines holding words or a name the imports bound: fn fills
// aliases (local name -> what it imports) during the first pass, and an
// alias can rename anything (from os import system as run).
func (m *matcher) runImportsFirst(ctx context.Context, importWords, words map[string]bool, aliases map[string]string, fn func([]capture)) error {
	imports, ok := lineWindows(m.src, importWords)
	if err := m.run(ctx, imports, !ok, fn); err != nil || !ok {
		return err // on !ok the whole file was queried
	}
	if len(aliases) > 0 {
		all := make(map[string]bool, len(words)+len(aliases))
		for w := range words {
			all[w] = true
		}
		for local := range aliases {
			all[local] = true
		}
		words = all
	}
	ws, ok := lineWindows(m.src, words)
	return m.run(ctx, without(ws, imports), !ok, fn)
}

// timeoutMicros turns ctx's deadline into tree-sitter's timeout; 0 is none.
func timeoutMicros(ctx context.Context) uint64 {
	d, ok := ctx.Deadline()
	if !ok {
		return 0
	}
	left := time.Until(d)
	if left < time.Microsecond {
		return 1
	}
	return uint64(left / time.Microsecond)
}
