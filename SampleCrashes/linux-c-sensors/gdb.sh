#!/usr/bin/env bash
# Records gdb-bt.txt: gdb's backtrace and memory map of one real crash of ./sensors, run from a copy under
# /tmp without its debug file (so gdb prints ?? for the program's frames), renamed in the log to
# /tmp/postmortem-sample so it names no path of this checkout. Needs gdb.
set -euo pipefail
cd "$(dirname "$0")"
run=$(mktemp -d /tmp/postmortem-sample.XXXXXX) && trap 'rm -rf "$run"' EXIT
cp sensors "$run/sensors"
(cd "$run" && gdb -batch -nx -ex "set debuginfod enabled off" -ex run -ex bt -ex "info proc mappings" --args ./sensors 5 > gdb.txt 2>&1 || true)
sed "s|$run/|/tmp/postmortem-sample/|g" "$run/gdb.txt" | grep -v '^process [0-9]*$' > gdb-bt.txt
cat gdb-bt.txt
