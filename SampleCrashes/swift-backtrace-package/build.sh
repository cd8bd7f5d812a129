#!/usr/bin/env bash
# Makes crash.txt and crash-stripped.txt: what a Swift program using the swift-backtrace package (swift-server/swift-backtrace 1.3.5, the
# last release, Apache-2.0) printed when it trapped: the runtime's `Fatal error` and `Current stack trace:` (its
# backtracer off, as it was before Swift 5.9), then the package's `Received signal 4. Backtrace:` from libbacktrace.
# The package does nothing on Swift 5.9 and later (the runtime backtraces itself): its two `#if swift(>=5.9)` guards
# are lifted in a copy, nothing else changed. ASLR off, so `tally` was loaded at 0x555555554000.
# Usage: SampleCrashes/swift-backtrace-package/build.sh PATH-OF-A-swift-backtrace-CHECKOUT
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
package=${1:?"give the path of a swift-server/swift-backtrace checkout (tag 1.3.5)"}
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/Tally"
cp -R "$package/Sources/CBacktrace" "$package/Sources/Backtrace" "$work/Sources/"
rm -rf "$work/Sources/Backtrace/Docs.docc"
sed -i 's/#if swift(>=5.9) && !os(Windows)/#if swift(>=99) \&\& !os(Windows)/; s/#if !(swift(>=5.9) && !os(Windows))/#if !(swift(>=99) \&\& !os(Windows))/' \
  "$work/Sources/Backtrace/Backtrace.swift" "$work/Sources/Backtrace/Demangle.swift"
cp "$here/Tally.swift" "$work/Sources/Tally/main.swift"
cat > "$work/Package.swift" <<'SWIFT'
// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "tally",
    targets: [
        .target(name: "CBacktrace"),
        .target(name: "Backtrace", dependencies: ["CBacktrace"]),
        .executableTarget(name: "Tally", dependencies: ["Backtrace"]),
    ]
)
SWIFT
# Paths in the debug information (and so in the package's output) relative to the build folder.
(cd "$work" && swift build -Xswiftc -g -Xswiftc -debug-prefix-map -Xswiftc "$work=." -Xswiftc -file-compilation-dir -Xswiftc . \
  -Xswiftc -Xfrontend -Xswiftc -no-serialize-debugging-options -Xcc "-fdebug-prefix-map=$work=." >/dev/null)
cp "$work/.build/debug/Tally" "$here/tally"
# Run twice: as built (libbacktrace names each frame from the DWARF), and without its DWARF (`strip -g`, the code
# unmoved: a release build without -g, as most were), where the package prints bare addresses.
mkdir "$work/stripped" && strip -g -o "$work/stripped/tally" "$here/tally"
(cd "$work" && SWIFT_BACKTRACE=enable=no setarch -R "$here/tally" 2> "$here/crash.txt" > /dev/null) || true
(cd "$work" && SWIFT_BACKTRACE=enable=no setarch -R "$work/stripped/tally" 2> "$here/crash-stripped.txt" > /dev/null) || true
grep -q "^Received signal 4. Backtrace:" "$here/crash.txt" "$here/crash-stripped.txt"
