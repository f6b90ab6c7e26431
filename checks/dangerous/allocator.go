package dangerous

/*
#include <stdlib.h>

// Declared weak so that cgo's own test link of this package, which does not
// include go-tree-sitter's objects, succeeds; the final link resolves it.
extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *)) __attribute__((weak));

static int use_libc_allocator(void) {
	if (!ts_set_allocator) return 0;
	ts_set_allocator(malloc, calloc, realloc, free);
	return 1;
}
*/
import "C"

import (
	_ "github.com/tree-sitter/go-tree-sitter" // its init installs the allocator this undoes
)

// go-tree-sitter v0.25 routes every allocation of the tree-sitter runtime
// through Go callbacks (C -> Go -> C.malloc), which made parsing several
// times slower than the parse itself. The callbacks end in libc's malloc and
// free anyway, so calling them directly is the same allocator: memory
// allocated before this runs is freed correctly after it.
var libcAllocator = useLibcAllocator()

func useLibcAllocator() bool { return C.use_libc_allocator() == 1 }
