#!/usr/bin/env bash
# Builds every aisbx air-gapped base image: aisbx-base/go, aisbx-base/python
# and aisbx-base/node. Arguments (--force) are passed on.
#
# Usage: scripts/images/all.sh [--force]
set -euo pipefail
dir=$(dirname "$0")
"$dir/go-base.sh" "$@"
"$dir/python-base.sh" "$@"
"$dir/node-base.sh" "$@"
