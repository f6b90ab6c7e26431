#!/usr/bin/env bash
# bench/lsp.sh — the daemon's figures, through the real LSP stack:
#   - didChange to publishDiagnostics on a real 2,000-line Go file;
#   - on-save latency (p50/p95) for 0.3 KB, 10 KB, 131 KB and 1 MB files,
#     with the gitleaks CLI on the same file beside it (what a user would
#     otherwise run on save);
#   - code action "Run this test in sandbox" to the first failing-test
#     diagnostic, warm pool, with host `go test` of the same test beside it;
#   - an agent's write of an unopened file to its diagnostics, and a burst
#     of 1,000 writes over 200 unopened files to the last of their
#     diagnostics (with the daemon's CPU and heap);
#   - the memory of an idle daemon with three editors connected, beside
#     three standalone servers.
# Run it on a quiet machine.
#
#   bench/lsp.sh [N]     N iterations per benchmark (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-30}
export PATH="$(go env GOPATH)/bin:$PATH"
go test -run '^$' -bench 'DidChangeToDiagnostics|OnSave|AgentWriteToDiagnostic' -benchtime "${n}x" ./lsp/
go test -run '^$' -bench 'AgentBurstToDiagnostics' -benchtime 5x ./lsp/
go test -run '^$' -bench 'CodeActionToFailure' -benchtime "$((n / 3 + 1))x" ./lsp/
go test -run '^$' -bench 'IdleMemoryThreeClients' -benchtime 1x ./cmd/aisbxd/
