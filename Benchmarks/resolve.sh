#!/usr/bin/env bash
# Resolve benchmark (`make bench`): builds its corpus (a C++ program of templates and inlining, g++ -O2 -g,
# a Swift program built in debug mode with swift-nio and swift-syntax, and a Vapor server with Fluent, SQLite and
# Leaf built in debug mode, over 50 MB of DWARF), then times postmortem against
# llvm-symbolizer and addr2line on 1, 100 and 10,000 addresses per binary: the first run (an empty index cache;
# the index file is written after it, in the background, and waited for before the next timing), without the
# index cache, and with a warm one. Not a test.
# Usage: Benchmarks/resolve.sh [runs]   (environment: LLVM_SYMBOLIZER, COUNTS=1,100,10000)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/.build-bench
postmortem=$root/.build/release/postmortem
make --no-print-directory -s release >/dev/null
llvm_symbolizer=${LLVM_SYMBOLIZER:-$(dirname "$(readlink -f "$(command -v swiftc)")")/llvm-symbolizer}
[ -x "$llvm_symbolizer" ] || llvm_symbolizer=$(command -v llvm-symbolizer)

# The C++ program.
Benchmarks/cpp-corpus.sh
cpp=$work/cpp

# The Swift program: a package beside this one, built with its own scratch folder.
swift_corpus=$work/swift/debug/SwiftCorpus
if [ ! -x "$swift_corpus" ]; then
  echo "Building the Swift corpus (swift-nio and swift-syntax; a few minutes)…" >&2
  (cd Benchmarks/corpus/SwiftCorpus &&
   swift build --scratch-path "$work/swift" -Xswiftc -debug-prefix-map -Xswiftc "$PWD=." >/dev/null)
fi

# The server: a package beside this one too.
swift_server=$work/server/debug/SwiftServer
if [ ! -x "$swift_server" ]; then
  echo "Building the Swift server (Vapor, Fluent, SQLite, Leaf; several minutes)…" >&2
  (cd Benchmarks/corpus/SwiftServer &&
   swift build --scratch-path "$work/server" -Xswiftc -debug-prefix-map -Xswiftc "$PWD=." >/dev/null)
fi

for binary in "$cpp/corpus" "$swift_corpus" "$swift_server"; do
  printf '%s: %s MB of DWARF\n' "$(basename "$binary")" \
    "$(size -A "$binary" | awk '/^\.debug/ { s += $2 } END { printf "%.1f", s / 1e6 }')"
done
rm -rf "$work/cache" "$work/cache-first" && mkdir -p "$work/cache-first"
python3 Benchmarks/resolve_bench.py --postmortem "$postmortem" --llvm-symbolizer "$llvm_symbolizer" --cache-dir "$work/cache" \
  --runs "${1:-5}" --counts "${COUNTS:-1,100,10000}" "$cpp/corpus" "$swift_corpus" "$swift_server"
