# SPDX-License-Identifier: GPL-2.0
"""One session, three lifetimes (issue 11, docs/debugging-early-boot.md):
breakpoints set at the loader's stop (ekdb.loader=wait) are handed over across
ExitBootServices and the jump in the boot-info record and fire in the
kernel, in the same gdb connection or kdb session; kgdbwait stops in that
session; the full core's handoff keeps it.  A breakpoint in the jump
window is refused at the loader's stop and nothing else is lost."""

import os
import re
import signal

from gdb_boot import (ACKS_ON, BOOT_COMPLETE, CONSOLE, cont_expect_error, cont_to_stop,
                      frames, stop_func)
from kdb_session import ENTRY, PROMPT, Kdb
from qemu import BOOT_TIMEOUT
from test_jump_window import WINDOW_REPLY, window
from test_loader_debug import KERNEL_ELF, boot_to_loader_stop, gdb_at_loader_stop, symbol

# KASLR on (the default): at the loader's stop gdb learns the kernel's offset from
# qOffsets, kdb's symbols are the moved image's own table
CHAIN = f"ekdb.loader=wait {CONSOLE} ekgdboc=ttyS1 kgdbwait"
HANDED_OVER = (r"kgdb: handoff from the loader: (\d+) breakpoints \((\d+) sw, (\d+) hw\) on "
               r"ttyS1 \(0x2f8, 115200 baud\), (gdb|kdb) session")
HANDOFF = r"ekdb: handoff: (\d+) breakpoints \((\d+) sw, (\d+) hw\) kept, .* kdb\+gdb session kept"
BAD = r"Oops|Kernel panic|refused"


def test_gdb_one_session_three_lifetimes(machine, gdb):
    """At the loader's stop: `break start_kernel`, `hbreak trap_init` (a
    hardware breakpoint, armed again in the kernel), `break sched_init`
    (after the full core's handoff); one `target remote` for all: start_kernel,
    then kgdbwait, then trap_init, then sched_init stop in turn."""
    m, _, g = gdb_at_loader_stop(machine, gdb, cmdline=CHAIN)
    assert frames(g.cmd("bt"))[:2] == ["kgdb_breakpoint", "ldr_dbg_wait"]

    g.cmd("break start_kernel")
    g.cmd("hbreak trap_init")
    g.cmd("break sched_init")

    st = cont_to_stop(g)                                    # the loader exits, jumps
    assert st.get("reason") == "breakpoint-hit" and st.get("bkptno") == "1", st
    assert stop_func(st) == "start_kernel", st
    assert frames(g.cmd("bt"))[:2] == ["start_kernel", "x86_64_start_kernel"]
    assert "exiting boot services, jumping to kernel" in m.output(0)
    m.expect_not(r"ekdb reference kernel")                  # setup_arch has not run

    st = cont_to_stop(g)                                    # kgdbwait, same session
    assert st.get("reason") == "signal-received", st
    assert frames(g.cmd("bt"))[:3] == ["kgdb_breakpoint", "ekdb_early_init", "setup_arch"]
    c = m.wait_for(HANDED_OVER, timeout=BOOT_TIMEOUT)
    assert c.group(4) == "gdb" and c.group(1) == "3", c.group(0)
    assert (c.group(2), c.group(3)) == ("2", "1"), c.group(0)
    assert "Registered I/O driver ekgdboc" not in m.output(0)   # not set up a second time

    st = cont_to_stop(g)                                    # the hardware breakpoint
    assert st.get("reason") == "breakpoint-hit" and st.get("bkptno") == "2", st
    assert stop_func(st) == "trap_init", st

    st = cont_to_stop(g)                                    # after the handoff
    assert st.get("reason") == "breakpoint-hit" and st.get("bkptno") == "3", st
    assert stop_func(st) == "sched_init", st
    h = m.wait_for(HANDOFF, timeout=BOOT_TIMEOUT)
    assert h.group(1) == "3", h.group(0)

    g.cmd("delete")
    g.cont()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    assert len(re.findall(r"\$qSupported", "\n".join(g.transcript))) <= 1


