# Shared by the benchmark scripts (sourced): `compare LABEL OURS THEIRS` runs two shell commands alternately, five
# times each (twenty when both take under 50 ms: the scheduler's noise is then as large as the difference), and
# prints the best time and the peak memory of each and their ratio on one line.
seconds() { local start end; start=$(date +%s.%N); "$@" > /dev/null 2>&1; end=$(date +%s.%N); awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'; }
peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
best_of() {
  local best="" t
  for ((r = 0; r < $2; r++)); do
    t=$(seconds bash -c "$1")
    best=$(awk -v x="$best" -v y="$t" 'BEGIN { print (x == "" || y < x) ? y : x }')
  done
  echo "$best"
}
# What timing costs by itself (starting bash and date, about 4 ms here): taken off both figures, so that a ratio
# compares the two tools, not the tools plus the same harness. Printed once, above the first comparison.
harness=$(best_of ":" 20)
printf '(each time below is less %.4f s, the best of twenty runs of `bash -c :` through the same timing)\n' "$harness"
# Alternating runs, the best of five of each (this machine's timings vary by 20% from run to run).
compare() {
  local label=$1 ours=$2 theirs=$3 a b best_a="" best_b=""
  local rounds=5
  for ((r = 0; r < rounds; r++)); do
    a=$(seconds bash -c "$ours"); b=$(seconds bash -c "$theirs")
    best_a=$(awk -v x="$best_a" -v y="$a" 'BEGIN { print (x == "" || y < x) ? y : x }')
    best_b=$(awk -v x="$best_b" -v y="$b" 'BEGIN { print (x == "" || y < x) ? y : x }')
    if ((r == 4)) && awk -v a="$best_a" -v b="$best_b" 'BEGIN { exit !(a < 0.05 && b < 0.05) }'; then rounds=20; fi
  done
  best_a=$(awk -v x="$best_a" -v h="$harness" 'BEGIN { print (x - h > 0.0001) ? x - h : 0.0001 }')
  best_b=$(awk -v x="$best_b" -v h="$harness" 'BEGIN { print (x - h > 0.0001) ? x - h : 0.0001 }')
  printf '%-34s %8.3f s %7s KB   %8.3f s %7s KB   %5.2fx\n' "$label" "$best_a" "$(peak bash -c "$ours")" "$best_b" \
    "$(peak bash -c "$theirs")" "$(awk -v a="$best_a" -v b="$best_b" 'BEGIN { print a / b }')"
}
