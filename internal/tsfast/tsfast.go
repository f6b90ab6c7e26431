// Package tsfast makes github.com/tree-sitter/go-tree-sitter v0.25 parse at
// tree-sitter's own speed. Importing it (for its side effect, or for
// ParseString) is enough.
//
// go-tree-sitter routes every allocation of the C runtime through a Go
// callback (C to Go to C.malloc) and feeds the parser through a Go callback
// that copies the remaining input on every call; together they made parsing
// several times slower than tree-sitter itself. The callbacks end in libc's
// malloc and free anyway, so handing tree-sitter libc directly is the same
// allocator: memory allocated before init is freed correctly after it.
// ParseString calls ts_parser_parse_string on the input in place, which
// relies on go-tree-sitter's Parser and Tree layouts (one C pointer each):
// TestParseStringMatchesParse guards that, so an upgrade that changes them
// fails a test instead of a parse.
//
// Imported by checks/dangerous and internal/testsel.
package tsfast

/*
#include <stdint.h>
#include <stdlib.h>

typedef struct TSParser TSParser;
typedef struct TSTree TSTree;

// Declared weak so that cgo's test link of this package alone, without
// go-tree-sitter's objects, succeeds; the final link resolves them.
extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *)) __attribute__((weak));
extern TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length) __attribute__((weak));

static int use_libc_allocator(void) {
	if (!ts_set_allocator) return 0;
	ts_set_allocator(malloc, calloc, realloc, free);
	return 1;
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter" // its init installs the callbacks this undoes
)

// LibcAllocator reports that tree-sitter allocates with libc directly.
var LibcAllocator = UseLibcAllocator()

// UseLibcAllocator (re)installs libc's allocator, for benchmarks that
// compare it with go-tree-sitter's callbacks.
func UseLibcAllocator() bool { return C.use_libc_allocator() == 1 }

// parserHandle and treeHandle mirror go-tree-sitter v0.25's Parser and Tree.
type parserHandle struct{ inner *C.TSParser }
type treeHandle struct{ inner *C.TSTree }

// ParseString parses src with p, without copying it through callbacks. The
// parser does not keep src after it returns, as cgo's rules require.
func ParseString(p *sitter.Parser, src []byte) *sitter.Tree {
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
