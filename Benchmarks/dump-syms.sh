#!/usr/bin/env bash
# Symbol-file benchmark (`make bench`): `postmortem dump-syms` against Mozilla's dump_syms 2.3.5 (`--inlines`) on the
# resolve benchmark's C++ program and Swift program (both built by Benchmarks/resolve.sh) and the Vapor server when it
# has been built, alternating, the best of five runs each, with peak memory. Both write the same records (the tests
# compare them); both use two threads here. Not a test: figures depend on the machine. Usage: Benchmarks/dump-syms.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
postmortem=${POSTMORTEM:-$root/.build/release/postmortem}
[ -x "$postmortem" ] || make --no-print-directory -s release >/dev/null
postmortem=$(readlink -f "$postmortem")
Tests/install-oracles.sh >/dev/null
dump_syms=$root/.build/oracles/bin/dump_syms
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
source "$root/Benchmarks/compare.sh"
printf '%-34s %21s   %21s   %6s\n' "" "postmortem" "dump_syms" "ratio"
for binary in "$root/.build-bench/cpp/corpus" "$root/.build-bench/swift/debug/SwiftCorpus" "$root/.build-bench/server/debug/SwiftServer"; do
  [ -x "$binary" ] || { echo "$(basename "$binary"): not built (make bench builds it)"; continue; }
  label="$(basename "$binary") ($(size -A "$binary" | awk '/^\.debug/ { s += $2 } END { printf "%.0f", s / 1e6 }') MB DWARF)"
  # dump_syms makes relative source paths absolute against its working directory: an empty one here.
  compare "$label" "cd $work && $postmortem dump-syms $binary" "cd $work && $dump_syms --inlines $binary"
done
