package grouped

import (
	"fmt"
	sys "os"
)

var stripeSecretKey = "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"

func show() { fmt.Println(stripeSecretKey, sys.Args) }
