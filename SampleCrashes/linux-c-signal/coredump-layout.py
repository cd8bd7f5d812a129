# gdb script (gdb -x coredump-layout.py): writes the report of the crash gdb has stopped at in systemd-coredump's layout,
# as its stack-trace code (libdwfl) writes it to the journal: the process line, each module with its build-id, then
# "#N  0x<pc> <symbol or n/a> (<module> + 0x<pc - module start>)", the symbol looked up at pc - 1 for callers' frames.
import os
import re
import subprocess

import gdb

out = []
inferior = gdb.selected_inferior()
comm = os.path.basename(inferior.progspace.filename)
out.append("Process %d (%s) of user %d dumped core." % (inferior.pid, comm, os.getuid()))
out.append("")
# Module starts: the lowest mapping of each file.
starts = {}
for line in gdb.execute("info proc mappings", to_string=True).splitlines():
    fields = line.split()
    if len(fields) >= 5 and fields[0].startswith("0x") and fields[-1].startswith("/"):
        starts[fields[-1]] = min(starts.get(fields[-1], 1 << 64), int(fields[0], 16))
for path in sorted(starts, key=starts.get):
    notes = subprocess.run(["readelf", "-n", path], capture_output=True, text=True).stdout
    found = re.search(r"Build ID: ([0-9a-f]+)", notes)
    if found:
        out.append("Module %s with build-id %s" % (path, found.group(1)))
out.append("Stack trace of thread %d:" % gdb.selected_thread().ptid[1])
frame = gdb.newest_frame()
number = 0
while frame is not None and number < 64:
    pc = frame.pc()
    lookup = pc if number == 0 else pc - 1
    path = gdb.solib_name(lookup) or inferior.progspace.filename
    symbol = gdb.execute("info symbol 0x%x" % lookup, to_string=True)
    name = symbol.split(" + ")[0].split(" in section ")[0].strip() if not symbol.startswith("No symbol") else "n/a"
    module = os.path.basename(path)
    start = starts.get(os.path.realpath(path), starts.get(path, 0))
    out.append("#%-2d 0x%016x %s (%s + 0x%x)" % (number, pc, name, module, pc - start))
    frame = frame.older()
    number += 1
with open(os.environ["COREDUMP_REPORT"], "w") as report:
    report.write("\n".join(out) + "\n")
