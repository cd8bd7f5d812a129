#!/usr/bin/env bash
# Server benchmark (`make bench-serve`): `postmortem serve` on loopback over the C++ program of `make bench` (built
# here when missing), loaded by wrk from a second process. Not a test.
# Usage: Benchmarks/serve.sh [seconds per wrk run]
set -euo pipefail
cd "$(dirname "$0")/.."
Benchmarks/cpp-corpus.sh
python3 Benchmarks/serve_bench.py --postmortem "$PWD/.build/release/postmortem" --seconds "${1:-10}" .build-bench/cpp/corpus
