#!/usr/bin/env python3
"""Writes App.ips and App.crash: the report macOS would write when CrashExample runs off the end of its array.

CrashExample is an arm64 macOS program built on Linux, which cannot run it, so its crash report is composed from
two real parts: every system frame, register, image and the report's layout come from a real macOS 13 arm64
report of the same exception (template-macos13-nsrangeexception.ips, from LLVM's lldb tests); the app's frames are
the real return addresses of the calls marked `// frame: NAME` in CrashExample.m, found in the built binary (each
`bl` whose line in the dSYM is a marked line; the return address is the next instruction), and the app's image
is the built binary (its UUID and __TEXT size), loaded at LOAD_ADDRESS. The app frames are left unsymbolicated,
as in a report of a stripped App Store build: that is what `postmortem symbolicate` fills in.

Usage: compose.py APP DSYM_DWARF SOURCE TEMPLATE OUTPUT_DIR
"""
import json
import re
import subprocess
import sys

LLVM = "/usr/lib/llvm-14/bin"
LOAD_ADDRESS = 0x102A34000
TEMPLATE_APP = "asi"
TEMPLATE_REASON = "index 10 beyond bounds [0 .. 3]"
REASON = "index 4 beyond bounds [0 .. 3]"
APP_PATH = "/Users/USER/Applications/CrashExample.app/Contents/MacOS/App"
# The app's frames, innermost first: the call that threw (an inlined function), then its caller.
APP_FRAMES = ["transitionAt", "main"]


