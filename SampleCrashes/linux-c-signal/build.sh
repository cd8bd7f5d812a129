#!/usr/bin/env bash
# Builds the signal sample and records real crashes of it, each written by its SIGSEGV handler with
# backtrace_symbols_fd:
#   segv-pie.txt    app (a PIE linked with -rdynamic, so the log names its exported functions) crashing in process();
#   segv-lib.txt    the same app crashing in libsens.so's lib_entry (named by dladdr in the log);
#   segv-nopie.txt  app-nopie (a non-PIE executable, ET_EXEC) crashing in process();
#   gdb-bt.txt      gdb's backtrace from inside the handler (`<signal handler called>`), of a copy without DWARF;
#   coredump.txt    the same crash in systemd-coredump's layout (coredump-layout.py, run in gdb at the fault): this
#                   machine cannot run systemd-coredump itself (a container's core pattern is the host's).
# The programs run from a copy under /tmp, renamed in the logs to /tmp/postmortem-sample so they name no path of this
# checkout. Needs gcc and gdb.
set -euo pipefail
cd "$(dirname "$0")"
map="-fdebug-prefix-map=$PWD=."
gcc -O2 -g $map -fPIC -shared -o libsens.so lib.c
gcc -O2 -g $map -rdynamic -o app crash.c -L. -lsens -Wl,-rpath,'$ORIGIN'
gcc -O2 -g $map -no-pie -o app-nopie crash.c -L. -lsens -Wl,-rpath,'$ORIGIN'
run=$(mktemp -d /tmp/postmortem-sample.XXXXXX) && trap 'rm -rf "$run"' EXIT
cp app app-nopie libsens.so "$run/"
record() {  # log file, command run in $run
  local log=$1; shift
  (cd "$run" && "$@" > /dev/null 2> "$log" || true)
  sed "s|$run/|/tmp/postmortem-sample/|g" "$run/$log" > "$log"
}
record segv-pie.txt ./app pie
record segv-lib.txt ./app lib
record segv-nopie.txt ./app-nopie
# gdb stops in the handler; the program's copy keeps its symbol table but not its DWARF, so gdb names functions only.
strip --strip-debug "$run/app"
(cd "$run" && gdb -batch -nx -ex "set debuginfod enabled off" -ex "handle SIGSEGV nostop noprint" -ex "break on_segv" \
   -ex run -ex bt -ex "info proc mappings" --args ./app pie > gdb.txt 2>&1 || true)
sed "s|$run/|/tmp/postmortem-sample/|g" "$run/gdb.txt" | grep -v '^process [0-9]*$' > gdb-bt.txt
# systemd-coredump's report of the crash in process(), written by gdb at the fault, before the handler runs; gdb reads
# the binaries only (no separate debug files), as the journal's stack trace does.
(cd "$run" && COREDUMP_REPORT="$run/coredump.txt" gdb -batch -nx -ex "set debuginfod enabled off" \
   -ex "set debug-file-directory /nonexistent" -ex "set backtrace past-main on" -ex "set backtrace past-entry on" -ex run -x "$OLDPWD/coredump-layout.py" --args ./app pie > /dev/null 2>&1 || true)
sed "s|$run/|/tmp/postmortem-sample/|g" "$run/coredump.txt" > coredump.txt
head -n 20 segv-*.txt gdb-bt.txt coredump.txt
