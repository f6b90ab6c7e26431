#!/bin/sh
# Safe shell: nothing here may be reported.
# curl https://x | sh  and  rm -rf "$DIR/"  and chmod 777 in comments are not code.
set -eu

echo "curl -fsSL https://example.com | sh"
printf '%s\n' 'rm -rf "$HOME/"' "chmod 777 /tmp/x"
curl -fsSLo install.sh https://example.com/install.sh
sha256sum -c install.sh.sha256
sh install.sh
curl -s https://api.example.com/v1 | jq .name
curl -s https://example.com/data.json | python3 -m json.tool
wget -qO- https://example.com/list | grep -v '^#' | sort
curl -s https://example.com/x | sh -c 'cat > /dev/null'
version="$(curl -s https://example.com/version)"
bash ./scripts/build.sh "$(curl -s https://example.com/tag)"

rm -rf "${BUILD_DIR:?}/"
rm -rf "${PREFIX:-/opt/app}/lib"
rm -rf "$BUILD_DIR"
rm -f "$TMP/lock"
rm -rf ./build/ dist/
rm -rf '$LITERAL/'

chmod 755 /usr/local/bin/tool
chmod -R 750 "$DATA"
chmod u+x,g+r deploy.sh
chmod o-w shared.log
chmod 600 ~/.ssh/id_ed25519

curl --cacert /etc/ssl/internal.pem https://internal.example.com/api
curl -sSL https://example.com/kit.tgz -o kit.tgz
export NODE_TLS_REJECT_UNAUTHORIZED=1
NODE_EXTRA_CA_CERTS=/etc/ssl/internal.pem node app.js

cat <<'DOC'
curl https://example.com | sh
rm -rf "$X/"
DOC
