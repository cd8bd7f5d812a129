#!/usr/bin/env python3
"""Every public declaration of the library modules a user calls has a /// comment (`make test` runs this).

Usage: .ci/public-docs.py [MODULE ...]   (default: the modules listed below). Prints each declaration without one,
as FILE:LINE: declaration, and exits 1 when there is any. A declaration counts as documented when the line above it
and its attributes is a `///` line. Members of a public extension or type are checked too:
`public` is written on each of them in this code base.
"""
import os
import re
import sys

# Every Swift library module (the executables and the C shims aside): the library products, what their API hands
# out, and what the CLI and the server share.
MODULES = ["PostmortemCore", "ObjectFiles", "DWARF", "Debuginfod", "CrashLogs", "Symbolication", "Formatters", "Grouping",
           "SymbolicationService", "ServeOptions", "Unwinding", "BreakpadSymbols"]

DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:final|static|class|override|mutating|nonisolated|indirect|"
    r"convenience|required|lazy|weak|unowned)\s+)*(func|init|var|let|struct|class|enum|protocol|typealias|case|subscript|"
    r"actor|extension)\b")


def undocumented(path):
    """(line number, text) of each public declaration in `path` without a /// comment above it."""
    with open(path, encoding="utf-8") as source:
        lines = source.read().split("\n")
    found = []
    for index, line in enumerate(lines):
        match = DECLARATION.match(line)
        # Extensions are not declarations of their own: their members are checked one by one.
        if not match or match.group(1) == "extension":
            continue
        # Attributes above it, one line or several (`@Option(name: …,` then its continuation lines, indented deeper).
        indent = len(line) - len(line.lstrip())
        above = index - 1
        while above >= 0 and lines[above].strip() and (lines[above].strip().startswith("@") or
                                                       len(lines[above]) - len(lines[above].lstrip()) > indent):
            above -= 1
        if above >= 0 and lines[above].strip().startswith("///"):
            continue
        found.append((index + 1, line.strip()))
    return found


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")
    modules = sys.argv[1:] or MODULES
    missing = 0
    for module in modules:
        for directory, _, names in sorted(os.walk(os.path.join(root, module))):
            for name in sorted(names):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(directory, name)
                for number, text in undocumented(path):
                    print(f"{os.path.relpath(path, os.path.join(root, '..'))}:{number}: {text}")
                    missing += 1
    if missing:
        print(f"{missing} public declarations of {', '.join(modules)} have no /// comment", file=sys.stderr)
        return 1
    print(f"public declarations of {', '.join(modules)}: every one documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
