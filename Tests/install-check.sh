#!/usr/bin/env bash
# make install into a temporary PREFIX, then what was installed is used: the binary answers, `man -l` reads a page
# of each command, and each shell's completion file is there. Part of `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(mktemp -d) && trap 'rm -rf "$prefix"' EXIT
make --no-print-directory -s install PREFIX="$prefix" >/dev/null
"$prefix/bin/postmortem" --version >/dev/null
for page in postmortem postmortem.symbolicate postmortem.resolve postmortem.po postmortem.cache.build; do
  MANWIDTH=100 man -l "$prefix/share/man/man1/$page.1" 2>/dev/null | grep -q "^NAME" || { echo "man -l $page.1 shows no page" >&2; exit 1; }
done
man -l "$prefix/share/man/man1/postmortem.resolve.1" 2>/dev/null | grep -q -- "--source-context" || { echo "resolve's page lacks --source-context" >&2; exit 1; }
man -l "$prefix/share/man/man1/postmortem.symbolicate.1" 2>/dev/null | grep -q -- "--offline" || { echo "symbolicate's page lacks --offline" >&2; exit 1; }
for file in share/bash-completion/completions/postmortem share/zsh/site-functions/_postmortem share/fish/vendor_completions.d/postmortem.fish; do
  [ -s "$prefix/$file" ] || { echo "$file is missing" >&2; exit 1; }
done
echo "make install: binary, $(ls "$prefix/share/man/man1" | wc -l) man pages and 3 completion files installed and read"
