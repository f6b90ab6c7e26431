#!/bin/sh
export HF_TOKEN=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
ADMIN_PASSWORD="cX6Mv#**ry@mMK2n"
