#!/usr/bin/env python3
"""Sends `postmortem serve` hostile requests over loopback: Symbolication API bodies mutated at random (byte flips,
truncations, values of the wrong type, huge and negative numbers, deep nesting), crash logs mutated the same way,
binary garbage, slow and abandoned uploads, and a flood of connections that send nothing. Reports every answer that
is neither 200 nor a 4xx/504 with a one-line JSON reason, and whether the server is still alive and answering
/health afterwards; keeps the requests that got such answers under .build-fuzz/serve/findings/.
Usage: Fuzz/serve_hostile.py [--count N] [--seed S]   (a check, not a test)"""
import argparse
import http.client
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POSTMORTEM = os.environ.get("POSTMORTEM_EXECUTABLE") or os.path.join(ROOT, ".build/release/postmortem")
FINDINGS = os.path.join(ROOT, ".build-fuzz", "serve", "findings")


def debug_id(binary):
    notes = subprocess.run(["readelf", "-n", binary], capture_output=True, text=True, check=True).stdout
    raw = bytes.fromhex(re.search(r"Build ID: ([0-9a-f]+)", notes).group(1))[:16].ljust(16, b"\0")
    return (raw[3::-1] + raw[5:3:-1] + raw[7:5:-1] + raw[8:]).hex().upper() + "0"


def valid_job(rng):
    binary = os.path.join(ROOT, "Tests/Fixtures/bin/sensors-clang-dwarf5")
    modules = [["sensors-clang-dwarf5", debug_id(binary)], ["libxul.so", "44E4EC8C2F41492B9369D6B9A059577C2"]]
    return {"memoryMap": modules, "stacks": [[[rng.randrange(-1, 2), rng.randrange(0, 0x4000)] for _ in range(rng.randrange(1, 20))]]}


def wrong_values(rng, value, depth=0):
    """`value` with some of its parts replaced by values of other types and extremes."""
    extremes = [None, True, -1, -2**63, 2**64, 1e308, -0.5, "", "0x10", [], {}, [[[]]], "\u0000", "é" * 1000]
    if rng.random() < 0.15 or depth > 6:
        return rng.choice(extremes)
    if isinstance(value, list):
        return [wrong_values(rng, item, depth + 1) for item in value]
    if isinstance(value, dict):
        return {key: wrong_values(rng, item, depth + 1) for key, item in value.items()}
    return value


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randrange(1, 8)):
        choice = rng.random()
        if choice < 0.4 and data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif choice < 0.6 and data:
            del data[rng.randrange(len(data)):]
        elif choice < 0.8 and data:
            position = rng.randrange(len(data))
            data[position:position] = data[position:position + rng.randrange(1, 64)] * rng.randrange(1, 50)
        else:
            data += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 100)))
    return bytes(data)


def bodies(rng, count):
    logs = []
    for base, _, files in os.walk(os.path.join(ROOT, "SampleCrashes")):
        logs += [os.path.join(base, name) for name in files if name.endswith((".txt", ".crash", ".ips", ".json"))]
    for number in range(count):
        kind = number % 6
        if kind == 0:
            yield "/symbolicate/v5", mutate(rng, json.dumps(valid_job(rng)).encode())
        elif kind == 1:
            yield "/symbolicate/v5", json.dumps(wrong_values(rng, {"jobs": [valid_job(rng) for _ in range(rng.randrange(0, 13))]})).encode()
        elif kind == 2:
            yield "/symbolicate/v5", ("[" * rng.randrange(1, 100_000)).encode()
        elif kind == 3:
            yield "/symbolicate", mutate(rng, open(rng.choice(logs), "rb").read())
        elif kind == 4:
            yield "/symbolicate", bytes(rng.randrange(256) for _ in range(rng.randrange(0, 4096)))
        else:
            yield rng.choice(["/symbolicate", "/symbolicate/v5", "/metrics", "/health", "/../etc/passwd", "/%00"]), b"{}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(FINDINGS, exist_ok=True)
    cache = tempfile.mkdtemp(prefix="postmortem-serve-hostile-")
    server = subprocess.Popen([POSTMORTEM, "serve", "--port", "0", "-d", os.path.join(ROOT, "Tests/Fixtures/bin"),
                               "-d", os.path.join(ROOT, "SampleCrashes"), "--max-body-size", "1M", "--timeout", "5"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env=dict(os.environ, POSTMORTEM_CACHE_DIR=cache))
    port = int(re.search(r":(\d+)\s*$", server.stdout.readline()).group(1))
    findings = 0
    statuses = {}
    # Connections that send nothing, or half a request, left open while the rest goes on.
    idle = []
    for number in range(50):
        sock = socket.create_connection(("127.0.0.1", port))
        if number % 2:
            sock.sendall(b"POST /symbolicate/v5 HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"jobs\"")
        idle.append(sock)
    for number, (path, body) in enumerate(bodies(rng, args.count)):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        method = "GET" if path in ("/metrics", "/health") else "POST"
        try:
            connection.request(method, path, body=body if method == "POST" else None)
            response = connection.getresponse()
            answer = response.read()
            status = response.status
        except Exception as error:  # a dropped connection is a finding
            status, answer = None, str(error).encode()
        connection.close()
        statuses[status] = statuses.get(status, 0) + 1
        good = status == 200 or (status in (400, 404, 405, 413, 504) and answer.count(b"\n") <= 1
                                 and answer.startswith(b'{"error": '))
        if not good:
            findings += 1
            with open(os.path.join(FINDINGS, f"{number:05d}{path.replace('/', '_')}.body"), "wb") as handle:
                handle.write(body)
            print(f"finding {number}: {method} {path} → {status} {answer[:120]!r}", file=sys.stderr)
        if server.poll() is not None:
            print(f"the server ended (status {server.returncode}) after request {number}", file=sys.stderr)
            findings += 1
            break
    for sock in idle:
        sock.close()
    alive = False
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/health")
        alive = connection.getresponse().status == 200
    except Exception:
        pass
    server.terminate()
    ended = server.wait(timeout=15)
    shutil.rmtree(cache, ignore_errors=True)
    print(f"{args.count} hostile requests: answers {dict(sorted(statuses.items(), key=lambda item: str(item[0])))}; "
          f"server {'alive' if alive else 'NOT answering'} afterwards, exit status {ended} on SIGTERM; {findings} findings")
    sys.exit(1 if findings or not alive or ended != 0 else 0)


if __name__ == "__main__":
    main()
