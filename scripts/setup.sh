#!/usr/bin/env bash
# Prepares a machine for aisbx's tests, idempotently: the packages the tests
# use, a running Docker engine, and the locally built sandbox base images
# (no registry is needed: see scripts/images/). Safe to run again; it only
# does what is missing. Needs root or sudo for apt and dockerd.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; else
    echo "setup: not root and no sudo; install docker.io neovim busybox-static debootstrap yourself" >&2
  fi
fi

log() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# Debian packages the tests drive for real.
need=()
command -v dockerd >/dev/null || need+=(docker.io)
command -v nvim >/dev/null || need+=(neovim)
[ -x /bin/busybox ] && /bin/busybox --help 2>&1 | grep -q static || dpkg -s busybox-static >/dev/null 2>&1 || need+=(busybox-static)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v git >/dev/null || need+=(git)
command -v shellcheck >/dev/null || need+=(shellcheck)
command -v bandit >/dev/null || need+=(python3-bandit)
# For the editor tests (scripts/editors/): VS Code runs in code-server,
# driven through Debian's Chromium; its native modules need libkrb5-dev.
[ -x /usr/bin/chromium ] || need+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
command -v npm >/dev/null || need+=(nodejs npm)
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${need[@]}"
fi

# A Docker engine: start dockerd in the background when none answers.
if ! docker info >/dev/null 2>&1; then
  log "starting dockerd"
  $SUDO sh -c 'nohup dockerd >/var/log/aisbx-dockerd.log 2>&1 &'
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 0.5
  done
  docker info >/dev/null 2>&1 || { echo "setup: dockerd did not come up; see /var/log/aisbx-dockerd.log" >&2; exit 1; }
fi
log "docker engine $(docker version --format '{{.Server.Version}} (API {{.Server.APIVersion}})')"

# Go-installed tools build from source and take minutes (golangci-lint
# most), so they build in the background while the images are made.
# Installed outside the module: they are not aisbx dependencies.
export PATH="$(go env GOPATH)/bin:$PATH"
tools_log=$(mktemp)
(
  set -e
  cd /tmp
  # The reference for the secrets scanner's side-by-side test.
  command -v gitleaks >/dev/null || GOFLAGS= go install github.com/zricethezav/gitleaks/v8@v8.30.1
  # The linters aisbx runs when installed; their tests run them for real.
  "$OLDPWD/checks/linters/testdata/install-tools.sh"
) >"$tools_log" 2>&1 &
tools_pid=$!
log "building reference tools and linters in the background ($tools_log)"

# The editors the editor tests drive: node 24, the extension's node_modules,
# a current Neovim, code-server (the longest step: an npm build). Every apt
# package they need was installed above, so nothing here takes apt's lock.
editors_log=$(mktemp)
scripts/editors/setup.sh >"$editors_log" 2>&1 &
editors_pid=$!
log "installing the editors in the background ($editors_log)"

# Sandbox base images, built locally (busybox + host Go; debootstrap'd Debian
# with python3/pytest; the same plus node).
log "sandbox base images"
scripts/images/all.sh

if ! wait "$tools_pid"; then
  cat "$tools_log" >&2
  echo "setup: installing the reference tools and linters failed" >&2
  exit 1
fi
if ! wait "$editors_pid"; then
  cat "$editors_log" >&2
  echo "setup: installing the editors failed" >&2
  exit 1
fi
cat "$editors_log"
log "tools: $(gitleaks version 2>/dev/null | head -1) gitleaks, $(staticcheck -version 2>/dev/null), $(golangci-lint --version 2>/dev/null | head -1 | cut -d' ' -f1-4)"
