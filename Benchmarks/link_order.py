#!/usr/bin/env python3
"""Writes Benchmarks/link-order.txt: the functions of postmortem that typical runs execute, for the linker to
lay out side by side (`make release` passes the file to lld as --symbol-ordering-file).

A short run touches a few thousand functions spread over 13 MB of code; the kernel maps code in 64 KB
blocks, so scattered functions cost megabytes of resident memory and hundreds of page faults. Laid out
together they fit in a few hundred KB. The list comes from callgrind (valgrind), which sees every function
a run executes, the Swift runtime's and standard library's included. Run it after changes that rename or
add much start-up code (`make link-order`); a stale list only lays out fewer functions well (the linker
skips names it does not find). Not part of the test suite."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import resolve_bench
from resolve_bench import sample

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "bin")
SAMPLES = os.path.join(ROOT, "SampleCrashes")


def function_addresses(binary, count):
    """`count` addresses inside the binary's functions, spread over them (as the resolve benchmark picks them)."""
    return ["0x%x" % address for address in sample(resolve_bench.function_addresses(binary), count)]


def crash_dumps(work):
    """A kernel core of the tests' threaded C crash (its library at -O2, no frame pointers) and the minidump core2md
    writes of it, made in `work` (a core records this machine's paths, so none is committed); nothing when this
    machine's core_pattern hands cores to a program."""
    sources = os.path.join(ROOT, "Tests", "Fixtures", "Sources", "cores")
    postmortem = os.path.join(ROOT, ".build", "release", "postmortem")
    subprocess.run(["gcc", "-O2", "-g", "-fomit-frame-pointer", "-fPIC", "-shared", "-o", "libchain.so", os.path.join(sources, "chain.c")],
                   cwd=work, check=True)
    subprocess.run(["gcc", "-O2", "-g", "-fomit-frame-pointer", "-pthread", "-o", "threads", os.path.join(sources, "threads.c"), "-L.",
                    "-lchain", "-Wl,-rpath,$ORIGIN"], cwd=work, check=True)
    subprocess.run(["sh", "-c", "ulimit -c unlimited; exec ./threads"], cwd=work, capture_output=True)
    written = [name for name in os.listdir(work) if name == "core" or name.startswith("core.")]
    if not written:
        return []
    core = os.path.join(work, written[0])
    dump = os.path.join(work, "threads.dmp")
    subprocess.run([postmortem, "core2md", "--offline", "-o", dump, core], capture_output=True)
    return [core, dump]


def scenarios(work):
    """Runs, most common first: their functions come first in the file."""
    inventory = os.path.join(FIXTURES, "inventory-gcc")
    shapes = os.path.join(FIXTURES, "shapes-swift-O")
    batch = "\n".join(function_addresses(shapes, 400)) + "\n"
    one = function_addresses(inventory, 1)
    return [
        # A single address with a warm cache (the first run writes the cache), then without the cache.
        (["resolve", "-i", "-o", inventory] + one, None),
        (["resolve", "-i", "-o", inventory] + one, None),
        (["resolve", "-i", "--no-cache", "-o", inventory] + one, None),
        (["resolve", "-i", "--no-cache", "-o", shapes] + function_addresses(shapes, 1), None),
        # Batches on standard input: read ahead on two threads, without and with the cache.
        (["resolve", "-i", "--no-cache", "-o", shapes], batch),
        (["resolve", "-i", "-o", shapes], batch),
        (["resolve", "-i", "-o", shapes], batch),
        (["resolve", "--json", "-o", inventory] + one, None),
        (["--version"], None),
        (["symbolicate", os.path.join(SAMPLES, "linux-c-sensors", "crash.txt")], None),
        (["symbolicate", os.path.join(SAMPLES, "apple-objc-arm64", "App.crash")], None),
        (["symbolicate", os.path.join(SAMPLES, "linux-swift-backtrace", "crash.txt")], None),
        (["po", os.path.join(ROOT, "Tests", "FormattersTests", "Dumps", "account.dump.txt")], None),
        (["symbolicate", os.path.join(ROOT, "Tests", "Fixtures", "minidumps", "rust-minidump", "linux-mini.dmp")], None),
    ] + [(["symbolicate", path], None) for path in crash_dumps(work)]


def executed_functions(profile, binary_name):
    """Functions of the binary named `binary_name` in a callgrind profile, in the order the profile names them."""
    objects, functions, current, names = {}, {}, None, []
    for line in open(profile, errors="replace"):
        line = line.rstrip("\n")
        match = re.match(r"^(c?ob)=\((\d+)\)(?: (.*))?$", line)
        if match:
            kind, key, name = match.groups()
            if name:
                objects[key] = name
            if kind == "ob":
                current = objects.get(key)
            continue
        match = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
        if match:
            kind, key, name = match.groups()
            if name:
                functions[key] = name
            if kind == "fn" and current and os.path.basename(current) == binary_name and functions.get(key):
                names.append(functions[key])
    return names


def main():
    if not shutil.which("valgrind"):
        sys.exit("link_order.py needs valgrind (apt-get install valgrind)")
    postmortem = os.path.join(ROOT, ".build", "release", "postmortem")
    with tempfile.TemporaryDirectory() as work:
        # valgrind cannot read the binary's DWARF 5; its symbol table is all this needs.
        binary = os.path.join(work, "postmortem")
        subprocess.run(["objcopy", "--strip-debug", postmortem, binary], check=True)
        environment = dict(os.environ, POSTMORTEM_CACHE_DIR=os.path.join(work, "cache"))
        order, seen = [], set()
        for number, (arguments, stdin) in enumerate(scenarios(work)):
            profile = os.path.join(work, f"run{number}.out")
            subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}", binary] + arguments,
                           input=(stdin or "").encode(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
            # callgrind tells apart functions of one name with a suffix ('2); the linker knows neither. A run's new
            # functions are listed sorted: callgrind's order varies from run to run, and the list should not.
            names = {re.sub(r"'\d+$", "", name) for name in executed_functions(profile, "postmortem")}
            new = sorted(name for name in names if name not in seen and not name.startswith("0x"))
            seen.update(new)
            order += new
            print(f"{' '.join(arguments[:3])}…: {len(order)} functions so far", file=sys.stderr)
    with open(os.path.join(ROOT, "Benchmarks", "link-order.txt"), "w") as out:
        out.write("\n".join(order) + "\n")


if __name__ == "__main__":
    main()
