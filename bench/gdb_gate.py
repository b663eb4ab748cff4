# SPDX-License-Identifier: GPL-2.0
"""Runs INSIDE gdb, for the QEMU-gdbstub run only: bring the guest to the
very instruction where our stub's kgdbwait stop leaves it, then disconnect
(QEMU keeps the VM paused), so a fresh gdb can attach at the same place.

The guest waits in kgdbwait (our stub polling ttyS1).  We connect to QEMU's
stub (the VM stops inside that poll loop), plant a QEMU breakpoint on the
instruction after the int3 in kgdb_breakpoint(), continue, and the host
side (bench/run.py) sends "$c#63" on ttyS1: our stub resumes the kernel,
which stops at once on QEMU's breakpoint.

Environment: BENCH_TARGET, BENCH_READY (file created when the breakpoint is
planted; the host then sends the continue packet), BENCH_KASLR_OFFSET (the
kernel's run-time offset from its link address, read off the serial log:
KASLR is on by default and QEMU's stub cannot tell gdb).
"""

import os

import gdb

gdb.execute("set pagination off")
gdb.execute("set confirm off")
offset = int(os.environ.get("BENCH_KASLR_OFFSET", "0"), 0)
if offset:      # QEMU's stub has no qOffsets: say where the kernel runs
    gdb.execute(f"symbol-file -o {offset:#x} {gdb.current_progspace().filename}",
                to_string=True)
gdb.execute("target remote " + os.environ["BENCH_TARGET"], to_string=True)
after = None
dis = gdb.selected_frame().architecture().disassemble(
    int(gdb.parse_and_eval("(unsigned long)&kgdb_breakpoint")), count=16)
for i, insn in enumerate(dis):
    if insn["asm"].strip().startswith("int3"):
        after = dis[i + 1]["addr"]
        break
if after is None:
    raise gdb.GdbError("no int3 in kgdb_breakpoint")
gdb.execute(f"break *{after:#x}", to_string=True)
open(os.environ["BENCH_READY"], "w").write(f"{after:#x}\n")
gdb.execute("continue", to_string=True)
pc = int(gdb.parse_and_eval("$pc"))
print(f"gate: stopped at {pc:#x} (wanted {after:#x})")
gdb.execute("delete", to_string=True)
gdb.execute("disconnect", to_string=True)
