# SPDX-License-Identifier: GPL-2.0
"""The kernel's jump window (issue 11, docs/debugging-early-boot.md): the
instructions from _start to the debugger's takeover in
x86_64_start_kernel(), where no breakpoint can fire (no kernel IDT yet).
Every one of them is refused with a clear message, gdb (an "E." reply
with the reason, software and hardware) and kdb alike; the instruction
right after the window is not a window address; nothing else is lost:
the other breakpoints still fire.
"""

import os
import re
import subprocess

from conftest import KERNEL_ELF
from gdb_boot import attach, boot_to_kgdbwait, cont_expect_error, cont_to_stop, stop_func
from kdb_session import BOOT_COMPLETE, ENTRY, PROMPT, Kdb, boot_kdb
from qemu import BOOT_TIMEOUT, REPO

WINDOW_REPLY = r"E\.c8\.in the kernel's jump window \(_start to the debugger's " \
               r"takeover, before any debug vector\): a breakpoint there cannot fire, refused"
KDB_REFUSED = ("in the kernel's jump window (_start to the debugger's takeover, before "
               "any debug vector): a breakpoint there cannot fire, refused")


def window():
    """(instruction link addresses, end) of the window, from tools/jump-window.sh."""
    out = subprocess.run([os.path.join(REPO, "tools", "jump-window.sh"), KERNEL_ELF],
                         capture_output=True, text=True, check=True).stdout
    insns = [int(m.group(1), 16) for m in re.finditer(r"^\s*([0-9a-f]+):\t", out, re.M)]
    m = re.search(r"^jump window: (\d+) instructions, \d+ bytes \(0x([0-9a-f]+)\.\.0x([0-9a-f]+)\)$",
                  out, re.M)
    assert m and int(m.group(1)) == len(insns), out
    assert int(m.group(2), 16) == insns[0]
    return insns, int(m.group(3), 16)


def test_window_is_a_handful_of_instructions():
    """The window is what the docs say: from _start, ending right after the
    call of the takeover, at most a handful (32) of instructions."""
    insns, end = window()
    nm = subprocess.run(["nm", KERNEL_ELF], capture_output=True, text=True,
                        check=True).stdout
    syms = {f[2]: int(f[0], 16) for f in (l.split() for l in nm.splitlines()) if len(f) == 3}
    assert insns[0] == syms["_start"] == syms["__jump_window_start"]
    assert end == syms["__jump_window_end"]
    assert syms["x86_64_start_kernel"] in insns       # its prologue is in the window
    assert len(insns) <= 32, len(insns)
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn",
                          f"--start-address={insns[-1]:#x}", f"--stop-address={end:#x}",
                          KERNEL_ELF], capture_output=True, text=True, check=True).stdout
    assert re.search(r"call\s+[0-9a-f]+ <ekdb_handoff_takeover>", dis), dis


def test_gdb_refuses_every_window_address(machine, gdb):
    """At kgdbwait: a Z0/Z1 on each instruction of the window gets the
    window's E. reply; the first address after it does not; `break
    x86_64_start_kernel` (after its prologue: in the window) makes gdb's
    continue fail, and once deleted the other breakpoints still fire."""
    m = boot_to_kgdbwait(machine)
    g = attach(machine, gdb, m)
    insns, end = window()
    # run-time addresses (a randomized base moves them all alike)
    offset = int(g.cmd("p/x &_start").split("=")[1], 16) - insns[0]

    for a in insns:
        out = g.cmd(f"maint packet Z0,{a + offset:x},1")
        assert re.search(WINDOW_REPLY, out), f"{a:#x}: {out}"
    for a in (insns[0], insns[-1]):
        out = g.cmd(f"maint packet Z1,{a + offset:x},1")
        assert re.search(WINDOW_REPLY, out), out
    out = g.cmd(f"maint packet Z0,{end + offset:x},1")      # after it: the debugger's code
    assert re.search(r'received: "E\.01\.in the debugger\'s own code', out), out
    out = g.cmd(f"maint packet Z0,{insns[0] + offset - 1:x},1")
    assert not re.search(WINDOW_REPLY, out), out

    g.cmd("break mm_init")
    g.cmd("break x86_64_start_kernel")
    cont_expect_error(g, r"Cannot insert breakpoint 2")
    assert "kgdb_breakpoint" in g.cmd("bt")                   # still stopped, still talking
    g.cmd("delete 2")
    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "mm_init", st
    g.cmd("delete")
    g.cont()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_kdb_refuses_window(machine):
    """kdb: bp/bph on _start and x86_64_start_kernel say why they are
    refused; nothing is added to the table; a bp after it still fires."""
    m = boot_kdb(machine)
    k = Kdb(m)
    for cmd, arg in (("bp", "_start"), ("bp", "x86_64_start_kernel"), ("bph", "_start")):
        out = k.cmd(f"{cmd} {arg}")
        assert out.splitlines()[0] == f"{arg}: {KDB_REFUSED}", out
        assert "diag: -" in out and "Permission denied" in out, out
    assert "BP #" not in k.cmd("bl")
    out = k.cmd("bp mm_init")
    assert out.startswith("Instruction(i) BP #0 at "), out
    k.go(r"Instruction\(i\) breakpoint #0 at 0x[0-9a-f]+")
    e = k.wait(ENTRY)
    assert "Breakpoint @" in e.group(3)
    k.wait(PROMPT)
    k.cmd("bc 0")
    k.go(BOOT_COMPLETE)
