#!/usr/bin/env python3
"""Server benchmark: starts `postmortem serve` on a free loopback port over a folder of binaries and measures
Symbolication API v5 jobs of 1 and 100 frames:
- cold: the first request of a fresh server with an empty index cache (the image opened from its DWARF), and of a
  fresh server with the index file written (opened from it), medians over several starts;
- warm: wrk from a second process (2 threads, 8 connections, a fixed time), requests a second and p50/p99 latency;
- memory: the server's resident size after 10,000 requests and after 100,000, and its peak.
Not a test: the figures depend on the machine (wrk shares its two cores). Run through Benchmarks/serve.sh."""
import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from resolve_bench import function_addresses


def debug_id(binary):
    """The Breakpad debug id of an ELF build-id (its first 16 bytes as a GUID, then the age 0)."""
    notes = subprocess.run(["readelf", "-n", binary], capture_output=True, text=True, check=True).stdout
    hex_id = re.search(r"Build ID: ([0-9a-f]+)", notes).group(1)
    raw = bytes.fromhex(hex_id)[:16].ljust(16, b"\0")
    guid = raw[3::-1] + raw[5:3:-1] + raw[7:5:-1] + raw[8:]
    return guid.hex().upper() + "0"


def job(binary, count):
    addresses = function_addresses(binary)
    step = len(addresses) / count
    frames = [[0, addresses[int(i * step) % len(addresses)]] for i in range(count)]
    return json.dumps({"memoryMap": [[os.path.basename(binary), debug_id(binary)]], "stacks": [frames]})


class Server:
    def __init__(self, postmortem, folder, cache):
        env = dict(os.environ, POSTMORTEM_CACHE_DIR=cache)
        env.pop("DEBUGINFOD_URLS", None)
        self.process = subprocess.Popen([postmortem, "serve", "--port", "0", "-d", folder], stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=env, text=True)
        line = self.process.stdout.readline()
        self.port = int(re.search(r":(\d+)\s*$", line).group(1))

    def post(self, body):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        start = time.perf_counter()
        connection.request("POST", "/symbolicate/v5", body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = response.read()
        elapsed = time.perf_counter() - start
        connection.close()
        if response.status != 200 or b'"function"' not in answer:
            sys.exit(f"the server answered {response.status}: {answer[:200]!r}")
        return elapsed

    def memory(self):
        status = open(f"/proc/{self.process.pid}/status").read()
        return {key: int(re.search(key + r":\s+(\d+) kB", status).group(1)) / 1024 for key in ("VmRSS", "VmHWM")}

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=15)


def wrk(port, body, seconds, connections=8):
    """Requests a second, p50 and p99 (ms) and the number of requests of one wrk run posting `body`."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [==[%s]==]\n' % body)
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script.name,
                          f"http://127.0.0.1:{port}/symbolicate/v5"], capture_output=True, text=True, check=True).stdout
    os.unlink(script.name)
    if "Non-2xx" in out:
        sys.exit("wrk saw answers other than 200:\n" + out)

    def milliseconds(label):
        value, unit = re.search(label + r"%\s+([\d.]+)(us|ms|s)\b", out).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), milliseconds("50"), milliseconds("99"), requests


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--postmortem", required=True)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("binary")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="postmortem-serve-bench-")
    shutil.copy(args.binary, folder)
    binary = os.path.join(folder, os.path.basename(args.binary))
    bodies = {count: job(binary, count) for count in (1, 100)}
    print(f"{os.path.basename(binary)}: {os.path.getsize(binary) / 1e6:.1f} MB; v5 jobs of one module")
    print(f"{'frames':>6}  {'cold, DWARF':>12}  {'cold, index':>12}  {'warm req/s':>10}  {'p50 ms':>7}  {'p99 ms':>7}")
    for count, body in bodies.items():
        cold_dwarf, cold_index = [], []
        for _ in range(args.starts):
            cache = tempfile.mkdtemp(prefix="postmortem-serve-cache-")
            server = Server(args.postmortem, folder, cache)
            cold_dwarf.append(server.post(body))
            # The index file is written in the background after the answer: wait for it, then a fresh server reads it.
            deadline = time.time() + 120
            while not any(name.endswith(".pmindex") for name in os.listdir(cache)) and time.time() < deadline:
                time.sleep(0.05)
            time.sleep(0.2)
            server.stop()
            server = Server(args.postmortem, folder, cache)
            cold_index.append(server.post(body))
            server.stop()
            shutil.rmtree(cache)
        cache = tempfile.mkdtemp(prefix="postmortem-serve-cache-")
        server = Server(args.postmortem, folder, cache)
        server.post(body)
        rate, p50, p99, _ = wrk(server.port, body, args.seconds)
        server.stop()
        shutil.rmtree(cache)
        print(f"{count:>6}  {statistics.median(cold_dwarf) * 1000:>9.1f} ms  {statistics.median(cold_index) * 1000:>9.1f} ms"
              f"  {rate:>10.0f}  {p50:>7.2f}  {p99:>7.2f}")
    # Memory over many requests: 1-frame jobs until at least 100,000 have been answered.
    cache = tempfile.mkdtemp(prefix="postmortem-serve-cache-")
    server = Server(args.postmortem, folder, cache)
    server.post(bodies[100])
    answered = 0
    after_ten_thousand = None
    while answered < 100_000:
        _, _, _, requests = wrk(server.port, bodies[1] if answered % 2 == 0 else bodies[100], 5)
        answered += requests
        if after_ten_thousand is None and answered >= 10_000:
            after_ten_thousand = server.memory()["VmRSS"]
    memory = server.memory()
    server.stop()
    shutil.rmtree(cache)
    shutil.rmtree(folder)
    print(f"memory: {after_ten_thousand:.1f} MB resident after {10_000:,}+ requests, {memory['VmRSS']:.1f} MB after "
          f"{answered:,}; peak {memory['VmHWM']:.1f} MB")


if __name__ == "__main__":
    main()
