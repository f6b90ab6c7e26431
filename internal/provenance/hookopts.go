package provenance

import (
	"time"
	"unicode/utf8"
)

// HookOptions tune how hook inputs become Edits.
type HookOptions struct {
	// Redactor removes secrets from a prompt before it is kept (the secrets
	// check provides one). Without it prompts are dropped.
	Redactor func([]byte) []byte
	// MaxPromptBytes truncates kept prompts. Default 2000.
	MaxPromptBytes int
	// TranscriptTailBytes bounds how much of a transcript's end is read to
	// find the model and the prompt. Default 256 KiB.
	TranscriptTailBytes int64
	// Now stamps the edit; default time.Now.
	Now func() time.Time
}

func (o HookOptions) withDefaults() HookOptions {
	if o.MaxPromptBytes <= 0 {
		o.MaxPromptBytes = 2000
	}
	if o.TranscriptTailBytes <= 0 {
		o.TranscriptTailBytes = 256 << 10
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// keepPrompt redacts and truncates a prompt; "" without a redactor.
func (o HookOptions) keepPrompt(p []byte) string {
	if o.Redactor == nil || len(p) == 0 {
		return ""
	}
	p = o.Redactor(append([]byte(nil), p...))
	if len(p) <= o.MaxPromptBytes {
		return string(p)
	}
	cut := o.MaxPromptBytes
	for cut > 0 && !utf8.RuneStart(p[cut]) {
		cut--
	}
	return string(p[:cut]) + "…"
}
