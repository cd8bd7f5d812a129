#!/usr/bin/env bash
# Crash-log benchmark: symbolicates a batch of 1,000 logs that point into the sample binaries (without the
# index cache, then with it warm: the best of three runs, the first of which writes it), and times parsing
# alone (--parse-only, the best of ten runs) over the same batch. Prints MB/s of log text. Not a test: figures depend
# on the machine. Usage: Benchmarks/crashlogs.sh [count]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
postmortem=${POSTMORTEM:-.build/release/postmortem}
[ -x "$postmortem" ] || make --no-print-directory -s release >/dev/null
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
# A cache of this run's own: the binaries' copies live in $work, and the user's cache stays untouched.
export POSTMORTEM_CACHE_DIR=$work/cache
# The first warm run writes the index files before it ends, so the runs after it read them.
export POSTMORTEM_CACHE_WRITE=foreground

# The samples' logs, round-robin, beside copies of their binaries (one each: they are found beside the logs).
samples=(SampleCrashes/linux-c-asan/asan.txt SampleCrashes/linux-c-sensors/crash.txt
         SampleCrashes/linux-swift-backtrace/crash.txt SampleCrashes/linux-c-sensors/gdb-bt.txt
         SampleCrashes/apple-objc-arm64/App.crash SampleCrashes/apple-objc-arm64/App.ips)
cp SampleCrashes/linux-c-asan/readings SampleCrashes/linux-c-sensors/sensors SampleCrashes/linux-swift-backtrace/inventory "$work/"
cp -r SampleCrashes/linux-c-sensors/.debug SampleCrashes/apple-objc-arm64/App SampleCrashes/apple-objc-arm64/App.dSYM "$work/"
mkdir "$work/logs"
for ((i = 0; i < count; i++)); do
  sample=${samples[$((i % ${#samples[@]}))]}
  cp "$sample" "$work/logs/log-$i.${sample##*.}"
done
bytes=$(cat "$work"/logs/* | wc -c)

seconds() { local start end; start=$(date +%s.%N); "$@" > /dev/null 2>&1; end=$(date +%s.%N); awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'; }
# The best of $runs runs (this machine's timings vary by 20% from run to run).
best() { local runs=$1 best="" t; shift; for ((r = 0; r < runs; r++)); do t=$(seconds "$@"); best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }'); done; echo "$best"; }
rate() { awk -v bytes="$bytes" -v s="$1" 'BEGIN { printf "%8.3f s  %8.1f MB/s", s, bytes / 1000000 / s }'; }

parse=$(best 10 "$postmortem" symbolicate --parse-only "$work/logs")
cold=$(best 3 "$postmortem" symbolicate --no-cache -d "$work" "$work/logs")
full=$(best 3 "$postmortem" symbolicate -d "$work" "$work/logs")
json=$(best 3 "$postmortem" symbolicate --json -d "$work" "$work/logs")
printf '%d logs, %s MB of text\n' "$count" "$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1000000 }')"
printf '%-28s %s\n' "parse only" "$(rate "$parse")"
printf '%-28s %s\n' "symbolicate, no cache" "$(rate "$cold")"
printf '%-28s %s\n' "symbolicate (text)" "$(rate "$full")"
printf '%-28s %s\n' "symbolicate --json" "$(rate "$json")"

# Each binary and debug file is opened a fixed number of times per run, however many logs point into it: strace
# counts the opens of the files beside the logs for six logs (one of each sample) and for all of them, without the
# index cache (the headers, the DWARF and the symbol table are each read once) and with it warm (the headers only).
if command -v strace > /dev/null; then
  first=$(mktemp -d) && trap 'rm -rf "$work" "$first"' EXIT
  for ((i = 0; i < 6 && i < count; i++)); do cp "$work"/logs/log-$i.* "$first/"; done
  opens() {
    local name=$1; shift
    strace -f -e trace=openat -o "$work/opens-$name.txt" "$postmortem" symbolicate -d "$work" "$@" > /dev/null 2>&1 || true
    grep -v ENOENT "$work/opens-$name.txt" | grep -o "\"$work/[^\"]*\"" | sed "s|\"$work/||; s|\"$||" \
      | while read -r file; do if [ -f "$work/$file" ] && [ "${file#logs/}" = "$file" ]; then echo "$file"; fi; done | sort | uniq -c | sort -k2
  }
  opens few --no-cache "$first" > "$work/opens-few"
  opens all --no-cache "$work/logs" > "$work/opens-all"
  opens warm "$work/logs" > "$work/opens-warm"
  echo "opens of each binary and debug file (strace):   no cache: 6 logs  $count logs   warm cache: $count logs"
  join -1 2 -2 2 "$work/opens-few" "$work/opens-all" | join -1 1 -2 2 -a 1 -e 0 -o 0,1.2,1.3,2.1 - "$work/opens-warm" \
    | awk '{ printf "  %-48s %6d %7d %15d\n", $1, $2, $3, $4 }'
fi
