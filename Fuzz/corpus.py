#!/usr/bin/env python3
"""Reads every log of the shared corpus (../shared/corpus, beside the checkout; its files stay there) as a user would
paste it, and checks that each is detected as the format of its folder and yields its frames (a log that has
none, such as a Swift fatal error without a trace or a truncated header, yields a report with what went wrong). Prints one line per log that
fails, then the count. Usage: Fuzz/corpus.py [CORPUS]   (a check, not a test: the corpus is not part of the repository)"""
import json
import re
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POSTMORTEM = os.environ.get("POSTMORTEM", os.path.join(ROOT, ".build/release/postmortem"))
# The corpus's folders by what they hold; a folder of debugger output holds gdb's and lldb's.
FORMATS = {"debugger-bt": {"gdb-bt", "lldb-bt"}}
CORPUS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "corpus")


FRAME_LINE = re.compile(r"^\W{0,40}#?\d{1,3}\s(.*\b0x[0-9a-fA-F]{4,}|.* in \S+ at \S)")


def framelike(path):
    """Whether the log has a line that looks like a numbered frame: with an address, or a function and its source."""
    with open(path, "rb") as handle:
        return any(FRAME_LINE.search(line.decode(errors="replace")) for line in handle)


def check(folder, path):
    run = subprocess.run([POSTMORTEM, "symbolicate", "--parse-only", "--json", path], capture_output=True, timeout=60)
    if run.returncode != 0:
        return "exit %d: %s" % (run.returncode, run.stderr.decode(errors="replace").strip().splitlines()[-1:] or "")
    reports = [json.loads(line) for line in run.stdout.decode(errors="replace").splitlines() if line.strip()]
    if not reports:
        return "no report"
    formats = {report.get("format") for report in reports}
    if not formats & FORMATS.get(folder, {folder}):
        return "read as %s" % ", ".join(sorted(str(f) for f in formats))
    frames = sum(len(thread.get("frames", [])) for report in reports for thread in report.get("threads", []))
    if frames == 0 and framelike(path):
        return "no frames"
    return None


def main():
    if not os.path.isdir(CORPUS):
        sys.exit("corpus.py: %s is not there" % CORPUS)
    if not os.access(POSTMORTEM, os.X_OK):
        sys.exit("corpus.py: build %s first (make release)" % POSTMORTEM)
    total = passed = 0
    for folder in sorted(os.listdir(CORPUS)):
        directory = os.path.join(CORPUS, folder)
        if not os.path.isdir(directory):
            continue
        for name in sorted(os.listdir(directory)):
            total += 1
            problem = check(folder, os.path.join(directory, name))
            if problem:
                print("%s/%s: %s" % (folder, name, problem))
            else:
                passed += 1
    print("%d of %d corpus logs read as their format, with their frames" % (passed, total))


if __name__ == "__main__":
    main()
