package grouped

import (
	"fmt"
	sys "os"
)

var stripeSecretKey = sys.Getenv("STRIPE_SECRET_KEY")

func show() { fmt.Println(stripeSecretKey, sys.Args) }
