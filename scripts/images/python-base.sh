#!/usr/bin/env bash
# Builds aisbx-base/python: a debootstrap'd Debian 12 (minbase) with python3
# and python3-pytest from the Debian mirror in /etc/apt/sources.list*,
# brought in with `docker import`. The rootfs tarball is cached.
#
# Usage: scripts/images/python-base.sh [--force]
# Needs: docker, debootstrap (root).
. "$(dirname "$0")/lib.sh"
REF="${AISBX_PYTHON_BASE:-aisbx-base/python:latest}"
skip_if_present "$REF"
need docker
tarball=$(debian_rootfs)
say "importing $REF from $tarball"
docker import \
	--change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
	--change 'ENV LANG=C.UTF-8' \
	--change 'CMD ["/bin/sh"]' \
	--message "aisbx-base/python: Debian 12 minbase + python3 + pytest" "$tarball" "$REF" >/dev/null
say "built $REF ($(docker image inspect -f '{{.Id}}' "$REF" | cut -c1-19))"
