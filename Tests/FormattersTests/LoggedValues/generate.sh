#!/usr/bin/env bash
# Builds Logging.swift against swift-log and has it write logs of values (swift-log, NSLog, print) and each value's
# JSON, as JSONEncoder writes it, into this directory. Needs the Swift toolchain and swift-log (fetched by SwiftPM).
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/LoggedValues"
cp Logging.swift "$work/Sources/LoggedValues/main.swift"
cat > "$work/Package.swift" <<'SWIFT'
// swift-tools-version:5.9
import PackageDescription
let package = Package(
    name: "LoggedValues",
    dependencies: [.package(url: "https://github.com/apple/swift-log", exact: "1.16.2")],
    targets: [.executableTarget(name: "LoggedValues", dependencies: [.product(name: "Logging", package: "swift-log")])])
SWIFT
swift build --package-path "$work" -c release > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
rm -f ./*.log ./*.json
"$work/.build/release/LoggedValues" "$here" 2> nslog.log
ls ./*.log ./*.json
