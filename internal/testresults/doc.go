// Package testresults runs tests with machine-readable output and reads
// that output as it streams.
//
// BuildCommand turns a testsel.Plan into the command for the project's
// framework (Detect): `go test -json -fullpath`, pytest with the aisbx
// plugin, unittest through the aisbx runner, node --test, jest and vitest
// with aisbx reporters. The plugins and reporters are embedded here and come
// back as Command.Files for the sandbox to write next to the snapshot; they
// print one "@aisbx:" JSON line per test event.
//
// Parser is an io.Writer fed with the run's output in chunks of any size. It
// emits events as tests start and end, with progress counts, and gives a
// Summary with each test's status, duration, output excerpt, message and
// failure location mapped from the container's workdir back to the
// workspace. It survives truncated streams and noise.
//
// Read BuildCommand (command.go), then Parser (parser.go). The caller runs
// the command; this package must never import lsp/ or sandbox/.
package testresults
