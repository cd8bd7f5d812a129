#!/usr/bin/env python3
"""Writes a copy of an ELF binary whose first DW_AT_sibling (DW_FORM_ref4) points back at its own DIE: a DIE walk that
follows siblings without checking that they move forward never ends on it. Needs llvm-dwarfdump and readelf.
Usage: sibling-cycle.py INPUT OUTPUT"""
import re
import subprocess
import sys

source, target = sys.argv[1], sys.argv[2]
dump = subprocess.run(["llvm-dwarfdump", "--debug-info", "-v", source], capture_output=True, text=True, check=True).stdout
die = None
unit = None
for line in dump.splitlines():
    if m := re.match(r"0x([0-9a-f]+): Compile Unit", line):
        unit = int(m.group(1), 16)
    elif m := re.match(r"0x([0-9a-f]+):\s+DW_TAG_", line):
        die = int(m.group(1), 16)
    elif m := re.search(r"DW_AT_sibling \[DW_FORM_ref4\]\s+\(cu \+ 0x([0-9a-f]+)", line):
        sibling = int(m.group(1), 16)
        break
else:
    sys.exit(f"{source}: no DW_AT_sibling in DW_FORM_ref4")
sections = subprocess.run(["readelf", "-S", "-W", source], capture_output=True, text=True, check=True).stdout
info = re.search(r"\.debug_info\s+\S+\s+[0-9a-f]+\s+([0-9a-f]+)", sections)
if not info:
    sys.exit(f"{source}: no .debug_info")
start = int(info.group(1), 16) + die
data = bytearray(open(source, "rb").read())
old = (sibling).to_bytes(4, "little")
at = data.find(old, start, start + 64)
if at < 0:
    sys.exit(f"{source}: the sibling reference of the DIE at {die:#x} was not found")
data[at:at + 4] = (die - unit).to_bytes(4, "little")
open(target, "wb").write(data)
print(f"{target}: the DIE at {die:#x} names itself as its sibling (was {unit + sibling:#x})")
