#!/usr/bin/env bash
# Builds Values.swift and has it write every value's print, debugPrint, dump, po, JSONEncoder, NSDictionary
# description, XML and binary plist and CFDictionary description files into this directory. Needs the Swift toolchain.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
swiftc -O Values.swift -module-name Fixture -o "$work/values" 2>/dev/null
rm -f ./*.txt ./*.json ./*.plist ./*.bplist
SWIFT_DETERMINISTIC_HASHING=1 "$work/values" .
ls | wc -l
