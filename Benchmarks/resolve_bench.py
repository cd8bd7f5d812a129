#!/usr/bin/env python3
"""Resolve benchmark: times `postmortem resolve -i` (without its index cache, and with a warm one)
against `llvm-symbolizer --inlining` and `addr2line -f -i -C` on the same addresses of the same binaries,
alternating the tools run by run.
Prints, per binary and batch size, the median wall time, its ratio to llvm-symbolizer and the peak RSS; per binary,
the size of its index file against its DWARF.
Not a test: the figures depend on the machine. Run through Benchmarks/resolve.sh (`make bench`)."""
import argparse
import fcntl
import os
import statistics
import subprocess
import sys
import tempfile
import time


def function_addresses(binary):
    """Addresses inside the binary's functions (start + size / 2), in address order, from nm."""
    out = subprocess.run(["nm", "--defined-only", "-S", binary], capture_output=True, text=True, check=True).stdout
    addresses = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW" and int(parts[1], 16) > 0:
            addresses.add(int(parts[0], 16) + int(parts[1], 16) // 2)
    return sorted(addresses)


def sample(addresses, count):
    """`count` addresses spread evenly over the binary (repeating when it has fewer functions)."""
    step = len(addresses) / count
    return [addresses[int(i * step) % len(addresses)] for i in range(count)]


def run(command, stdin_text, env=None):
    """Wall seconds of one run, with stdin fed from text and stdout discarded."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    process.stdin.write(stdin_text.encode())
    process.stdin.close()
    status = process.wait()
    elapsed = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{' '.join(command)} failed with status {status}")
    return elapsed


def peak_rss(command, stdin_text, env=None):
    """Peak RSS (MiB) of one run, as GNU time reports it. Not from this script's wait4: a child forked
    from it starts with this script's own peak (64 MiB once the Swift corpus's symbols are read), which
    exec does not reset; time forks the tool from a small process."""
    with tempfile.NamedTemporaryFile("r") as report:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name] + command, input=stdin_text.encode(),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
        return int(report.read().split()[-1]) / 1024


def first_run(command, stdin_text, parent):
    """Wall seconds of a run with an empty index cache (a new directory below `parent`), then a wait for the writer
    it leaves behind to finish, so that no timing shares the machine with it. Returns the seconds and the directory."""
    directory = tempfile.mkdtemp(dir=parent)
    seconds = run(command, stdin_text, dict(os.environ, POSTMORTEM_CACHE_DIR=directory))
    wait_for_writer(directory)
    return seconds, directory


def wait_for_writer(directory, timeout=600):
    """Until an index file is in `directory`, no temporary one is, the writer's lock is free and its process has ended
    (its teardown, freeing what it read, would otherwise share the machine with the next timing)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        names = os.listdir(directory)
        if any(n.endswith(".pmindex") for n in names) and not any(".pmindex.tmp-" in n for n in names) \
                and not writer_holds_lock(directory) and not writer_running():
            return
        time.sleep(0.02)
    sys.exit(f"no index file appeared in {directory}")


def writer_running():
    """Whether a detached writer (`postmortem cache build --if-idle`) is still running: it lets its lock go before its
    process ends, and the end of a process that read a whole binary (freeing, unmapping) takes milliseconds of a core."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if b"\0cache\0build\0--if-idle\0" in cmdline.read():
                    return True
        except OSError:
            continue
    return False


def writer_holds_lock(directory):
    """Whether a writer holds the cache folder's writer lock (taken and dropped at once to find out)."""
    path = os.path.join(directory, ".writer.lock")
    if not os.path.exists(path):
        return False
    with open(path, "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(lock, fcntl.LOCK_UN)
        return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--postmortem", required=True)
    parser.add_argument("--llvm-symbolizer", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--counts", default="1,100,10000")
    parser.add_argument("--cache-dir", required=True, help="the index cache of the warm runs (filled before timing)")
    parser.add_argument("binaries", nargs="+")
    options = parser.parse_args()

    print(f"llvm-symbolizer: {options.llvm_symbolizer}; {options.runs} runs each, tools alternating; median wall time")
    print(f"{'binary':<14} {'addresses':>9}  {'tool':<36} {'median s':>9} {'× llvm-sym':>10} {'peak RSS MiB':>13}")
    for binary in options.binaries:
        addresses = function_addresses(binary)
        os.makedirs(options.cache_dir, exist_ok=True)
        before = set(os.listdir(options.cache_dir))
        for count in [int(c) for c in options.counts.split(",")]:
            text = "".join(f"0x{a:x}\n" for a in sample(addresses, count))
            cached = dict(os.environ, POSTMORTEM_CACHE_DIR=options.cache_dir)
            warm_command = [options.postmortem, "resolve", "-i", "-o", binary]
            # Fills the cache before any timing (written in the run, not after it): every later run of this command reads it.
            run(warm_command, text, dict(cached, POSTMORTEM_CACHE_WRITE="foreground"))
            first_command = [options.postmortem, "resolve", "-i", "-o", binary]
            tools = {
                "postmortem resolve -i (first run)": first_command,
                "postmortem resolve -i --no-cache": [options.postmortem, "resolve", "-i", "--no-cache", "-o", binary],
                "postmortem resolve -i (warm cache)": warm_command,
                "llvm-symbolizer --inlining": [options.llvm_symbolizer, "--inlining", "-e", binary],
                "addr2line -f -i -C": ["addr2line", "-f", "-i", "-C", "-e", binary],
            }
            results = {name: [] for name in tools}
            first_runs = tempfile.mkdtemp(dir=options.cache_dir + "-first")
            for _ in range(options.runs):
                for name, command in tools.items():
                    if command is first_command:
                        results[name].append(first_run(command, text, first_runs)[0])
                    else:
                        results[name].append(run(command, text, cached if command is warm_command else None))
            reference = statistics.median(results["llvm-symbolizer --inlining"])
            for name, runs in results.items():
                median = statistics.median(runs)
                environment = cached if tools[name] is warm_command else None
                if tools[name] is first_command:
                    # The run's own peak; the writer it leaves behind runs after it (waited for here, not counted).
                    environment = dict(os.environ, POSTMORTEM_CACHE_DIR=tempfile.mkdtemp(dir=first_runs))
                rss = peak_rss(tools[name], text, environment)
                if tools[name] is first_command:
                    wait_for_writer(environment["POSTMORTEM_CACHE_DIR"])
                print(f"{os.path.basename(binary):<14} {count:>9}  {name:<36} {median:>9.3f} {median / reference:>9.2f}× {rss:>13.1f}")
            sys.stdout.flush()
        written = [n for n in set(os.listdir(options.cache_dir)) - before if n.endswith(".pmindex")]
        index_size = sum(os.path.getsize(os.path.join(options.cache_dir, n)) for n in written)
        print(f"{os.path.basename(binary)}: index file {index_size / 1e6:.1f} MB for {dwarf_size(binary) / 1e6:.1f} MB of DWARF "
              f"({index_size / max(dwarf_size(binary), 1):.0%})")


def dwarf_size(binary):
    """Bytes of the binary's .debug_* sections, from size -A."""
    out = subprocess.run(["size", "-A", binary], capture_output=True, text=True, check=True).stdout
    return sum(int(line.split()[1]) for line in out.splitlines() if line.startswith(".debug"))


if __name__ == "__main__":
    main()
