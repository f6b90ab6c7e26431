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
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${need[@]}"
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

# Reference tools the comparison tests and benchmarks run side by side.
# Installed outside the module: they are not aisbx dependencies.
export PATH="$(go env GOPATH)/bin:$PATH"
if ! command -v gitleaks >/dev/null; then
  log "installing gitleaks v8.30.1 (reference for the secrets scanner)"
  (cd /tmp && GOFLAGS= GOBIN="$(go env GOPATH)/bin" go install github.com/zricethezav/gitleaks/v8@v8.30.1)
fi

# Sandbox base images, built locally (busybox + host Go; debootstrap'd Debian
# with python3/pytest; the same plus node).
if [ -x scripts/images/all.sh ]; then
  log "sandbox base images"
  scripts/images/all.sh
fi
