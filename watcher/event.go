package watcher

import (
	"fmt"
	"time"
)

// Kind says what happened to a path, as seen once its changes settled.
type Kind uint8

const (
	// Created: the path did not exist when the watcher last looked, and now
	// holds a file.
	Created Kind = iota + 1
	// Written: the file existed and its content or metadata changed. An
	// atomic save (a temporary file renamed over the target) is a Written
	// event for the target.
	Written
	// Removed: the file is gone.
	Removed
	// Renamed: the file was moved away from this path (it is gone from here).
	// Its new name, when inside the workspace, arrives as Created or Written.
	Renamed
)

func (k Kind) String() string {
	switch k {
	case Created:
		return "created"
	case Written:
		return "written"
	case Removed:
		return "removed"
	case Renamed:
		return "renamed"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Event is one settled change to one file. Directories never appear: a new
// directory shows up as Created events for the files inside it, a removed
// one as Removed events for the files it held.
type Event struct {
	Path string // absolute, cleaned
	Kind Kind
	// Time is when the last raw notification for the path arrived (or when
	// a rescan found the change).
	Time time.Time
}

func (e Event) String() string { return e.Kind.String() + " " + e.Path }
