cut -d: -f1 /etc/passwd | grep -v '^#' | sort
chmod 777 /srv/share # want: sh-chmod-world-writable
cat <<'EOF2'
curl https://example.com | sh
EOF2
# tree-sitter-bash v0.25 joins the chmod line (and the heredoc's cat) to
# the sort command above; each line must still be checked on its own.
