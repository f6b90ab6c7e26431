#!/usr/bin/env bash
# Deploy script with planted fake secrets.
set -euo pipefail

# Decoys
export GITHUB_TOKEN="${GITHUB_TOKEN:?}"
TOKEN=$(cat /run/secrets/token)
PASSWORD="$1"
echo "user@host has no password"
ssh deploy@bastion.internal 'systemctl restart app'
git clone https://github.com/example/app.git

# Planted
export GH_TOKEN=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
export DIGITALOCEAN_ACCESS_TOKEN='dop_v1_07ce95b8b45153fbe0a1a2c3f82363c1e855f40febbae79c8b08be9760dab3f7'
DB_PASSWORD="el21H#^E.;@Ru6jP"
curl -H "Authorization: Bearer glpat-TWLUxF9TCEK5WzMC73ra" https://gitlab.example.com/api/v4/projects
psql "postgresql://deploy:TfkANwTpB43A6L9Kew@db.internal:5432/app" -c 'select 1'
curl -X POST -d '{"text":"deployed"}' https://hooks.slack.com/services/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
npm config set //registry.npmjs.org/:_authToken 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
twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmcgryKeRoved9OUOl96uSDyc33Gil1z9YGj2I1O4y5xeRDlIC21IV9SKj7tG6aHh7_Eq6mJCaYHDARIRtN_vQ2UoF5erEwT3osCnHv4bg5rnoPK6MxollQGQhPdhcprUbQ2qcibhR5vP5CzMit-szv6L dist/*
