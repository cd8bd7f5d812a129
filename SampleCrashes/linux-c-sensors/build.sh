#!/usr/bin/env bash
# Builds the demo sample: a stripped PIE, its debug file in .debug/ (found through .gnu_debuglink),
# and crash.txt, the output of one real crash. Run from anywhere; needs gcc and objcopy.
set -euo pipefail
cd "$(dirname "$0")"
gcc -O2 -g -fdebug-prefix-map="$PWD=." -o sensors sensors.c
mkdir -p .debug
objcopy --only-keep-debug sensors .debug/sensors.debug
objcopy --strip-debug --strip-unneeded --add-gnu-debuglink=.debug/sensors.debug sensors
./sensors 5 > /dev/null 2> crash.txt || true
cat crash.txt