def run(*command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def marked_lines(source):
    marks = {}
    with open(source) as file:
        for number, line in enumerate(file, 1):
            match = re.search(r"// frame: (\w+)", line)
            if match:
                marks[match.group(1)] = number
    return marks


def call_sites(app):
    """Addresses of every `bl` in __text."""
    sites = []
    for line in run(f"{LLVM}/llvm-objdump", "-d", "--no-show-raw-insn", app).splitlines():
        match = re.match(r"\s*([0-9a-f]+):\s+bl\s", line)
        if match:
            sites.append(int(match.group(1), 16))
    return sites


def innermost_lines(dwarf, addresses):
    """The innermost line of each address, as llvm-symbolizer reads it from the dSYM."""
    output = run("llvm-symbolizer", "--inlining", f"--obj={dwarf}", *[hex(a) for a in addresses])
    lines = []
    for block in output.strip().split("\n\n"):
        location = block.splitlines()[1]
        lines.append(int(location.split(":")[1]))
    return lines


def app_image(app):
    uuid = re.search(r"UUID: ([0-9A-F-]+)", run(f"{LLVM}/llvm-dwarfdump", "--uuid", app)).group(1).lower()
    headers = run(f"{LLVM}/llvm-objdump", "--macho", "--private-headers", app)
    text = re.search(r"segname __TEXT\n\s+vmaddr (0x[0-9a-f]+)\n\s+vmsize (0x[0-9a-f]+)", headers)
    return uuid, int(text.group(1), 16), int(text.group(2), 16)


def apple_json(value):
    """Compact JSON as Apple writes it in .ips files: no spaces, slashes escaped."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).replace("/", "\\/")


def main(app, dwarf, source, template, output):
    marks = marked_lines(source)
    sites = call_sites(app)
    lines = innermost_lines(dwarf, sites)
    uuid, text_address, text_size = app_image(app)
    return_addresses = []
    for name in APP_FRAMES:
        found = [site for site, line in zip(sites, lines) if line == marks[name]]
        if len(found) != 1:
            sys.exit(f"compose.py: {len(found)} calls on the line marked '// frame: {name}', expected 1")
        return_addresses.append(found[0] + 4 - text_address + LOAD_ADDRESS)

    header_line, body_text = open(template).read().split("\n", 1)
    header = json.loads(header_line)
    body = json.loads(body_text)
    app_index = next(i for i, image in enumerate(body["usedImages"]) if image["name"] == TEMPLATE_APP)
    app_frames = [{"imageOffset": address - LOAD_ADDRESS, "imageIndex": app_index} for address in return_addresses]

    def with_app_frames(frames):
        """The template's frames with its app frame replaced by ours."""
        result = []
        for frame in frames:
            result.extend(app_frames if frame["imageIndex"] == app_index else [frame])
        return result

    for key, value in (("app_name", "App"), ("name", "App"), ("slice_uuid", uuid), ("app_version", "1.0"), ("build_version", "1")):
        header[key] = value
    body["procName"] = "App"
    body["procPath"] = APP_PATH
    body["asi"]["CoreFoundation"] = [body["asi"]["CoreFoundation"][0].replace(TEMPLATE_REASON, REASON)]
    body["lastExceptionBacktrace"] = with_app_frames(body["lastExceptionBacktrace"])
    body["threads"][0]["frames"] = with_app_frames(body["threads"][0]["frames"])
    body["asiBacktraces"] = [asi_backtrace(body, return_addresses)]
    image = body["usedImages"][app_index]
    image.update({"arch": "arm64", "base": LOAD_ADDRESS, "size": text_size, "uuid": uuid, "path": APP_PATH, "name": "App"})

    with open(f"{output}/App.ips", "w") as file:
        file.write(apple_json(header) + "\n" + ips_body(body_text, body))
    with open(f"{output}/App.crash", "w") as file:
        file.write(text_report(header, body))


def asi_backtrace(body, return_addresses):
    """The exception's `callStackSymbols`, as CoreFoundation writes them: a stripped app's frames as `App + offset`."""
    entries = []
    for line in body["asiBacktraces"][0].split("\n"):
        _, image, rest = line.split(None, 2)
        if image == TEMPLATE_APP:
            entries += [("App", f"0x{address:016x} App + {address - LOAD_ADDRESS}") for address in return_addresses]
        else:
            entries.append((image, rest))
    return "\n".join(f"{index:<4}{image:<36}{rest}" for index, (image, rest) in enumerate(entries))


def ips_body(template_text, body):
    """The body in the template's own layout: each top-level key keeps its line, compact or pretty as it was."""
    out = []
    lines = template_text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        match = re.match(r'  "(\w+)" : (.*?)(,?)$', line)
        if match and match.group(1) in body and match.group(2) not in ("[", "{"):
            out.append(f'  "{match.group(1)}" : {apple_json(body[match.group(1)])}{match.group(3)}')
        elif match and match.group(1) == "usedImages":
            out.append('  "usedImages" : [')
            index += 1
            while lines[index] != "],":
                index += 1
            images = []
            for image in body["usedImages"]:
                fields = ",\n".join(f'    "{key}" : {apple_json(value)}' for key, value in image.items())
                images.append("  {\n" + fields + "\n  }")
            out.append(",\n".join(images))
            out.append("],")
        else:
            out.append(line)
        index += 1
    return "\n".join(out)


def frame_line(index, image, address, symbol):
    return f"{index:<4}{image['name']:<30}\t{'0x%x' % address:>18} {symbol}"


def frame_lines(frames, images):
    lines = []
    for index, frame in enumerate(frames):
        image = images[frame["imageIndex"]]
        address = image["base"] + frame["imageOffset"]
        if "symbol" in frame:
            symbol = f"{frame['symbol']} + {frame['symbolLocation']}"
        else:
            symbol = f"0x{image['base']:x} + {frame['imageOffset']}"
        lines.append(frame_line(index, image, address, symbol))
    return lines


def thread_state(state):
    registers = [(f"x{i}", entry["value"]) for i, entry in enumerate(state["x"])]
    registers += [(name, state[name]["value"]) for name in ("fp", "lr", "sp", "pc", "cpsr", "far")]
    rows, row = [], ""
    for position, (name, value) in enumerate(registers):
        width = 16 if name != "cpsr" else 8
        cell = f"{name:>4}: 0x{value:0{width}x}"
        row = f"  {cell}" if not row else f"{row} {cell}"
        if position % 4 == 3 or name == "x28":
            rows.append(row)
            row = ""
    rows.append(row)
    esr = state["esr"]
    rows.append(f"   esr: 0x{esr['value']:08x} {esr['description'].strip()}")
    return [r for r in rows if r]


def text_report(header, body):
    images = body["usedImages"]
    crashed = body["threads"][body["faultingThread"]]
    exception = body["exception"]
    lines = [
        f"Process:               {body['procName']} [{body['pid']}]",
        f"Path:                  {body['procPath']}",
        f"Identifier:            {body['procName']}",
        f"Version:               {header['app_version']} ({header['build_version']})",
        f"Code Type:             {body['cpuType']} (Native)",
        f"Parent Process:        {body['parentProc']} [{body['parentPid']}]",
        f"Responsible:           {body['responsibleProc']} [{body['responsiblePid']}]",
        f"User ID:               {body['userID']}",
        "",
        f"Date/Time:             {body['captureTime']}",
        f"OS Version:            {body['osVersion']['train']}",
        "Report Version:        12",
        f"Anonymous UUID:        {body['crashReporterKey']}",
        "",
        f"Sleep/Wake UUID:       {body['sleepWakeUUID']}",
        "",
        f"Time Awake Since Boot: {body['uptime']} seconds",
        f"Time Since Wake:       {body['wakeTime']} seconds",
        "",
        f"System Integrity Protection: {body['sip']}",
        "",
        f"Crashed Thread:        {body['faultingThread']}  Dispatch queue: {crashed['queue']}",
        "",
        f"Exception Type:        {exception['type']} ({exception['signal']})",
        f"Exception Codes:       {exception['codes']}",
        "",
        f"Termination Reason:    Namespace SIGNAL, Code 6 Abort trap: 6",
        f"Terminating Process:   {body['procName']} [{body['pid']}]",
        "",
        "Application Specific Information:",
        *[message for messages in body["asi"].values() for message in messages],
        "",
        "",
        "Last Exception Backtrace:",
        *frame_lines(body["lastExceptionBacktrace"], images),
        "",
        f"Thread {body['faultingThread']} Crashed::  Dispatch queue: {crashed['queue']}",
        *frame_lines(crashed["frames"], images),
        "",
        "",
        f"Thread {body['faultingThread']} crashed with ARM Thread State (64-bit):",
        *thread_state(crashed["threadState"]),
        "",
        "",
        "Binary Images:",
    ]
    for image in sorted(images, key=lambda image: image["base"]):
        version = image.get("CFBundleShortVersionString", "*" if image["name"] != "App" else header["app_version"])
        identifier = image.get("CFBundleIdentifier", image["name"])
        end = image["base"] + image["size"] - 1
        lines.append(f"{'0x%x' % image['base']:>18} - {'0x%x' % end:>18} {identifier} ({version}) <{image['uuid']}> {image['path']}")
    lines += ["", "EOF", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main(*sys.argv[1:])
