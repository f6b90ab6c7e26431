// Package runner runs a workspace's tests in the sandbox from end to end:
// it asks internal/testsel which tests a request covers, builds their
// machine-readable commands with internal/testresults, runs them as sandbox
// jobs (one per language profile), parses the results as they stream,
// and writes the run record (internal/records).
//
// It is the one place that knows the order of those steps, so every face
// shares it: the LSP code actions and lenses, `aisbxd run`, the daemon's
// aisbx/run control request, and agent-triggered runs. It knows nothing of
// LSP. Start with Runner.Run.
package runner
