// Package provenance records which changes an AI made to a workspace, and
// how aisbx knows: an agent's hook said so (ground truth), a committed record
// said so (git-ai notes, Agent Trace), or a heuristic guessed so.
//
// Read Edit first: every source produces Edits. Then ParseClaudeHook and
// GenericEdit (agents' hooks), ReadGitAINote and ReadAgentTraces (committed
// attribution), ExternalWrite and LargeInsert (heuristics), Store (where
// Edits live, per workspace, and how their line ranges follow later edits)
// and Decide (whether an agent's hook must block the edit).
//
// Line ranges are 0-based and end-exclusive throughout, like LSP lines:
// Range{Start: 3, End: 5} is the 4th and 5th lines. Formats that count from
// 1 are converted on the way in.
//
// The package reads files, git and transcripts but never talks to editors or
// to the daemon: it must never import lsp/, go.lsp.dev, watcher/ or the CLI.
// Prompts are stored only through a redactor, so a pasted key never reaches
// disk; without one they are dropped.
package provenance
