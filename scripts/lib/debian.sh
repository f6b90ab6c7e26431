# Shell helpers shared by the scripts that fetch from Debian's archive
# (scripts/images/lib.sh for debootstrap, scripts/editors/nvim-current.sh for
# a newer Neovim). Source it; it defines functions and sets nothing.

# debian_mirror prints the first Debian archive URL of the system's apt
# sources (one-line or deb822 format), so that what we fetch comes from the
# mirror this machine is configured for; deb.debian.org when there is none.
# Safe under set -euo pipefail: missing source files are not an error.
debian_mirror() {
	local url
	url=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }' | head -n1) || true
	if [ -z "$url" ]; then
		url=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
			awk 'tolower($1) == "uris:" && $2 ~ /debian\/?$/ && $2 !~ /security/ { print $2; exit }') || true
	fi
	echo "${url:-http://deb.debian.org/debian}"
}
