#!/usr/bin/env python3
"""Commit messages as `git log --oneline` and review tools show them best: a subject of at most 72 characters, a
blank line, then a body that says why (`make test` runs this).

Usage: .ci/commit-messages.py [REVISION]   checks every commit after the one that brought this check in (or after
REVISION) up to HEAD, and prints each that breaks the rule, as HASH: what is wrong. Exits 1 when there is any.
"""
import subprocess
import sys

# The last commit before the convention was checked: the history before it is left as it was written.
CHECKED_AFTER = "4fb89e2"
LONGEST_SUBJECT = 72


def git(*arguments):
    return subprocess.run(["git", *arguments], capture_output=True, text=True)


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else CHECKED_AFTER
    if git("rev-parse", "--git-dir").returncode != 0:
        print("commit messages: not a git checkout, nothing to check")
        return 0
    if git("merge-base", "--is-ancestor", base, "HEAD").returncode != 0:
        print(f"commit messages: {base} is not in this history (a shallow clone?), nothing to check")
        return 0
    hashes = git("rev-list", "--no-merges", f"{base}..HEAD").stdout.split()
    problems = []
    for commit in hashes:
        message = git("log", "-1", "--format=%B", commit).stdout.rstrip("\n").split("\n")
        subject = message[0]
        if len(subject) > LONGEST_SUBJECT:
            problems.append(f"{commit[:9]}: subject of {len(subject)} characters (at most {LONGEST_SUBJECT}): {subject}")
        if len(message) < 3 or message[1] != "" or not any(line.strip() for line in message[2:]):
            problems.append(f"{commit[:9]}: no body after a blank line: {subject}")
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problems in the messages of {len(hashes)} commits after {base}", file=sys.stderr)
        return 1
    print(f"commit messages: {len(hashes)} commits after {base}, each a subject of at most {LONGEST_SUBJECT} "
          "characters and a body")
    return 0


if __name__ == "__main__":
    sys.exit(main())
