#!/usr/bin/env bash
# Crash-log benchmark: symbolicates a batch of 1,000 logs that point into the sample binaries (without the
# index cache, then with it warm: the best of three runs, the first of which writes it), and times parsing
# alone (--parse-only) over the same batch. Prints MB/s of log text. Not a test: figures depend
# on the machine. Usage: Benchmarks/crashlogs.sh [count]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
postmortem=.build/release/postmortem
[ -x "$postmortem" ] || ${BUILD_RELEASE:-swift build -c release --product postmortem --static-swift-stdlib} >/dev/null
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
# A cache of this run's own: the binaries' copies live in $work, and the user's cache stays untouched.
export POSTMORTEM_CACHE_DIR=$work/cache

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
best() { local best="" t; for _ in 1 2 3; do t=$(seconds "$@"); best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }'); done; echo "$best"; }
rate() { awk -v bytes="$bytes" -v s="$1" 'BEGIN { printf "%8.3f s  %8.1f MB/s", s, bytes / 1000000 / s }'; }

parse=$(best "$postmortem" symbolicate --parse-only "$work/logs")
cold=$(best "$postmortem" symbolicate --no-cache -d "$work" "$work/logs")
full=$(best "$postmortem" symbolicate -d "$work" "$work/logs")
json=$(best "$postmortem" symbolicate --json -d "$work" "$work/logs")
printf '%d logs, %s MB of text\n' "$count" "$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1000000 }')"
printf '%-28s %s\n' "parse only" "$(rate "$parse")"
printf '%-28s %s\n' "symbolicate, no cache" "$(rate "$cold")"
printf '%-28s %s\n' "symbolicate (text)" "$(rate "$full")"
printf '%-28s %s\n' "symbolicate --json" "$(rate "$json")"