def test_gdb_jump_window_refused_at_the_loader(machine, gdb):
    """At the loader's stop the kernel's jump window is refused (the loader's
    own core answers with the window's reason), and so is the kernel's own
    debugger code, and an address in neither image (firmware memory, unmapped,
    non-canonical); the other breakpoints are kept and fire in the kernel."""
    m, _, g = gdb_at_loader_stop(machine, gdb, cmdline=CHAIN)
    off = m.kaslr_offset()                                   # the loader moved the kernel
    insns, end = window()
    for a in (insns[0], insns[len(insns) // 2], insns[-1]):
        out = g.cmd(f"maint packet Z0,{a + off:x},1")
        assert re.search(WINDOW_REPLY, out), f"{a:#x}: {out}"
    out = g.cmd(f"maint packet Z0,{symbol(KERNEL_ELF, 'gdb_session_run') + off:x},1")
    assert re.search(r'received: "E\.01\.in the debugger\'s own code', out), out
    # neither the loader's nor the kernel's code: firmware memory the loader can
    # read (0x100000, mapped 1:1), not mapped, not canonical: an error each time
    assert "Cannot access" not in g.cmd("x/1xb 0x100000")   # readable: refused as not code
    for bad in (0x100000, 0xdead00000000, 0x8000000000000000):
        out = g.cmd(f"maint packet Z0,{bad:x},1")
        assert re.search(r'received: "E[0-9a-f]{2}"', out), f"{bad:#x}: {out}"

    g.cmd("break start_kernel")
    g.cmd("break x86_64_start_kernel")                       # after its prologue: the window
    cont_expect_error(g, r"Cannot insert breakpoint 2")
    assert frames(g.cmd("bt"))[0] == "kgdb_breakpoint"       # still at the loader's stop
    g.cmd("delete 2")
    st = cont_to_stop(g)
    assert stop_func(st) == "start_kernel", st
    g.cmd("delete")
    st = cont_to_stop(g)                                     # kgdbwait
    assert frames(g.cmd("bt"))[:2] == ["kgdb_breakpoint", "ekdb_early_init"]
    g.cont()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_kdb_one_session_three_lifetimes(machine):
    """kdb at the loader's stop: `bp start_kernel`, `bph trap_init`, a
    variable set with `set` (and `bp` outside both images refused); `go`:
    kdb again at start_kernel with `bl` showing the same numbers and the variable still set; `go`: kgdbwait;
    `go`: trap_init; then the boot completes."""
    m, _ = boot_to_loader_stop(machine, cmdline=CHAIN, ports=("unix", "unix"))
    k = Kdb(m, port=1)
    k.wait(r"Entering kdb \(current=0x0+, pid 0\) on processor 0 due to Keyboard Entry",
           fail_on=None)
    k.wait(PROMPT, fail_on=None)
    off = m.kaslr_offset()                                   # the loader moved the kernel
    sk, ti = symbol(KERNEL_ELF, "start_kernel") + off, symbol(KERNEL_ELF, "trap_init") + off
    assert k.cmd("bp start_kernel").startswith(f"Instruction(i) BP #0 at 0x{sk:x} (start_kernel)")
    assert k.cmd("bph trap_init").startswith(f"Instruction(Register) BP #1 at 0x{ti:x} (trap_init)")
    # bad input: a breakpoint neither in the loader nor in the kernel (firmware
    # memory the loader can read, then an unmapped address): refused, nothing lost
    for bad in ("0x100000", "0xdead00000000"):
        out = k.cmd(f"bp {bad}")
        assert "Invalid address" in out and "BP #" not in out, (bad, out)
    k.cmd("set HANDOFFTEST=loader")
    bl_loader = k.cmd("bl")

    k.go(rf"Instruction\(i\) breakpoint #0 at 0x{sk:x}")
    e = k.wait(ENTRY)
    assert e.group(3) == f"Breakpoint @ 0x{sk:x}", e.group(0)
    k.wait(PROMPT)
    bl = k.cmd("bl")
    assert re.findall(r"BP #(\d+) at 0x([0-9a-f]+)", bl) == \
        re.findall(r"BP #(\d+) at 0x([0-9a-f]+)", bl_loader) == [("0", f"{sk:x}"), ("1", f"{ti:x}")], bl
    assert "HANDOFFTEST=loader" in k.cmd("env")
    assert "x86_64_start_kernel" in k.cmd("bt")

    e = k.go(ENTRY)                                          # kgdbwait
    assert e.group(3) == "Keyboard Entry", e.group(0)
    k.wait(PROMPT)
    assert "ekdb_early_init" in k.cmd("bt")
    assert re.search(HANDED_OVER, m.output(0)).group(4) == "kdb"

    k.go(rf"Instruction\(Register\) breakpoint #1 at 0x{ti:x}")
    k.wait(PROMPT)
    k.cmd("bc *")
    k.type("go")
    k.enter()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_gdb_hardware_breakpoint_armed_at_takeover(machine, gdb):
    """`hbreak start_kernel` alone at the loader's stop: DR7 is 0 through the
    jump, so this stop proves the takeover armed the slot again before
    start_kernel (no other stop came first to do it)."""
    m, _, g = gdb_at_loader_stop(machine, gdb, cmdline=CHAIN)
    g.cmd("hbreak start_kernel")
    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and st.get("bkptno") == "1", st
    assert stop_func(st) == "start_kernel", st
    assert int(g.cmd("p/x $dr7").split("=")[1], 16) & 0xff == 0   # slots off while stopped
    g.cmd("delete")
    st = cont_to_stop(g)                                     # kgdbwait, same connection
    assert frames(g.cmd("bt"))[:2] == ["kgdb_breakpoint", "ekdb_early_init"]
    g.cont()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_gdb_reconnects_at_start_kernel_under_kaslr(machine, gdb):
    """KASLR on: a first gdb plants `break start_kernel` at the loader's
    stop and vanishes there (killed, no detach).  A second gdb connecting
    at that stop asks the kernel's core (not the loader's) for qOffsets:
    it must get the kernel's offset, so `bt` names start_kernel and
    `x86_64_start_kernel` instead of `?? ()` (issue 19, planted bug 6:
    the KASLR offset not set when the kernel takes over a handed-over
    session)."""
    m, _, g = gdb_at_loader_stop(machine, gdb, cmdline=CHAIN)
    g.cmd("break start_kernel")
    st = cont_to_stop(g)
    assert stop_func(st) == "start_kernel", st
    offset = m.kaslr_offset()
    assert offset, "KASLR is off: this test needs a moved kernel"
    try:
        os.killpg(g.proc.pid, signal.SIGKILL)               # gone without a detach
    except ProcessLookupError:
        pass
    g.proc.wait()

    g2 = gdb()
    for c in ACKS_ON:
        g2.cmd(c)
    g2.connect(m.socket_path(1))
    bt = g2.cmd("bt")
    assert frames(bt)[:2] == ["start_kernel", "x86_64_start_kernel"], bt
    assert "??" not in bt.splitlines()[0], bt
    pc = int(re.search(r"0x([0-9a-f]+)", g2.cmd("p/x $pc")).group(1), 16)
    assert pc == symbol(KERNEL_ELF, "start_kernel") + offset, (hex(pc), hex(offset))
    g2.cont()
    st = g2.wait_stop(timeout=BOOT_TIMEOUT)                 # kgdbwait, the new session
    assert frames(g2.cmd("bt"))[:2] == ["kgdb_breakpoint", "ekdb_early_init"]
    g2.cont()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_kdb_cmd_enable_holds_in_every_lifetime(machine):
    """kdb.cmd_enable=0x28 (register read + inspection) on the line: the
    loader's kdb refuses memory reads and breakpoints as the kernel's does,
    and the session handed over to the kernel keeps refusing them (the
    loader's kdb used to allow every command and hand that over to the
    kernel); rd and a plain go work in both."""
    m, _ = boot_to_loader_stop(machine, cmdline=f"{CHAIN} kdb.cmd_enable=0x28",
                               ports=("unix", "unix"))
    k = Kdb(m, port=1)
    k.wait(r"Entering kdb \(current=0x0+, pid 0\) on processor 0 due to Keyboard Entry",
           fail_on=None)
    k.wait(PROMPT, fail_on=None)

    def restricted(lifetime):
        assert k.cmd("md start_kernel") == "diag: -22: Permission denied", lifetime
        assert k.cmd("bp start_kernel") == "diag: -22: Permission denied", lifetime
        assert "  ip: " in k.cmd("rd"), lifetime

    restricted("loader")
    e = k.go(ENTRY)                                          # kgdbwait, same session
    assert e.group(3) == "Keyboard Entry", e.group(0)
    k.wait(PROMPT)
    assert "ekdb_early_init" in k.cmd("bt")
    restricted("kernel")
    k.type("go")
    k.enter()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
