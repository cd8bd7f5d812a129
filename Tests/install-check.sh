#!/usr/bin/env bash
# make install into a temporary PREFIX, then what was installed is used: the binary answers, `man -l` reads a page
# of each command, and each shell's completion file is there. Part of `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(mktemp -d) && trap 'rm -rf "$prefix"' EXIT
make --no-print-directory -s install PREFIX="$prefix" >/dev/null
"$prefix/bin/postmortem" --version >/dev/null
# Stripped, and without all of Foundation (whose ICU data would triple it) or an HTTP stack of its own: under 30 MB.
size=$(stat -c %s "$prefix/bin/postmortem")
[ "$size" -lt 30000000 ] || { echo "the installed postmortem is $size bytes, over 30 MB" >&2; exit 1; }
# `serve` hands over to the server installed beside it: it starts on a free port and answers /health.
[ -x "$prefix/bin/postmortem-server" ] || { echo "postmortem-server is not installed" >&2; exit 1; }
serve_log=$(mktemp)
"$prefix/bin/postmortem" serve --port 0 --no-cache >"$serve_log" 2>/dev/null &
serve_pid=$!
for _ in $(seq 100); do grep -q listening "$serve_log" && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*' "$serve_log") && curl -sf "$url/health" >/dev/null || { echo "postmortem serve did not answer /health" >&2; exit 1; }
kill -TERM "$serve_pid" && wait "$serve_pid" && rm -f "$serve_log"
for page in postmortem postmortem.symbolicate postmortem.resolve postmortem.po postmortem.cache.build postmortem.serve; do
  MANWIDTH=100 man -l "$prefix/share/man/man1/$page.1" 2>/dev/null | grep -q "^NAME" || { echo "man -l $page.1 shows no page" >&2; exit 1; }
done
man -l "$prefix/share/man/man1/postmortem.resolve.1" 2>/dev/null | grep -q -- "--source-context" || { echo "resolve's page lacks --source-context" >&2; exit 1; }
man -l "$prefix/share/man/man1/postmortem.symbolicate.1" 2>/dev/null | grep -q -- "--offline" || { echo "symbolicate's page lacks --offline" >&2; exit 1; }
for section in ENVIRONMENT "EXIT STATUS"; do
  man -l "$prefix/share/man/man1/postmortem.1" 2>/dev/null | grep -q "^$section" || { echo "postmortem's page lacks $section" >&2; exit 1; }
done
man -l "$prefix/share/man/man1/postmortem.1" 2>/dev/null | grep -q "POSTMORTEM_CACHE_DIR" || { echo "postmortem's page names no variable" >&2; exit 1; }
for file in share/bash-completion/completions/postmortem share/zsh/site-functions/_postmortem share/fish/vendor_completions.d/postmortem.fish; do
  [ -s "$prefix/$file" ] || { echo "$file is missing" >&2; exit 1; }
done
echo "make install: binary ($((size / 1000000)) MB) and server, $(ls "$prefix/share/man/man1" | wc -l) man pages and 3 completion files installed and read"
