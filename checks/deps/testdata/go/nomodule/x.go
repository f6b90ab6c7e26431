package x

import "github.com/whatever/pkg"
