package a

import (
	"example.com/b/missing" // want go-unresolved-import "example.com/b/missing"
	"example.com/b/util"
	"example.com/c" // want go-unresolved-import "example.com/c"
)

var _ = util.X
