#!/usr/bin/env bash
# Builds the Swift backtracer sample and keeps the reports of real crashes, unsymbolicated
# (SWIFT_BACKTRACE=symbolicate=off): crash.txt in the text format, crash.json in the JSON format (format=json),
# and fatal.txt, the same crash with the backtracer off (the runtime's `Current stack trace:`). It runs from a copy under /tmp, renamed in the report to
# /tmp/postmortem-sample, so the report names no path of this checkout; the binary is found beside the log.
set -euo pipefail
cd "$(dirname "$0")"
swiftc -Onone -g -debug-prefix-map "$PWD=." -file-compilation-dir . -Xfrontend -no-serialize-debugging-options \
  -module-name inventory Inventory.swift -o inventory
rm -rf inventory.swiftmodule inventory.swiftdoc inventory.swiftsourceinfo
run=$(mktemp -d /tmp/postmortem-sample.XXXXXX) && trap 'rm -rf "$run"' EXIT
cp inventory "$run/inventory"
(cd "$run" && SWIFT_BACKTRACE=enable=yes,symbolicate=off,interactive=no,color=no ./inventory > /dev/null 2> crash.txt || true)
(cd "$run" && SWIFT_BACKTRACE=enable=yes,symbolicate=off,interactive=no,color=no,format=json ./inventory > /dev/null 2> crash.json || true)
# With the backtracer off, the runtime prints its older `Current stack trace:` (swift-fatal) instead.
(cd "$run" && SWIFT_BACKTRACE=enable=no ./inventory > /dev/null 2> fatal.txt || true)
sed "s|$run/|/tmp/postmortem-sample/|g" "$run/crash.txt" > crash.txt
sed "s|$run/|/tmp/postmortem-sample/|g" "$run/crash.json" > crash.json
sed "s|$run/|/tmp/postmortem-sample/|g" "$run/fatal.txt" > fatal.txt
cat crash.txt
