#!/usr/bin/env python3
"""The library products' API: every public declaration has a /// comment, and docs/API.txt lists them all.

Usage: .ci/public-docs.py [MODULE ...]   (default: the modules listed below). Prints each declaration without one,
as FILE:LINE: declaration, and exits 1 when there is any. A declaration counts as documented when the line above it
and its attributes is a `///` line. Members of a public extension or type are checked too:
`public` is written on each of them in this code base.

       .ci/public-docs.py --api           prints the API, one declaration a line, sorted, as docs/API.txt holds it.
       .ci/public-docs.py --check-api     exits 1, with the difference, when docs/API.txt is not that list: a change
                                          to the API shows in review as a change to that file (`make test` runs it).

Only the library products (`Symbolication`, `Formatters`) and what their API hands out are `public`; every other
module's declarations are `package`, which the CLI, the server and the tests use.
"""
import difflib
import os
import re
import sys

# Every Swift library module (the executables and the C shims aside): the library products, what their API hands
# out, and what the CLI and the server share (those have no public declaration; a stray one is listed).
MODULES = ["PostmortemCore", "ObjectFiles", "DWARF", "Debuginfod", "LogFraming", "CrashLogs", "Symbolication", "Formatters", "Grouping",
           "SymbolicationService", "CommandLineOptions", "Unwinding", "BreakpadSymbols", "HTTPDownload", "HTTPServing", "BlockingIO"]

DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:final|static|class|override|mutating|nonisolated|indirect|"
    r"convenience|required|lazy|weak|unowned|(?:private|fileprivate|internal|package)\(set\))\s+)*(func|init|var|let|struct|class|enum|protocol|typealias|case|subscript|"
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


CONTAINER = re.compile(
    r"^(\s*)(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*"
    r"(?:struct|class|enum|protocol|extension|actor)\s+([A-Za-z_][\w.]*)")


def api_lines(path, module):
    """`Module.Context: declaration` for each public declaration of `path`, its signature on one line."""
    with open(path, encoding="utf-8") as source:
        lines = source.read().split("\n")
    found = []
    enclosing = []  # (indent, name) of the types and extensions around the current line
    for index, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if not line.strip() or line.strip().startswith("//"):
            continue
        while enclosing and enclosing[-1][0] >= indent:
            enclosing.pop()
        container = CONTAINER.match(line)
        if DECLARATION.match(line):
            # A signature may run over several lines: up to its balanced closing parenthesis, without the body.
            text, depth, at = "", 0, index
            while at < len(lines):
                part = lines[at].strip()
                text += ("" if not text or text.endswith("(") else " ") + part
                depth += part.count("(") - part.count(")")
                following = lines[at + 1].strip() if at + 1 < len(lines) else ""
                if (depth <= 0 and not following.startswith(("->", "throws", "rethrows", "async", "where")))\
                        or at - index > 12:
                    break
                at += 1
            text = re.sub(r"\s*\{.*$", "", text) if not text.startswith("{") else text
            # However the formatter wraps it: no space inside the parentheses, no comma before the closing one.
            text = re.sub(r",?\s+\)", ")", re.sub(r"\(\s+", "(", text))
            context = ".".join([module] + [name for _, name in enclosing])
            found.append(f"{context}: {text}")
        if container:
            enclosing.append((indent, container.group(2)))
    return found


def api(root):
    """The sorted API list of every module."""
    result = []
    for module in MODULES:
        for directory, _, names in sorted(os.walk(os.path.join(root, module))):
            for name in sorted(names):
                if name.endswith(".swift"):
                    result += api_lines(os.path.join(directory, name), module)
    return sorted(result)


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")
    if sys.argv[1:2] == ["--api"]:
        print("\n".join(api(root)))
        return 0
    if sys.argv[1:2] == ["--check-api"]:
        listed_path = os.path.join(root, "..", "docs", "API.txt")
        listed = open(listed_path, encoding="utf-8").read().splitlines() if os.path.exists(listed_path) else []
        current = api(root)
        if listed == current:
            print(f"docs/API.txt: the products' API, {len(current)} declarations, as the sources declare it")
            return 0
        for line in difflib.unified_diff(listed, current, "docs/API.txt", "the sources", lineterm="", n=0):
            print(line)
        print("the public API differs from docs/API.txt: if the change is meant, run .ci/public-docs.py --api > docs/API.txt",
              file=sys.stderr)
        return 1
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
