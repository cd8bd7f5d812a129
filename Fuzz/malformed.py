#!/usr/bin/env python3
"""Runs the postmortem CLI over malformed inputs made from the fixtures: truncations and byte flips of
every fixture binary (resolving addresses in it), of every crash log, of cores of the tests' programs and of the
committed minidumps (symbolicating them), plus
oversized and deeply nested logs and dumps, and a 200 MiB trace under a 4 GiB address-space limit. Reports every run killed by a signal (a crash), still
running after the time limit (a hang) or whose peak resident memory passed the limit, keeping those
inputs under .build-fuzz/malformed/findings/.
Usage: Fuzz/malformed.py [--count N] [--seed S] [--timeout SECONDS] [--memory-limit MiB]   (a check, not a test: slow)"""
import argparse
import concurrent.futures
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POSTMORTEM = os.path.join(ROOT, ".build/release/postmortem")
WORK = os.path.join(ROOT, ".build-fuzz", "malformed")


def fixture_binaries():
    found = []
    for directory in ["Tests/Fixtures/bin", "Tests/Fixtures/Apple/bin", "SampleCrashes"]:
        for base, _, files in os.walk(os.path.join(ROOT, directory)):
            for name in files:
                path = os.path.join(base, name)
                with open(path, "rb") as handle:
                    magic = handle.read(4)
                if magic in (b"\x7fELF", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe"):
                    found.append(path)
    return sorted(found)


def crash_logs():
    found = []
    for directory in ["SampleCrashes", "Tests/CrashLogsTests/Corpus"]:
        for base, _, files in os.walk(os.path.join(ROOT, directory)):
            for name in files:
                if name.endswith((".txt", ".json", ".crash", ".ips", ".log")):
                    found.append(os.path.join(base, name))
    return sorted(found)


def dumps():
    directory = os.path.join(ROOT, "Tests/FormattersTests/Dumps")
    return sorted(os.path.join(directory, n) for n in os.listdir(directory) if n.endswith((".txt", ".json", ".plist", ".bplist")))


def minidumps():
    directory = os.path.join(ROOT, "Tests/Fixtures/minidumps/rust-minidump")
    return sorted(os.path.join(directory, n) for n in os.listdir(directory) if n.endswith(".dmp"))


def minidump_ranges(path):
    """A minidump's header, stream directory and the first bytes of each stream (counts, sizes, RVAs): where a
    mutation changes what is read."""
    with open(path, "rb") as handle:
        data = handle.read()
    ranges = [(0, 32)]
    if len(data) < 32:
        return ranges
    count, directory = int.from_bytes(data[8:12], "little"), int.from_bytes(data[12:16], "little")
    if count and directory < len(data):
        ranges.append((directory, min(len(data), directory + 12 * count)))
    for index in range(min(count, 64)):
        entry = directory + 12 * index
        if entry + 12 > len(data):
            break
        size, rva = int.from_bytes(data[entry + 4:entry + 8], "little"), int.from_bytes(data[entry + 8:entry + 12], "little")
        if size and rva < len(data):
            ranges.append((rva, min(len(data), rva + min(size, 256))))
    return ranges


def interesting_ranges(path):
    """File ranges of an ELF file's headers, symbol tables and debug sections: where mutations matter."""
    result = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True)
    ranges = [(0, 64)]
    for line in result.stdout.splitlines():
        fields = line.replace("[ ", "[").split()
        if len(fields) > 5 and fields[0].startswith("[") and (fields[1].startswith(".debug") or fields[1] in
                                                                (".symtab", ".strtab", ".dynsym", ".gnu_debuglink", ".note.gnu.build-id")):
            offset, size = int(fields[4], 16), int(fields[5], 16)
            if size:
                ranges.append((offset, offset + size))
    return ranges


