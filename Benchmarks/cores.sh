#!/usr/bin/env bash
# Core-file benchmark: the kernel's cores of three of the tests' crashing programs (C threads at -O2 without frame
# pointers, a C++ exception through std::terminate, a stack overflow of hundreds of thousands of frames), each
# unwound and symbolicated by postmortem (with the index cache warm, and without it) and by eu-stack with names,
# source lines and inlined frames (`eu-stack -s -m -i`), alternating, the best of five runs each; and a running
# process of three threads (`postmortem stack` against `eu-stack -p`). Peak memory from /usr/bin/time. Not a test:
# figures depend on the machine. Usage: Benchmarks/cores.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
postmortem=${POSTMORTEM:-$root/.build/release/postmortem}
[ -x "$postmortem" ] || make --no-print-directory -s release >/dev/null
command -v eu-stack >/dev/null || { echo "eu-stack is needed (Debian's elfutils)"; exit 1; }
work=$(mktemp -d) && trap 'kill "${parked:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
export POSTMORTEM_CACHE_DIR=$work/cache POSTMORTEM_CACHE_WRITE=foreground SWIFT_BACKTRACE=enable=no
sources=$root/Tests/Fixtures/Sources/cores
cd "$work"
gcc -O2 -g -fomit-frame-pointer -fPIC -shared -o libchain.so "$sources/chain.c"
gcc -O2 -g -fomit-frame-pointer -pthread -o threads "$sources/threads.c" -L. -lchain -Wl,-rpath,'$ORIGIN'
g++ -O2 -g -o terminate "$sources/terminate.cpp"
gcc -O0 -g -o overflow "$sources/overflow.c"
gcc -O2 -g -pthread -o park "$sources/park.c"
gcc -O2 -o with-default-signals "$sources/with-default-signals.c"
pattern=$(cat /proc/sys/kernel/core_pattern)
for program in threads terminate overflow; do
  rm -f core core.*
  if [[ $pattern == core* ]]; then (ulimit -c unlimited; ./with-default-signals "./$program" >/dev/null 2>&1 || true); fi
  core=$(ls core core.* 2>/dev/null | head -1 || true)
  if [ -z "$core" ]; then
    ./with-default-signals gdb -batch -nx -ex run -ex "generate-core-file $program.core" "./$program" >/dev/null 2>&1
  else
    mv "$core" "$program.core"
  fi
done

source "$root/Benchmarks/compare.sh"
printf '%-34s %21s   %21s   %6s\n' "" "postmortem" "eu-stack -s -m -i" "ratio"
"$postmortem" symbolicate threads.core terminate.core overflow.core >/dev/null 2>&1  # writes the index files
for program in threads terminate overflow; do
  compare "$program core, warm" "$postmortem symbolicate $program.core" "eu-stack -s -m -i -n 1024 --core $program.core -e $program"
  compare "$program core, --no-cache" "$postmortem symbolicate --no-cache $program.core" "eu-stack -s -m -i -n 1024 --core $program.core -e $program"
done
./with-default-signals ./park >/dev/null & parked=$!
sleep 0.5
compare "running process, 3 threads" "$postmortem stack $parked" "eu-stack -s -m -i -p $parked"
echo "threads stopped for: $("$postmortem" stack "$parked" | sed -n 's/^Stopped for //p') (postmortem stack)"
