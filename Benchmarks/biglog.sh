#!/usr/bin/env bash
# One big log: SampleCrashes/linux-c-asan/asan.txt (an ASan report of 13 frames) repeated to SIZE MiB (default 200), as
# a fuzzer's or a CI job's log of many runs holds them, timed as `symbolicate -d` its binary (warm index cache) and
# `symbolicate --parse-only`: seconds, MB/s, CPU time over wall time and peak RSS, best of three runs. Not a test:
# figures depend on the machine.
# Usage: Benchmarks/biglog.sh [size in MiB]
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-200}
postmortem=${POSTMORTEM:-.build/release/postmortem}
[ -x "$postmortem" ] || make --no-print-directory -s release >/dev/null
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
export POSTMORTEM_CACHE_DIR=$work/cache POSTMORTEM_CACHE_WRITE=foreground
python3 - "$work/big.txt" "$size" <<'PY'
import sys
report = open("SampleCrashes/linux-c-asan/asan.txt", "rb").read()
with open(sys.argv[1], "wb") as out:
    for _ in range(int(sys.argv[2]) * (1 << 20) // len(report) + 1):
        out.write(report)
PY
bytes=$(stat -c %s "$work/big.txt")
reports=$(grep -c "==ERROR: AddressSanitizer" "$work/big.txt")
"$postmortem" symbolicate -d SampleCrashes/linux-c-asan SampleCrashes/linux-c-asan/asan.txt > /dev/null
printf '%s MiB, %s reports\n' "$((bytes >> 20))" "$reports"
printf '%-36s %8s %8s %9s %13s\n' run seconds "MB/s" "CPU/wall" "peak RSS MB"
for run in "symbolicate -d (warm)" "symbolicate --parse-only"; do
  case $run in
    symbolicate\ -d*) arguments=(symbolicate -d SampleCrashes/linux-c-asan "$work/big.txt") ;;
    *) arguments=(symbolicate --parse-only "$work/big.txt") ;;
  esac
  best=""
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$postmortem" "${arguments[@]}" > /dev/null
    read -r wall user system rss < "$work/time"
    if [ -z "$best" ] || awk -v a="$wall" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
      best="$wall $user $system $rss"
    fi
  done
  read -r wall user system rss <<< "$best"
  awk -v run="$run" -v wall="$wall" -v cpu="$(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }')" \
    -v rss="$rss" -v bytes="$bytes" \
    'BEGIN { printf "%-36s %8.2f %8.1f %9.2f %13.1f\n", run, wall, bytes / 1e6 / wall, cpu / wall, rss / 1024 }'
done
