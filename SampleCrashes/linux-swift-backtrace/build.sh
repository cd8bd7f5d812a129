#!/usr/bin/env bash
# Builds the Swift backtracer samples and keeps the reports of real crashes, each run with address-space
# randomisation off (setarch -R), so that two runs of one program crash at the same addresses:
#   inventory (Inventory.swift, -Onone): crash.txt and crash.json, unsymbolicated (SWIFT_BACKTRACE=symbolicate=off), in
#     the text and JSON formats; crash-runtime.txt and crash-runtime.json, the same crash as the runtime symbolicates it
#     itself; fatal.txt, the same crash with the backtracer off (the runtime's older `Current stack trace:`).
#   pipeline (Pipeline.swift, -O: inlined frames, a closure, an async task): pipeline.txt unsymbolicated,
#     pipeline-runtime.txt as the runtime symbolicates it.
# It runs from a copy under /tmp, renamed in the reports to /tmp/postmortem-sample, so no report names a path of this
# checkout; the binaries are found beside the logs.
set -euo pipefail
cd "$(dirname "$0")"
flags=(-g -debug-prefix-map "$PWD=." -file-compilation-dir . -Xfrontend -no-serialize-debugging-options)
swiftc -Onone "${flags[@]}" -module-name inventory Inventory.swift -o inventory
swiftc -O "${flags[@]}" -parse-as-library -module-name pipeline Pipeline.swift -o pipeline
rm -rf ./*.swiftmodule ./*.swiftdoc ./*.swiftsourceinfo
run=$(mktemp -d /tmp/postmortem-sample.XXXXXX) && trap 'rm -rf "$run"' EXIT
cp inventory pipeline "$run/"
crash() {  # crash PROGRAM OUTPUT SWIFT_BACKTRACE-SETTINGS
  (cd "$run" && setarch "$(uname -m)" -R env SWIFT_BACKTRACE="$3" "./$1" > /dev/null 2> "$2" || true)
  sed "s|$run/|/tmp/postmortem-sample/|g" "$run/$2" > "$2"
}
crash inventory crash.txt enable=yes,symbolicate=off,interactive=no,color=no
crash inventory crash.json enable=yes,symbolicate=off,interactive=no,color=no,format=json
crash inventory crash-runtime.txt enable=yes,interactive=no,color=no
crash inventory crash-runtime.json enable=yes,interactive=no,color=no,format=json
# With the backtracer off, the runtime prints its older `Current stack trace:` (swift-fatal) instead.
crash inventory fatal.txt enable=no
crash pipeline pipeline.txt enable=yes,symbolicate=off,interactive=no,color=no
crash pipeline pipeline-runtime.txt enable=yes,interactive=no,color=no
cat crash.txt
