// Package sandbox runs untrusted code, typically AI-written tests, in
// hardened single-use containers on a Docker engine, and keeps a warm pool
// of them so that a run starts in tens of milliseconds.
//
// Every container has no network, a read-only root, size-limited exec
// tmpfs mounts for /tmp and the work dir, no capabilities, no-new-privileges,
// seccomp, pids/memory/CPU limits, a non-root user and an init process. It
// runs one job and is destroyed. The code reaches it as a tar stream of a
// workspace snapshot over exec stdin; the host workspace is never written.
//
// Read New first, then (*Sandbox).Run, which does a job from end to end:
// snapshot, take a warm container, exec, watch the limits, classify the
// outcome into a Status. Build and List manage the per-profile images.
//
// This package must never import lsp/, go.lsp.dev or cmd/: it is a leaf
// that the daemon, the LSP face and the CLI all sit on.
package sandbox
