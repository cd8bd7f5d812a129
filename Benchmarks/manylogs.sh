#!/usr/bin/env bash
# Many small logs of every format: every log the repository carries (the samples and the committed corpus: Apple
# .crash and .ips, NSException, the Swift backtracer's text and JSON, glibc, sanitizers, gdb and lldb, tombstones,
# systemd-coredump, minidump-stackwalk, …) copied round-robin to COUNT logs (default 5,000), beside copies of the
# samples' binaries, timed as `symbolicate --parse-only`, `symbolicate` with a warm index cache (text and JSON) and
# `group`: logs a minute, MB/s, and CPU time over wall time (2.0 on two busy cores). With BEFORE=BINARY, an earlier
# build runs the same commands in the same run, alternating with this one. Not a test: figures depend on the machine.
# Usage: [BEFORE=path/to/older/postmortem] Benchmarks/manylogs.sh [count]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-5000}
postmortem=${POSTMORTEM:-.build/release/postmortem}
[ -x "$postmortem" ] || make --no-print-directory -s release >/dev/null
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
export POSTMORTEM_CACHE_DIR=$work/cache POSTMORTEM_CACHE_WRITE=foreground
mkdir "$work/bin" "$work/logs"
find SampleCrashes -type f -perm -u+x ! -name '*.sh' ! -name '*.py' -exec cp {} "$work/bin/" \;
distinct=$(python3 - "$work/logs" "$count" <<'PY'
import os, sys
folder, count = sys.argv[1], int(sys.argv[2])
logs = sorted(os.path.join(top, name) for root in ("SampleCrashes", "Tests/CrashLogsTests/Corpus")
              for top, _, names in os.walk(root) for name in names
              if name.endswith((".txt", ".crash", ".ips", ".json")) and "/." not in top)
texts = [(open(path, "rb").read(), os.path.splitext(path)[1]) for path in logs]
for i in range(count):
    text, extension = texts[i % len(texts)]
    with open(f"{folder}/log-{i:06d}{extension}", "wb") as out:
        out.write(text)
print(len(texts))
PY
)
bytes=$(du -sb "$work/logs" | cut -f1)
builds=("$postmortem")
[ -n "${BEFORE:-}" ] && builds+=("$BEFORE")
# One run of BUILD with ARGUMENTS: "wall user+system".
measure() {
  local build=$1; shift
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$build" "$@" > /dev/null 2>&1 || true
  awk '{ printf "%s %s\n", $1, $2 + $3 }' "$work/time"
}
# The best wall time of three runs, alternating the builds, with its CPU time.
runs=(
  "parse only|symbolicate --parse-only $work/logs"
  "symbolicate, warm (text)|symbolicate -d $work/bin $work/logs"
  "symbolicate --json, warm|symbolicate --json -d $work/bin $work/logs"
  "group, warm|group -d $work/bin $work/logs"
)
for build in "${builds[@]}"; do "$build" symbolicate -d "$work/bin" "$work/logs" > /dev/null 2>&1 || true; done
printf '%d logs (%d distinct), %.1f MB\n' "$count" "$distinct" "$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')"
printf '%-28s %-10s %9s %12s %9s %10s\n' "run" "build" "wall" "logs/min" "MB/s" "CPU/wall"
for entry in "${runs[@]}"; do
  label=${entry%%|*}; read -r -a arguments <<< "${entry#*|}"
  declare -A best=() cpu=()
  for round in 1 2 3; do
    for build in "${builds[@]}"; do
      read -r wall used < <(measure "$build" "${arguments[@]}")
      if [ -z "${best[$build]:-}" ] || awk -v a="$wall" -v b="${best[$build]}" 'BEGIN { exit !(a < b) }'; then
        best[$build]=$wall; cpu[$build]=$used
      fi
    done
  done
  for build in "${builds[@]}"; do
    name=this; [ "$build" != "$postmortem" ] && name=before
    awk -v label="$label" -v name="$name" -v s="${best[$build]}" -v c="${cpu[$build]}" -v n="$count" -v b="$bytes" \
      'BEGIN { printf "%-28s %-10s %8.2fs %12.0f %9.1f %10.2f\n", label, name, s, n / s * 60, b / 1e6 / s, c / s }'
  done
  unset best cpu
done
