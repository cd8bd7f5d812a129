#!/usr/bin/env bash
# Grouping benchmark: `postmortem group` over COUNT logs (default 100,000), copies of the linux-groups sample's 23
# logs (four crashes, each in several forms) beside copies of their binaries, first with an empty index cache, then
# warm. Prints the time, logs per second and peak RSS, and the RSS for a tenth of the logs, so that memory can be
# seen to follow the number of groups, not of logs. Not a test: figures depend on the machine.
# Usage: Benchmarks/group.sh [count]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100000}
postmortem=${POSTMORTEM:-.build/release/postmortem}
[ -x "$postmortem" ] || make --no-print-directory -s release >/dev/null
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
export POSTMORTEM_CACHE_DIR=$work/cache POSTMORTEM_CACHE_WRITE=foreground
sample=SampleCrashes/linux-groups
cp "$sample"/tally "$sample"/tally-rdynamic "$sample"/tally-asan "$sample"/ledger "$work/"
# Written by one process: a copy command per log would take longer than the grouping.
python3 - "$sample" "$work" "$count" <<'PY'
import glob, os, sys
sample, work, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
logs = sorted(glob.glob(sample + "/*-*.txt") + glob.glob(sample + "/*-*.json"))
texts = [(open(path, "rb").read(), os.path.splitext(path)[1]) for path in logs]
for name, size in (("logs", count), ("tenth", max(count // 10, 1))):
    os.makedirs(f"{work}/{name}")
    for i in range(size):
        text, extension = texts[i % len(texts)]
        with open(f"{work}/{name}/log-{i}{extension}", "wb") as out:
            out.write(text)
PY
bytes=$(du -sb "$work/logs" | cut -f1)
measure() {  # measure FOLDER: "seconds peak-KB" of one group run
  /usr/bin/time -f "%e %M" -o "$work/time" "$postmortem" group -d "$work" "$1" > "$work/out" 2> /dev/null || true
  cat "$work/time"
}
read -r first first_rss < <(measure "$work/logs")
read -r warm warm_rss < <(measure "$work/logs")
read -r _ tenth_rss < <(measure "$work/tenth")
groups=$(head -1 "$work/out")
printf '%d logs, %.1f MB; %s (the tenth)\n' "$count" "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" "$groups"
row() { awk -v label="$1" -v s="$2" -v kb="$3" -v n="$count" 'BEGIN { printf "%-26s %8.2f s %9.0f logs/s %8.1f MB peak RSS\n", label, s, n / s, kb / 1024 }'; }
row "group, empty index cache" "$first" "$first_rss"
row "group, warm" "$warm" "$warm_rss"
awk -v kb="$tenth_rss" -v n="$((count / 10))" 'BEGIN { printf "%-26s %8s %24s %8.1f MB peak RSS\n", "group, " n " logs, warm", "", "", kb / 1024 }'
