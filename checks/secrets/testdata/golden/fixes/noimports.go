package noimports

import "os"

var key = os.Getenv("OPENAI_API_KEY")