def mutate(data, rng, ranges=None):
    """One of: a truncation, a few byte flips, a run of bytes overwritten with 0x00 or 0xff; for a binary,
    mostly inside its headers, symbol tables and debug sections."""
    if not data:
        return data
    def position():
        if ranges and rng.random() < 0.8:
            low, high = rng.choice(ranges)
            return min(rng.randrange(low, high), len(data) - 1)
        return rng.randrange(len(data))
    choice = rng.randrange(3)
    if choice == 0:
        return data[: position()]
    mutated = bytearray(data)
    if choice == 1:
        for _ in range(rng.randint(1, 16)):
            mutated[position()] ^= 1 << rng.randrange(8)
    else:
        start = position()
        fill = rng.choice([0, 0xFF])
        for index in range(start, min(len(mutated), start + rng.randint(1, 64))):
            mutated[index] = fill
    return bytes(mutated)


def make_cores():
    """The kernel's cores (gdb's where the kernel writes none here) of two of the tests' crashing programs, built into
    WORK/cores, with the ranges of each that mutations should hit: the ELF and program headers and the notes."""
    directory = os.path.join(WORK, "cores")
    os.makedirs(directory, exist_ok=True)
    sources = os.path.join(ROOT, "Tests/Fixtures/Sources/cores")
    cores = []
    for program, flags in [("handler", ["-O1"]), ("overflow", ["-O0"])]:
        if subprocess.run(["gcc", "-g"] + flags + ["-o", program, os.path.join(sources, program + ".c")], cwd=directory).returncode:
            continue
        for leftover in [n for n in os.listdir(directory) if n == "core" or n.startswith("core.")]:
            os.remove(os.path.join(directory, leftover))
        subprocess.run(["sh", "-c", f"ulimit -c unlimited; exec ./{program}"], cwd=directory, capture_output=True)
        written = [n for n in os.listdir(directory) if n == "core" or n.startswith("core.")]
        core = os.path.join(directory, program + ".core")
        if written:
            os.rename(os.path.join(directory, written[0]), core)
        else:
            subprocess.run(["gdb", "-batch", "-nx", "-ex", "run", "-ex", f"generate-core-file {core}", "./" + program],
                           cwd=directory, capture_output=True)
        if os.path.exists(core):
            cores.append(core)
    return cores


def core_ranges(path):
    """A core's ELF and program headers and its notes: where a mutation changes what is read."""
    result = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True)
    ranges = [(0, 64)]
    for line in result.stdout.splitlines():
        fields = line.split()
        if fields and fields[0] == "NOTE" and len(fields) > 4:
            offset, size = int(fields[1], 16), int(fields[4], 16)
            ranges.append((offset, offset + size))
    return ranges


def nm_addresses(path):
    result = subprocess.run(["nm", "--defined-only", path], capture_output=True, text=True)
    addresses = [line.split()[0] for line in result.stdout.splitlines() if len(line.split()) == 3 and line.split()[1] in "tT"]
    return addresses[:40] or ["0x1000"]


