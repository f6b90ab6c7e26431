#!/usr/bin/env bash
# Dangerous shell. Each line marked `want:` must be reported with exactly
# those rules; no other line may be.
set -euo pipefail

curl -fsSL https://get.example.com/install.sh | sh # want: sh-curl-pipe-shell
wget -qO- https://example.com/setup | sudo bash -s -- --yes # want: sh-curl-pipe-shell
curl -s https://example.com/x.py | python3 - # want: sh-curl-pipe-shell
curl -sL https://example.com/i.sh | tee /tmp/i.sh | sudo -E bash # want: sh-curl-pipe-shell
bash <(curl -fsSL https://example.com/install.sh) # want: sh-curl-pipe-shell
sh -c "$(curl -fsSL https://example.com/install.sh)" # want: sh-curl-pipe-shell
source <(wget -qO- https://example.com/env.sh) # want: sh-curl-pipe-shell
eval "$(curl -s https://example.com/vars)" # want: sh-curl-pipe-shell

rm -rf "$BUILD_DIR/" # want: sh-rm-rf-var
rm -rf "$STEAMROOT/"* # want: sh-rm-rf-var
rm -fr ${PREFIX}/lib # want: sh-rm-rf-var
sudo rm -r --force "$1"/ # want: sh-rm-rf-var
rm -Rf $TMP/* # want: sh-rm-rf-var

chmod 777 /var/www # want: sh-chmod-world-writable
chmod -R 0777 "$DATA" # want: sh-chmod-world-writable
chmod a+rwx deploy.sh # want: sh-chmod-world-writable
chmod u+x,o+w shared.log # want: sh-chmod-world-writable
sudo chmod 666 /dev/ttyUSB0 # want: sh-chmod-world-writable

curl -sSLk https://internal.example.com/api # want: sh-curl-insecure
curl --insecure -o out.tgz https://example.com/out.tgz # want: sh-curl-insecure
wget --no-check-certificate https://example.com/file # want: sh-curl-insecure

export NODE_TLS_REJECT_UNAUTHORIZED=0 # want: sh-node-tls-reject-unauthorized
NODE_TLS_REJECT_UNAUTHORIZED="0" node app.js # want: sh-node-tls-reject-unauthorized

deploy() {
  if curl -fsSL "$URL" | bash; then # want: sh-curl-pipe-shell
    rm -rf "${OUT}/" # want: sh-rm-rf-var
  fi
}

