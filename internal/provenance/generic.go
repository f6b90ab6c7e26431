package provenance

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// maxPromptFile bounds how much of a --prompt-file is read.
const maxPromptFile = 64 << 10

// GenericInput is what `aisbxd hook edit --tool NAME --file F [--session ID]
// [--model M] [--prompt-file P]` says about an edit some agent made.
type GenericInput struct {
	Tool       string
	File       string
	Session    string
	Model      string
	PromptFile string
	// Cwd is where relative File and PromptFile paths start; "" means the
	// process's working directory.
	Cwd string
	// Before is the file's content before the edit, when the caller knows
	// it (the daemon keeps the last content it checked); the Edit then
	// covers only the lines that changed. Without it the whole file counts.
	Before     []byte
	HaveBefore bool
}

// GenericEdit turns a generic hook input into an Edit, and returns the
// file's content its ranges refer to.
func GenericEdit(in GenericInput, opts HookOptions) (Edit, []byte, error) {
	opts = opts.withDefaults()
	tool, err := ParseTool(in.Tool)
	if err != nil {
		return Edit{}, nil, fmt.Errorf("--tool: %w", err)
	}
	if in.File == "" {
		return Edit{}, nil, errors.New("--file is required: the file the agent edited")
	}
	file, err := absFrom(in.Cwd, in.File)
	if err != nil {
		return Edit{}, nil, fmt.Errorf("--file: %w", err)
	}
	content, err := os.ReadFile(file)
	if err != nil {
		return Edit{}, nil, fmt.Errorf("--file: %w", err)
	}
	e := Edit{
		Tool:       tool,
		Model:      in.Model,
		Session:    in.Session,
		File:       file,
		Time:       opts.Now(),
		Source:     SourceHook,
		Confidence: ConfidenceHook,
	}
	if in.HaveBefore {
		e.Ranges = RangesFromDiff(in.Before, content)
	} else {
		e.Ranges = wholeFile(content)
	}
	if in.PromptFile != "" {
		p, err := absFrom(in.Cwd, in.PromptFile)
		if err != nil {
			return Edit{}, nil, fmt.Errorf("--prompt-file: %w", err)
		}
		f, err := os.Open(p)
		if err != nil {
			return Edit{}, nil, fmt.Errorf("--prompt-file: %w", err)
		}
		prompt, err := io.ReadAll(io.LimitReader(f, maxPromptFile))
		f.Close()
		if err != nil {
			return Edit{}, nil, fmt.Errorf("--prompt-file: %w", err)
		}
		e.Prompt = opts.keepPrompt(prompt)
	}
	return e, content, nil
}

func absFrom(cwd, p string) (string, error) {
	if !filepath.IsAbs(p) && cwd != "" {
		p = filepath.Join(cwd, p)
	}
	return filepath.Abs(p)
}