def run(arguments, timeout, memory_limit, stdin=None, address_space=None):
    """'crash: SIGNAL', 'hang', 'memory: N MiB' (peak resident memory above memory_limit MiB) or None.
    address_space: a limit on the process's address space in bytes (ulimit -v), when given."""
    def limit():
        if address_space:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    descriptor, report = tempfile.mkstemp(prefix="peak-rss-", dir=WORK)
    os.close(descriptor)
    try:
        # An index cache of this script's own (each mutated binary writes one, the next run reads it), never the user's;
        # written in the run, so that writing a mutated binary's index is watched for crashes, hangs and memory too.
        environment = dict(os.environ, POSTMORTEM_CACHE_DIR=os.path.join(WORK, "index-cache"), POSTMORTEM_CACHE_WRITE="foreground")
        # In a process group of its own, so a hang is killed with GNU time, not left running behind it.
        process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", report, POSTMORTEM] + arguments, env=environment,
                                   stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True, preexec_fn=limit)
        process.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return "hang"
    with open(report) as handle:
        lines = handle.read().split()
    os.remove(report)
    # GNU time reports a child killed by a signal in its first line ("Command terminated by signal 11").
    if "signal" in lines:
        return "crash: " + signal.Signals(int(lines[lines.index("signal") + 1])).name
    peak = int(lines[-1]) // 1024
    if peak > memory_limit:
        return f"memory: {peak} MiB"
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=500, help="malformed inputs in all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=15)
    parser.add_argument("--memory-limit", type=int, default=1024, help="peak resident memory per run, MiB")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(os.path.join(WORK, "findings"))

    binaries = fixture_binaries()
    logs = crash_logs()
    dump_files = dumps()
    addresses = {path: nm_addresses(path) for path in binaries}
    ranges = {path: interesting_ranges(path) for path in binaries}
    cores = make_cores()
    ranges.update({path: core_ranges(path) for path in cores})
    dumps_of_crashes = minidumps()
    ranges.update({path: minidump_ranges(path) for path in dumps_of_crashes})
    cases = []  # (kind, source)
    for index in range(options.count):
        kind = ["binary", "binary", "log", "dump", "core", "minidump"][index % 6]
        if kind == "core" and not cores:
            kind = "log"
        source = rng.choice({"binary": binaries, "log": logs, "dump": dump_files, "core": cores, "minidump": dumps_of_crashes}[kind])
        cases.append((kind, source))

    def check_case(name, path, kind, source):
        """The case's runs, one after another; its first problem or None. Removes its input unless kept."""
        if kind == "binary":
            arch = ["--arch", "arm64"] if "/Apple/" in source else []
            outcome = run(["resolve", "-i", "-o", path] + arch + addresses[source], options.timeout, options.memory_limit)
            if outcome is None:
                outcome = run(["info", "symbol", "-o", path] + arch + addresses[source][:5], options.timeout, options.memory_limit)
            if outcome is None:
                # Symbol files read every record a binary has: functions, symbols, CFI and Mach-O compact unwind.
                outcome = run(["dump-syms", "-o", path + ".sym", path] + arch, options.timeout, options.memory_limit)
        elif kind in ("core", "minidump"):
            outcome = run(["symbolicate", "--offline", path], options.timeout, options.memory_limit)
        elif kind == "log":
            outcome = run(["symbolicate", "-d", os.path.dirname(source), path], options.timeout, options.memory_limit)
            if outcome is None:
                outcome = run(["group", "--explain", path, "-d", os.path.dirname(source)], options.timeout, options.memory_limit)
        else:
            outcome = run(["po", path], options.timeout, options.memory_limit)
        if outcome:
            shutil.copy(path, os.path.join(WORK, "findings", name))
        os.remove(path)
        if os.path.exists(path + ".sym"):
            os.remove(path + ".sym")
        return outcome

    # The inputs are made in order from the one seed (the same inputs every run), a few at a time, and run on every
    # core: each run is one process, and its peak memory is its own.
    workers = os.cpu_count() or 2
    findings = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for first in range(0, len(cases), 4 * workers):
            batch = []
            for index in range(first, min(first + 4 * workers, len(cases))):
                kind, source = cases[index]
                with open(source, "rb") as handle:
                    data = mutate(handle.read(), rng, ranges.get(source))
                name = f"{index:04d}-{os.path.basename(source)}"
                path = os.path.join(WORK, name)
                with open(path, "wb") as handle:
                    handle.write(data)
                batch.append((name, source, pool.submit(check_case, name, path, kind, source)))
            for name, source, future in batch:
                outcome = future.result()
                if outcome:
                    findings.append((outcome, source, name))
                    print(f"{outcome}: {name} (from {os.path.relpath(source, ROOT)})", flush=True)

    # Oversized and deeply nested inputs.
    extremes = {
        "deep-dump.txt": ("po", b"[" * 200_000 + b"]" * 200_000),
        "deep-json.json": ("po", b'{"a":' * 100_000 + b"1" + b"}" * 100_000),
        "long-line.txt": ("symbolicate", b"0   libsystem_kernel.dylib  0x" + b"f" * 5_000_000 + b"\n"),
        "many-frames.txt": ("symbolicate", b"".join(b"#%d 0x%x in f () from /lib/x.so\n" % (i, i) for i in range(300_000))),
        "many-frames-grouped.txt": ("group", b"".join(b"#%d 0x%x in f%d () from /lib/x.so\n" % (i, i, i) for i in range(300_000))),
        "large-print.txt": ("po", b"[" + b'P(name: "Ada", tags: ["x", "y"]), ' * 3_000_000 + b"nil]"),
        "large-dump.txt": ("po", b"\xe2\x96\xbf 3000000 elements\n" + b'  - "some string value here"\n' * 3_000_000),
        "large-log.txt": ("symbolicate", b"".join(b"%d   libfoo.dylib  0x%016x foo + %d\n" % (i % 512, 0x100000 + i, i) for i in range(2_000_000))),
    }
    runs = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for name, (command, data) in extremes.items():
            path = os.path.join(WORK, name)
            with open(path, "wb") as handle:
                handle.write(data)
            runs.append((name, path, pool.submit(run, [command, path], options.timeout * 4, options.memory_limit)))
        for name, path, future in runs:
            outcome = future.result()
            if outcome:
                findings.append((outcome, "generated", name))
                shutil.copy(path, os.path.join(WORK, "findings", name))
                print(f"{outcome}: {name}", flush=True)

    def symbolicate_huge(path, sample):
        """Symbolicates a generated 200 MiB log under a 4 GiB address-space limit, removes it; what went wrong."""
        outcome = run(["symbolicate", "--no-cache", "-d", sample, path], options.timeout * 20, options.memory_limit,
                      address_space=4 << 30)
        os.remove(path)
        return outcome

    huge = []
    # A 200 MiB glibc trace of 4 million frames (the demo sample's frames, over and over), symbolicated under a 4 GiB
    # address-space limit: it is read and printed a piece at a time.
    sample = os.path.join(ROOT, "SampleCrashes", "linux-c-sensors")
    with open(os.path.join(sample, "crash.txt"), "rb") as handle:
        text = handle.read().splitlines(keepends=True)
    frames = [line for line in text if b"[0x" in line]
    path = os.path.join(WORK, "huge-glibc-trace.txt")
    with open(path, "wb") as handle:
        handle.writelines(line for line in text if b"[0x" not in line)
        block = b"".join(frames) * 1000
        for _ in range(200 * 1024 * 1024 // len(block) + 1):
            handle.write(block)
    huge.append((path, sample))

    # A 200 MiB gdb session: its backtrace over and over, renumbered, and `info proc mappings` after the frames, so
    # the image table is read from every piece before the frames are.
    sample = os.path.join(ROOT, "SampleCrashes", "linux-c-signal")
    with open(os.path.join(sample, "gdb-bt.txt"), "rb") as handle:
        text = handle.read().splitlines(keepends=True)
    first = next(i for i, line in enumerate(text) if line.startswith(b"#0 "))
    table = next(i for i, line in enumerate(text) if line.startswith(b"Mapped address spaces:"))
    bodies = [line.split(b" ", 1)[1].lstrip() for line in text[first:table]]
    path = os.path.join(WORK, "huge-gdb-session.txt")
    with open(path, "wb") as handle:
        handle.writelines(text[:first])
        written, number = 0, 0
        while written < 200 * 1024 * 1024:
            chunk = b"".join(b"#%-3d %s" % (number + i, body) for i, body in enumerate(bodies))
            number += len(bodies)
            handle.write(chunk)
            written += len(chunk)
        handle.writelines(text[table:])
    huge.append((path, sample))

    # Both at once, one a core.
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        outcomes = list(pool.map(lambda item: symbolicate_huge(*item), huge))
    for (path, _), outcome in zip(huge, outcomes):
        name = os.path.basename(path)
        extremes[name] = None
        if outcome:
            findings.append((outcome, "generated", name))
            print(f"{outcome}: {name} (200 MiB under a 4 GiB address-space limit)", flush=True)

    total = len(cases) + len(extremes)
    print(f"{total} malformed inputs: {sum(1 for f in findings if f[0].startswith('crash'))} crashes, "
          f"{sum(1 for f in findings if f[0] == 'hang')} hangs, "
          f"{sum(1 for f in findings if f[0].startswith('memory'))} above {options.memory_limit} MiB")
    sys.exit(1 if findings else 0)


main()
