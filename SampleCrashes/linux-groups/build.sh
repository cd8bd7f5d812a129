#!/usr/bin/env bash
# Builds two small programs with two different crashes each, and records every crash in several of the forms people
# report it in, so that `postmortem group` can be checked against what is known: logs whose names begin alike
# (null-, limit-, negative-, range-) are the same crash, all others are different crashes.
#   tally (C, tally.c): tally (a PIE without -rdynamic: its log names offsets only) and tally-rdynamic (its log names
#     the exported functions), each crashing with address-space randomisation on and off (setarch -R), written by
#     the program's own handler (backtrace_symbols_fd); gdb's `bt` at the fault; AddressSanitizer's report of the
#     null dereference (tally-asan).
#   ledger (Swift, Ledger.swift, -Onone): the Swift backtracer's text and JSON reports (unsymbolicated) and the
#     runtime's older `Current stack trace:` with the backtracer off, each with randomisation on and off.
# It runs from a copy under /tmp, renamed in the logs to /tmp/postmortem-sample, so no log names a path of this
# checkout; the binaries are found beside the logs. Needs gcc (with libasan), gdb and swiftc.
set -euo pipefail
cd "$(dirname "$0")"
map="-fdebug-prefix-map=$PWD=."
gcc -O1 -g $map -fno-omit-frame-pointer -o tally tally.c
gcc -O1 -g $map -fno-omit-frame-pointer -rdynamic -o tally-rdynamic tally.c
gcc -O1 -g $map -fno-omit-frame-pointer -fsanitize=address -o tally-asan tally.c
swiftc -Onone -g -debug-prefix-map "$PWD=." -file-compilation-dir . -Xfrontend -no-serialize-debugging-options \
    -module-name ledger Ledger.swift -o ledger
rm -rf ./*.swiftmodule ./*.swiftdoc ./*.swiftsourceinfo
run=$(mktemp -d /tmp/postmortem-sample.XXXXXX) && trap 'rm -rf "$run"' EXIT
cp tally tally-rdynamic tally-asan ledger "$run/"
record() {  # record LOG ASLR(on|off) COMMAND…: the command's standard error, run in $run
  local log=$1 aslr=$2; shift 2
  local randomise=()
  [ "$aslr" = off ] && randomise=(setarch "$(uname -m)" -R)
  (cd "$run" && "${randomise[@]}" "$@" > /dev/null 2> "$run/$log" || true)
  sed "s|$run/|/tmp/postmortem-sample/|g" "$run/$log" > "$log"
}
rm -f null-* limit-* negative-* range-*
for crash in null limit; do
  for aslr in on off; do
    record "$crash-plain-aslr-$aslr.txt" "$aslr" ./tally "$crash"
    record "$crash-rdynamic-aslr-$aslr.txt" "$aslr" ./tally-rdynamic "$crash"
  done
  (cd "$run" && TALLY_NO_HANDLER=1 gdb -batch -nx -ex "set debuginfod enabled off" -ex run -ex bt --args ./tally "$crash" \
     > "$run/gdb.txt" 2>&1 || true)
  sed "s|$run/|/tmp/postmortem-sample/|g" "$run/gdb.txt" | grep -v '^process [0-9]*$' > "$crash-gdb-bt.txt"
done
record null-asan.txt on env TALLY_NO_HANDLER=1 ASAN_OPTIONS=symbolize=0 ./tally-asan null
for crash in negative range; do
  for aslr in on off; do
    record "$crash-backtrace-aslr-$aslr.txt" "$aslr" env SWIFT_BACKTRACE=enable=yes,symbolicate=off,interactive=no,color=no ./ledger "$crash"
    record "$crash-backtrace-aslr-$aslr.json" "$aslr" env SWIFT_BACKTRACE=enable=yes,symbolicate=off,interactive=no,color=no,format=json ./ledger "$crash"
    record "$crash-fatal-aslr-$aslr.txt" "$aslr" env SWIFT_BACKTRACE=enable=no ./ledger "$crash"
  done
done
ls -l ./*.txt ./*.json
