#!/usr/bin/env bash
# Runs Values.swift and writes each value's print, debugPrint, dump, JSONEncoder output and Foundation's
# NSDictionary/NSArray description to its own file (NAME.print.txt, NAME.debugPrint.txt, NAME.dump.txt,
# NAME.json, NAME.nsdescription.txt). Needs the Swift toolchain.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
swiftc -O Values.swift -module-name Fixture -o "$work/values" 2>/dev/null
"$work/values" > "$work/all.txt"
rm -f *.print.txt *.debugPrint.txt *.dump.txt *.json *.nsdescription.txt
awk '/^=== / { name = $2; kind = $3; file = name "." (kind == "json" ? "json" : kind ".txt"); printf "" > file; next } { print >> file }' "$work/all.txt"
ls
