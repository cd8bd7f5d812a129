#!/usr/bin/env bash
# Large dumps: `po` on 100 MB of dumped text in three of the forms it reads (`print`, `dump()` and JSON), each written
# here, timed with /usr/bin/time (best of three runs: seconds, MB/s, peak memory). USING.md says a 100 MB dump reads
# in a few seconds with bounded memory; this measures it. Then `po --style json` against Python's json.load on the
# same records as JSON and as dump() text. Not a test: figures depend on the machine.
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

# The marks po holds itself to, against Python's json.load (its C parser) in the same run: `po --style json` on a
# JSON array of records at least as fast as json.load on it, and on the `dump()` text of the same records within
# three times. Both stop at the million-value budget (json.load reads everything).
python3 - "$work" <<'PY'
import json, sys
folder, count = sys.argv[1], 234_077
records = [{"id": i, "name": f"user {i}", "email": f"u{i}@example.com", "active": i % 3 == 0,
            "score": round(i % 1000 / 7, 6), "tags": ["a", f"b{i % 7}"],
            "address": {"city": f"City {i % 100}", "zip": None if i % 5 == 0 else 10000 + i}} for i in range(count)]
with open(f"{folder}/records.json", "w") as out:
    json.dump(records, out)
with open(f"{folder}/records.dump.txt", "w") as out:
    out.write(f"▿ {count} elements\n")
    for r in records:
        zip_line = ("      - zip: nil\n" if r["address"]["zip"] is None else
                    f"      ▿ zip: Optional({r['address']['zip']})\n        - some: {r['address']['zip']}\n")
        out.write(f"  ▿ Fixture.User\n    - id: {r['id']}\n    - name: \"{r['name']}\"\n"
                  f"    - email: \"{r['email']}\"\n    - active: {'true' if r['active'] else 'false'}\n"
                  f"    - score: {r['score']}\n    ▿ tags: 2 elements\n      - \"a\"\n      - \"{r['tags'][1]}\"\n"
                  f"    ▿ address: Fixture.Address\n      - city: \"{r['address']['city']}\"\n{zip_line}")
PY
best() { # best wall time of three runs of the command, and its peak memory
  local best= peak=
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>&1 || true
    read -r seconds kib < "$work/time"
    if [ -z "$best" ] || awk -v a="$seconds" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$seconds; peak=$kib; fi
  done
  echo "$best $peak"
}
read -r load load_kib < <(best python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/records.json")
printf '\n%-28s %9s %12s %14s\n' "po --style json on" "seconds" "peak RSS" "vs json.load"
for input in records.json records.dump.txt; do
  read -r seconds kib < <(best "$postmortem" po --style json "$work/$input")
  awk -v f="$input ($(( $(stat -c %s "$work/$input") / 1000000 )) MB)" -v s="$seconds" -v k="$kib" -v l="$load" \
    'BEGIN { printf "%-28s %8.2fs %9.0f MB %13.2fx\n", f, s, k / 1024, s / l }'
done
awk -v s="$load" -v k="$load_kib" 'BEGIN { printf "%-28s %8.2fs %9.0f MB\n", "json.load (records.json)", s, k / 1024 }'
