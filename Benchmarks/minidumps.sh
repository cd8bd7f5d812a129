#!/usr/bin/env bash
# Minidump benchmark: minidumps Crashpad's handler writes of two of the tests' crashing programs (C threads at -O2
# without frame pointers in a shared library, a C++ exception through std::terminate), and one `postmortem core2md`
# writes of a stack overflow's core (hundreds of thousands of frames), each walked and symbolicated by postmortem
# (index cache warm, and without it) and by minidump-stackwalk 0.25 with the Breakpad symbol files dump_syms writes of
# the programs and their libraries (its fastest way: symbols prepared ahead), alternating, the best of five runs each.
# minidump-stackwalk has no frame limit: on the overflow it walks every frame, postmortem stops at --max-frames (1,024).
# Peak memory from /usr/bin/time. Not a test: figures depend on the machine. Usage: Benchmarks/minidumps.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
postmortem=${POSTMORTEM:-$root/.build/release/postmortem}
[ -x "$postmortem" ] || make --no-print-directory -s release >/dev/null
Tests/install-oracles.sh >/dev/null
oracles=$root/.build/oracles/bin
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
export POSTMORTEM_CACHE_DIR=$work/cache POSTMORTEM_CACHE_WRITE=foreground SWIFT_BACKTRACE=enable=no
sources=$root/Tests/Fixtures/Sources
cd "$work"
gcc -O2 -g -fomit-frame-pointer -fPIC -shared -o libchain.so "$sources/cores/chain.c"
gcc -O2 -g -fomit-frame-pointer -pthread -o threads "$sources/cores/threads.c" -L. -lchain -Wl,-rpath,'$ORIGIN'
g++ -O2 -g -o terminate "$sources/cores/terminate.cpp"
gcc -O0 -g -o overflow "$sources/cores/overflow.c"
gcc -O2 -o with-default-signals "$sources/cores/with-default-signals.c"
gcc -O2 -g -shared -fPIC -o libcrashpad-on-crash.so "$sources/minidumps/crashpad-on-crash.c"
for program in threads terminate; do
  mkdir -p "db-$program"
  (ulimit -c 0; CRASHPAD_HANDLER=$oracles/crashpad_handler CRASHPAD_DATABASE=$work/db-$program LD_PRELOAD=$work/libcrashpad-on-crash.so \
    ./with-default-signals "./$program" >/dev/null 2>&1 || true)
  mv "db-$program"/pending/*.dmp "$program.dmp"
done
pattern=$(cat /proc/sys/kernel/core_pattern)
rm -f core core.*
if [[ $pattern == core* ]]; then (ulimit -c unlimited; ./with-default-signals ./overflow >/dev/null 2>&1 || true); fi
core=$(ls core core.* 2>/dev/null | head -1 || true)
[ -n "$core" ] || ./with-default-signals gdb -batch -nx -ex run -ex "generate-core-file overflow.core" ./overflow >/dev/null 2>&1
[ -n "$core" ] && mv "$core" overflow.core
"$postmortem" core2md --offline -o overflow.dmp overflow.core
# The symbol store: the programs and every library they load.
for binary in threads libchain.so terminate overflow $(ldd threads terminate overflow | awk '/=> \//{print $3}' | sort -u); do
  "$oracles/dump_syms" --inlines "$binary" > module.sym 2>/dev/null || continue
  read -r _ _ _ id name < <(head -1 module.sym)
  mkdir -p "symbols/$name/$id" && mv module.sym "symbols/$name/$id/$name.sym"
done

source "$root/Benchmarks/compare.sh"
printf '%-34s %21s   %21s   %6s\n' "" "postmortem" "minidump-stackwalk" "ratio"
"$postmortem" symbolicate threads.dmp terminate.dmp overflow.dmp >/dev/null 2>&1  # writes the index files
for dump in threads terminate overflow; do
  compare "$dump dump, warm" "$postmortem symbolicate $dump.dmp" "$oracles/minidump-stackwalk --symbols-path symbols $dump.dmp"
  compare "$dump dump, --no-cache" "$postmortem symbolicate --no-cache $dump.dmp" "$oracles/minidump-stackwalk --symbols-path symbols $dump.dmp"
done
compare "overflow dump, --stackwalk-json" "$postmortem symbolicate --stackwalk-json overflow.dmp" "$oracles/minidump-stackwalk --json --symbols-path symbols overflow.dmp"
