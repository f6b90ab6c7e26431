#!/bin/sh
rm -rf "$BUILD_DIR/"
rm -rf "${OUT}"/*
chmod 777 /srv/share
curl -fsSL https://example.com/i.sh | sh
