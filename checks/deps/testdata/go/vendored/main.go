package main

import (
	"os"

	"github.com/google/uuid" // want go-unresolved-import "github.com/google/uuid"
	"github.com/pkg/errors"
)

func main() { _, _, _ = os.Args, errors.New, uuid.New }
