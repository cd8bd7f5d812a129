#!/usr/bin/env bash
# Large dumps: `po` on 100 MB of dumped text in three of the forms it reads (`print`, `dump()` and JSON), each written
# here, timed with /usr/bin/time (best of three runs: seconds, MB/s, peak memory). USING.md says a 100 MB dump reads
# in a few seconds with bounded memory; this measures it. Not a test: figures depend on the machine.
# Usage: Benchmarks/dumps.sh
set -euo pipefail
cd "$(dirname "$0")/.."
postmortem=${POSTMORTEM:-.build/release/postmortem}
[ -x "$postmortem" ] || make --no-print-directory -s release >/dev/null
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import sys
folder, size = sys.argv[1], 100 * 1024 * 1024
forms = {
    "print.txt": ('[', 'Person(name: "Ada, \\"the\\" Countess", age: 36, tags: ["x", "y"]), ', 'nil]'),
    "dump.txt": ('▿ 1000000 elements\n', '  ▿ Fixture.Person\n    - name: "Ada"\n    - age: 36\n', ''),
    "json": ('[', '{"name": "Ada, \\"the\\" Countess", "age": 36, "tags": ["x", "y"]}, ', 'null]'),
}
for name, (head, item, tail) in forms.items():
    with open(f"{folder}/large.{name}", "w") as out:
        out.write(head + item * (size // len(item.encode())) + tail)
PY
printf '%-12s %9s %9s %12s\n' "form" "seconds" "MB/s" "peak RSS"
for form in print.txt dump.txt json; do
  file=$work/large.$form
  best=
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$work/time" "$postmortem" po --style line --max-items 2 "$file" >/dev/null 2>&1 || true
    read -r seconds kib < "$work/time"
    if [ -z "$best" ] || awk -v a="$seconds" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$seconds; peak=$kib; fi
  done
  awk -v form="$form" -v s="$best" -v k="$peak" -v b="$(stat -c %s "$file")" \
    'BEGIN { printf "%-12s %8.2fs %9.1f %9.0f MB\n", form, s, b / 1e6 / s, k / 1024 }'
done
