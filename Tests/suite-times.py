#!/usr/bin/env python3
"""Prints each suite's time from a Swift Testing event stream (`swift test --experimental-event-stream-output FILE
--experimental-event-stream-version 0`), longest first, as a Markdown table. The run must be serial
(`--no-parallel`): in a parallel run a test's time includes the time it waited for a thread.
Usage: Tests/suite-times.py EVENTS [--tests N]   (with --tests, also the N longest tests)"""
import json
import sys


def main():
    arguments = sys.argv[1:]
    if not arguments:
        sys.exit(__doc__)
    longest_tests = int(arguments[arguments.index("--tests") + 1]) if "--tests" in arguments else 0
    kinds, names, starts, ends = {}, {}, {}, {}
    with open(arguments[0]) as events:
        for line in events:
            record = json.loads(line)
            payload = record["payload"]
            if record["kind"] == "test":
                kinds[payload["id"]] = payload["kind"]
                names[payload["id"]] = payload.get("displayName") or payload["name"]
            elif payload.get("kind") in ("testStarted", "testEnded") and "testID" in payload:
                (starts if payload["kind"] == "testStarted" else ends)[payload["testID"]] = payload["instant"]["absolute"]
    timed = sorted(((ends[test] - starts[test], test) for test in starts if test in ends), reverse=True)
    suites = [(seconds, test) for seconds, test in timed if kinds.get(test) == "suite"]
    print("| suite | seconds |\n|---|---:|")
    for seconds, test in suites:
        print(f"| {test} | {seconds:.1f} |")
    print(f"| all suites | {sum(seconds for seconds, test in suites if '/' not in test):.1f} |")
    if longest_tests:
        print("\n| test | seconds |\n|---|---:|")
        for seconds, test in [(s, t) for s, t in timed if kinds.get(t) == "function"][:longest_tests]:
            print(f"| {test.split('/')[0]}/{test.split('/')[1]} | {seconds:.1f} |")


if __name__ == "__main__":
    main()
