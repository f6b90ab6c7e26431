package testsel

/*
#include <stdint.h>
#include <stdlib.h>

// Defined by the tree-sitter runtime that go-tree-sitter compiles in.
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
                      void *(*new_realloc)(void *, size_t), void (*new_free)(void *));
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);

static void aisbx_ts_use_libc_allocator(void) { ts_set_allocator(malloc, calloc, realloc, free); }
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// go-tree-sitter v0.25 routes every allocation of the C runtime through a
// Go callback (C to Go to C), and feeds the parser through a Go callback that
// copies the remaining text on each call. Together they made parsing several
// times slower than tree-sitter itself. Its allocation callbacks end in
// libc's malloc anyway, so memory from either path is interchangeable: this
// hands tree-sitter libc directly (process-wide; go-tree-sitter's own init,
// which installs the callbacks, runs before this one).
func init() { C.aisbx_ts_use_libc_allocator() }

// parserHandle and treeHandle mirror go-tree-sitter v0.25's Parser and Tree
// (one C pointer each), so that parseString can call ts_parser_parse_string
// on the text in place. TestParseStringMatchesParse guards the layout.
type parserHandle struct{ inner *C.TSParser }
type treeHandle struct{ inner *C.TSTree }

// parseString parses src with p without copying it through callbacks.
func parseString(p *sitter.Parser, src []byte) *sitter.Tree {
	cp := (*parserHandle)(unsafe.Pointer(p)).inner
	var text *C.char
	if len(src) > 0 {
		text = (*C.char)(unsafe.Pointer(&src[0]))
	}
	ct := C.ts_parser_parse_string(cp, nil, text, C.uint32_t(len(src)))
	if ct == nil {
		return nil
	}
	return (*sitter.Tree)(unsafe.Pointer(&treeHandle{inner: ct}))
}
