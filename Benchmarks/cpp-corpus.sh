#!/usr/bin/env bash
# Builds the C++ program the benchmarks read (.build-bench/cpp/corpus) when it is missing: generated sources of
# templates and inlining, one unit per module, g++ -O2 -g, built in parallel.
set -euo pipefail
cd "$(dirname "$0")/.."
cpp=$PWD/.build-bench/cpp
[ -x "$cpp/corpus" ] && exit 0
echo "Building the C++ corpus…" >&2
rm -rf "$cpp" && mkdir -p "$cpp"
python3 Benchmarks/corpus/make_cpp.py "$cpp"
cd "$cpp"
for source in *.cpp; do g++ -O2 -g -fdebug-prefix-map="$cpp"=. -c "$source" -o "${source%.cpp}.o" & done
wait
g++ -o corpus ./*.o
