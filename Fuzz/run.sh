#!/usr/bin/env bash
# libFuzzer runs (`make fuzz`): builds the fuzz targets with -sanitize=fuzzer,address into .build-fuzz/ and
# runs each for FUZZ_SECONDS (default 600), two at a time, seeded from the committed fixtures, sample logs
# and dumps (and, for the index-cache reader, cache files written from the fixtures). Crashes, leaks and
# timeouts land in .build-fuzz/findings/<target>/; the last lines of each log give executions per second
# and coverage. Usage: Fuzz/run.sh [target ...]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/.build-fuzz
seconds=${FUZZ_SECONDS:-600}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz-crashlogs fuzz-dumps fuzz-objectfiles fuzz-dwarf fuzz-index-cache fuzz-cores fuzz-minidumps fuzz-symbol-files)

for target in "${targets[@]}"; do
  swift build -c release --scratch-path "$work" --product "$target" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld >/dev/null
done

# Seeds for the index-cache reader: cache files of small fixtures, as postmortem writes them (made here, not
# committed: they record the real paths of this checkout).
seeds=$work/seeds/index-cache
rm -rf "$seeds" && mkdir -p "$seeds"
make --no-print-directory -s release >/dev/null
# (inventory-stripped has no debug information here: its file holds its symbols alone.)
for fixture in sensors-gcc-dwarf2 sensors-gcc-dwarf5 sensors-clang-dwarf4 inventory-gcc shapes-swift-O inventory-stripped; do
  POSTMORTEM_CACHE_DIR=$seeds POSTMORTEM_CACHE_WRITE=foreground "$root/.build/release/postmortem" resolve -o "Tests/Fixtures/bin/$fixture" 0x1000 >/dev/null 2>&1 || true
done

# Seeds for the core reader: the kernel's cores of two of the tests' crashing programs (made here: a core records
# this machine's libraries and paths), cut to the first MB, where the kernel writes the notes and the first stacks.
core_seeds=$work/seeds/cores
rm -rf "$core_seeds" && mkdir -p "$core_seeds"
(
  cd "$core_seeds"
  gcc -O1 -g -o handler "$root/Tests/Fixtures/Sources/cores/handler.c"
  gcc -O0 -g -o overflow "$root/Tests/Fixtures/Sources/cores/overflow.c"
  for program in handler overflow; do
    (ulimit -c unlimited; "./$program" >/dev/null 2>&1 || true)
    [ -f core ] && head -c 1048576 core > "$program.core" && rm -f core
  done
  rm -f handler overflow
)

seeds_for() {
  case $1 in
    fuzz-crashlogs) echo "SampleCrashes Tests/CrashLogsTests/Corpus" ;;
    fuzz-dumps) echo "Tests/FormattersTests/Dumps Tests/PostmortemCLITests/Golden" ;;
    fuzz-objectfiles) echo "Tests/Fixtures/bin Tests/Fixtures/Apple/bin" ;;
    fuzz-dwarf) echo "Fuzz/Corpus/dwarf" ;;
    fuzz-index-cache) echo "$seeds" ;;
    fuzz-cores) echo "$core_seeds" ;;
    fuzz-minidumps) echo "Tests/Fixtures/minidumps" ;;
    fuzz-symbol-files) echo "Fuzz/Corpus/symbol-files" ;;
  esac
}

options_for() {
  case $1 in
    fuzz-objectfiles|fuzz-index-cache|fuzz-cores|fuzz-minidumps) echo "-max_len=1048576" ;;
    # libdwarf 20210528 drops some of its own error records on malformed DWARF (dwarf_highpc_b, found by this
    # target); with its allocation tracking off (a fifth of a large unit's read time) nothing frees them until
    # exit. They are bounded by the input, so leak detection is off for this target only.
    # -len_control=0: longer patches (more damage per input) from the start.
    fuzz-dwarf) echo "-max_len=4096 -detect_leaks=0 -len_control=0" ;;
    *) echo "-max_len=65536" ;;
  esac
}

run() {
  local target=$1
  # The Swift runtime's own crash report would step on libFuzzer's and AddressSanitizer's.
  export SWIFT_BACKTRACE=enable=no
  # LeakSanitizer's report at exit too (see options_for).
  if [ "$target" = fuzz-dwarf ]; then export ASAN_OPTIONS=detect_leaks=0; else unset ASAN_OPTIONS; fi
  mkdir -p "$work/corpus/$target" "$work/findings/$target"
  # shellcheck disable=SC2046
  "$work/release/$target" "$work/corpus/$target" $(seeds_for "$target") $(options_for "$target") \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/findings/$target/" > "$work/$target.log" 2>&1 || true
  echo "== $target: $(grep -E '^#[0-9]+.*(DONE|pulse|NEW)' "$work/$target.log" | tail -1)"
  grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" "$work/$target.log" || true
  ls "$work/findings/$target" | sed 's/^/   finding: /'
}

# Two at a time: the machine has two cores.
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  run "${targets[i]}" &
  if [ $((i + 1)) -lt ${#targets[@]} ]; then run "${targets[i + 1]}" & fi
  wait
done
