#!/usr/bin/env bash
# Builds the AddressSanitizer sample and keeps the report of one real run, unsymbolized (symbolize=0),
# in asan.txt. It runs from a copy under /tmp so the report names no path of this checkout; the binary
# is then found beside the log by its name and checked by its build-id. Needs gcc with libasan.
set -euo pipefail
cd "$(dirname "$0")"
gcc -O1 -g -fsanitize=address -fno-omit-frame-pointer -fdebug-prefix-map="$PWD=." -o readings readings.c
run=$(mktemp -d /tmp/postmortem-sample.XXXXXX) && trap 'rm -rf "$run"' EXIT
cp readings "$run/readings"
(cd "$run" && ASAN_OPTIONS=symbolize=0 ./readings > /dev/null 2> asan.txt || true)
sed "s|$run/|/tmp/postmortem-sample/|g" "$run/asan.txt" > asan.txt
cat asan.txt
