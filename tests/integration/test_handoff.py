# SPDX-License-Identifier: GPL-2.0
"""The handoff (docs/handoff.md): one debugging session from setup_arch()
into the running system.  Breakpoints planted at kgdbwait (kdb and gdb;
software, hardware, watchpoint, disabled) fire after the full core took
over, with their numbers and states; kdb keeps its history, environment
and macros; gdb stays connected; the early storage is never touched again
(ekdb.debug_early=unmap makes any use of it fault); panic, oops (thread and
interrupt) and an early fault enter the debugger; bad kgdboc= values are
refused with a message and the boot goes on."""

import re
import subprocess

import pytest

from conftest import KERNEL_ELF
from gdb_boot import STOP_TIMEOUT, attach, cont_to_stop, stop_func
from kdb_session import (BAD, BOOT_COMPLETE, CONSOLE, ENTRY, PROMPT, UP, Kdb,
                         boot_kdb)
from qemu import BOOT_TIMEOUT

KDB_HANDOFF = f"{CONSOLE} ekgdboc=ttyS0 kgdboc=ttyS0 kgdbwait ekdb.debug_early=unmap"
HANDOFF = (r"ekdb: handoff: (\d+) breakpoints \((\d+) sw, (\d+) hw\) kept, (\d+) installed, "
           r"([^\r\n]*), kdb\+gdb session kept, (\d+) KiB of early storage freed")

pytestmark = pytest.mark.qemu


def bl_lines(k):
    """bl without the hit counts (a breakpoint that fired since has more)."""
    return [l for l in k.cmd("bl").splitlines() if l.strip() and not l.strip().startswith("hits=")]


def go_to_entry(k, timeout=BOOT_TIMEOUT):
    """go; wait for the next kdb entry; return (entry match, text since go)."""
    start = k.mark()
    k.type("go")
    k.enter()
    e = k.wait(ENTRY, timeout=timeout)
    k.wait(PROMPT)
    return e, k.since(start)


def test_kdb_session_across_handoff(machine):
    m = boot_kdb(machine, cmdline=KDB_HANDOFF, smp=2)
    k = Kdb(m)
    out = k.cmd("bp sched_init")                              # software
    sched_init = re.search(r"BP #0 at (0x[0-9a-f]+) \(sched_init\)", out).group(1)
    out = k.cmd("bph smp_init")                               # hardware execute
    smp_init = re.search(r"BP #1 at (0x[0-9a-f]+) \(smp_init\)", out).group(1)
    out = k.cmd("bph jiffies dataw 8")                        # watchpoint (tick)
    jiffies = re.search(r"BP #2 at (0x[0-9a-f]+) \(jiffies\)", out).group(1)
    assert "BP #3" in k.cmd("bp rest_init")                   # disabled below
    k.cmd("bd 3")
    k.cmd("set LINES 40")
    k.cmd("defcmd hmd")
    k.cmd("md4c1 jiffies")
    k.cmd("endefcmd")
    k.cmd("lsmod")                                            # recalled after the handoff
    before = bl_lines(k)
    assert len(before) == 8, before

    e, text = go_to_entry(k)
    h = re.search(HANDOFF, text)
    assert h, text
    assert h.group(1, 2, 3) == ("4", "2", "2"), h.group(0)
    assert int(h.group(4)) == 3, h.group(0)                   # all but the disabled one
    assert int(h.group(6)) >= 4, h.group(0)
    assert e.group(3) == f"Breakpoint @ {sched_init}", text
    assert f"Instruction(i) breakpoint #0 at {sched_init}" in text, text

    # the same table: numbers, states, owners (line by line)
    assert bl_lines(k) == before
    # the same shell: history typed before the handoff, environment, macros
    _, out = k.line([UP, UP, UP, UP])                         # bl, go, bl, lsmod
    assert re.search(r"printk\s+.*Live", out), out
    assert "LINES=40" in k.cmd("env")
    k.type("hmd")                                             # the macro runs md4c1 jiffies
    k.enter()
    k.wait(rf"kdb> md4c1 jiffies\r?\n{jiffies} [0-9a-f]{{8}}")
    k.wait(PROMPT)
    # the history ring grew at the handoff (8 lines early, 32 now): the
    # first of 20 new lines is still reachable
    for i in range(20):
        k.cmd(f"md4c1 jiffies+{8 * i}")
    echo, _ = k.line([UP] * 20)
    assert echo.strip() == "md4c1 jiffies+0", echo

    e, text = go_to_entry(k)                                  # hw execute on smp_init
    assert f"Instruction(Register) breakpoint #1 at {smp_init}" in text, text
    e, text = go_to_entry(k)                                  # the watchpoint
    assert "Data Write breakpoint #2" in text, text
    assert "rest_init" not in text, "disabled breakpoint #3 fired"
    k.cmd("bc 2")

    # a breakpoint set after the handoff, in code that only CPU 1 runs
    k.cmd("bph ksoftirqd_count+8 dataw 8")
    e, text = go_to_entry(k)
    assert e.group(2) == "1", text                            # processor 1
    k.cmd("bc *")
    k.type("go")
    k.enter()
    # the boot may have completed before CPU 1 wrote the watched word
    m.wait_for(BOOT_COMPLETE, from_start=True, timeout=BOOT_TIMEOUT)
    m.wait_for(r"ekdb:/# ", timeout=BOOT_TIMEOUT)
    k.type("echo running\r")                      # the console shell answers: resumed
    k.wait(r"\nrunning\r?\n", timeout=BOOT_TIMEOUT)
    # the early storage was unmapped: any use of it would have oopsed
    assert not re.search(BAD, m.output(0)), m.output(0)[-2000:]


def test_breakpoint_numbers_with_a_hole_kept(machine):
    """#0, #1, #2 set at kgdbwait and #1 cleared (a hole in the early
    table): after the handoff `bl` still shows #0 and #2 and no #1, and #2
    reports itself as #2 when it fires (issue 19, planted bug 1: the
    table renumbered when it moves)."""
    m = boot_kdb(machine, cmdline=KDB_HANDOFF)
    k = Kdb(m)
    out = k.cmd("bp sched_init")
    sched_init = re.search(r"BP #0 at (0x[0-9a-f]+) \(sched_init\)", out).group(1)
    assert "BP #1 at" in k.cmd("bp smp_init")
    out = k.cmd("bp rest_init")
    rest_init = re.search(r"BP #2 at (0x[0-9a-f]+) \(rest_init\)", out).group(1)
    k.cmd("bc 1")
    before = bl_lines(k)
    assert re.findall(r"BP #(\d+)", "\n".join(before)) == ["0", "2"], before

    e, text = go_to_entry(k)
    assert re.search(HANDOFF, text), text
    assert f"Instruction(i) breakpoint #0 at {sched_init}" in text, text
    after = bl_lines(k)
    # the same entries; #0 now counts its hit
    assert [l for l in after if "hits=" not in l] == before, (before, after)
    assert re.findall(r"BP #(\d+)", "\n".join(after)) == ["0", "2"], after
    assert re.search(rf"BP #2 at {rest_init} \(rest_init\)", "\n".join(after)), after
    e, text = go_to_entry(k)
    assert f"Instruction(i) breakpoint #2 at {rest_init}" in text, text
    k.cmd("bc *")
    k.type("go")
    k.enter()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_kgdboc_kgdbwait_without_ekgdboc_waits(machine, gdb):
    """`kgdboc=ttyS1 kgdbwait` and no ekgdboc= (Linux's most common line):
    no early debugger, so kgdbwait waits as soon as the IRQ serial driver
    registers for the debugger, before the boot completes; gdb attaches
    there and `continue` lets the boot go on (issue 19, planted bug 7)."""
    m = machine(cmdline=f"{CONSOLE} kgdboc=ttyS1 kgdbwait", ports=("unix", "socket"))
    m.wait_for(r"kgdb: Waiting for connection from remote gdb", timeout=BOOT_TIMEOUT,
               fail_on=BOOT_COMPLETE)
    out = m.output(0)
    assert "kgdb: Registered I/O driver" in out or "-> kgdboc ttyS1" in out, out[-3000:]
    g = attach(machine, gdb, m)
    bt = g.cmd("bt")
    assert "kgdb_breakpoint" in bt, bt
    m.expect_not(BOOT_COMPLETE)                            # it waited
    g.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_more_breakpoints_than_the_early_table(machine):
    m = boot_kdb(machine, cmdline=KDB_HANDOFF)
    k = Kdb(m)
    k.cmd("bp sched_init")
    go_to_entry(k)
    # setup_arch has run for good: plant 40 (> 32 early entries) in it
    k.cmd("set LINES 200")
    for i in range(1, 41):
        out = k.cmd(f"bp setup_arch+{i}")
        assert f"BP #{i}" in out, out
    bl = k.cmd("bl")
    assert "BP #40 at" in bl and bl.count("is enabled") == 41, bl
    assert "ENOSPC" not in bl and "Table full" not in bl
    k.cmd("bc *")
    k.type("go")
    k.enter()
    k.wait(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_gdb_session_across_handoff(machine, gdb):
    cmd = f"{CONSOLE} ekgdboc=ttyS1 kgdboc=ttyS1 kgdbwait ekdb.debug_early=unmap"
    m = machine(cmdline=cmd, smp=2, ports=("unix", "socket"))
    m.wait_for(r"kgdb: Waiting for connection from remote gdb", timeout=BOOT_TIMEOUT)
    g = attach(machine, gdb, m)
    g.cmd("break sched_init")
    g.cmd("hbreak smp_init")
    g.cmd("watch jiffies")
    st = cont_to_stop(g)
    assert stop_func(st) == "sched_init", st
    m.wait_for(HANDOFF, from_start=True, timeout=10)
    st = cont_to_stop(g)
    assert stop_func(st) == "smp_init", st
    st = cont_to_stop(g)
    assert st.get("reason") == "watchpoint-trigger", st
    info = g.cmd("info breakpoints")
    assert re.search(r"sched_init.*\n\s+breakpoint already hit 1 time", info), info
    assert re.search(r"smp_init.*\n\s+breakpoint already hit 1 time", info), info
    assert re.search(r"jiffies\n\s+breakpoint already hit 1 time", info), info
    # more than 1024 entries: the late table grows while the machine is
    # stopped.  always-inserted makes gdb plant each one at once (Z0); they
    # are all deleted (text restored) before anything runs.
    g.cmd("delete")
    g.cmd("set breakpoint always-inserted on")
    base = int(re.search(r"0x([0-9a-f]+)", g.cmd("p/x &sched_init")).group(1), 16)
    n = 1100
    for i in range(n):
        g.cmd(f"break *{base + i:#x}")
    out = g.monitor("bl | grep #1099")
    assert re.search(rf"BP #{n - 1} at", out), out[-500:]
    g.cmd("delete")
    assert "BP #" not in g.monitor("bl")
    g.cmd("set breakpoint always-inserted off")
    g.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    assert not re.search(BAD, m.output(0))


def test_gdb_detached_before_handoff_reattached_after(machine, gdb):
    """At kgdbwait a first gdb plants a breakpoint and dies without detaching:
    the next gdb to connect gets a clean table (Linux's rule: a new gdb
    knows nothing of what a vanished one planted).  That gdb plants one
    and detaches: its breakpoints go with its session, so the boot runs
    through the handoff without stopping.  A third gdb attaches to the
    running kernel on the same line (now the IRQ driver's), sees no
    leftover breakpoint, and its own breakpoint fires."""
    cmd = f"{CONSOLE} ekgdboc=ttyS1 kgdboc=ttyS1 kgdbwait ekdb.debug_early=unmap"
    m = machine(cmdline=cmd, ports=("unix", "socket"))
    m.wait_for(r"kgdb: Waiting for connection from remote gdb", timeout=BOOT_TIMEOUT)
    g0 = attach(machine, gdb, m)
    g0.cmd("set breakpoint always-inserted on")           # planted now, not at continue
    g0.cmd("break smp_init")
    assert "smp_init" in g0.monitor("bl")
    g0.proc.kill()                                         # gone without a detach
    g0.proc.wait()

    g = attach(machine, gdb, m)
    assert "BP #" not in g.monitor("bl"), "a vanished gdb's breakpoint is still there"
    g.cmd("set breakpoint always-inserted on")
    g.cmd("break sched_init")
    assert "sched_init" in g.monitor("bl")
    g.detach()
    g.close()
    m.wait_for(HANDOFF, timeout=BOOT_TIMEOUT)
    m.wait_for(r"ekdb:/# ", timeout=BOOT_TIMEOUT)          # ran through: no stop
    assert "Entering kdb" not in m.output(0)

    g2 = gdb()
    g2.cmd("set remote noack-packet off")
    g2.connect(m.socket_path(1), timeout=BOOT_TIMEOUT)     # its first '$' breaks in
    assert "BP #" not in g2.monitor("bl")                  # nothing left behind
    g2.cmd("break run_command")
    g2.cont()
    k = Kdb(m)
    k.type("uptime\r")                                     # the console shell runs it
    st = g2.wait_stop(timeout=STOP_TIMEOUT)
    assert stop_func(st) == "run_command", st
    g2.cmd("delete")
    g2.detach()
    k.wait(r"up \d+", timeout=BOOT_TIMEOUT)                # the command completes
    assert not re.search(BAD, m.output(0))


def test_breakpoints_on_what_the_handoff_uses(machine):
    """A breakpoint on the allocator (kmalloc, which the handoff calls for
    its storage) and a watchpoint on a variable the handoff writes (the
    page allocator's free count, when the early storage is given back)
    both stop inside the handoff without deadlock or recursion; kdb works
    there, and go completes the handoff and the boot."""
    # the early storage freed (not unmapped): the free count changes
    m = boot_kdb(machine, cmdline=KDB_HANDOFF.replace(" ekdb.debug_early=unmap", ""))
    k = Kdb(m)
    k.cmd("set LINES 10000")
    k.cmd("bp mm_init")
    go_to_entry(k)
    k.cmd("bp kmalloc")
    for _ in range(50):                                    # kmalloc from the handoff
        e, text = go_to_entry(k)
        if "ekdb_late_init" in k.cmd("bt"):
            break
    else:
        raise AssertionError("kmalloc never stopped inside the handoff")
    assert "Breakpoint @" in e.group(3), e.group(0)
    assert "handoff:" not in m.output(0)                   # not done yet
    k.cmd("bc *")
    out = k.cmd("bph nr_free dataw 8")
    assert "Data Write BP #" in out, out
    for _ in range(50):                                    # early storage given back
        e, text = go_to_entry(k)
        assert "Data Write breakpoint" in text, text
        bt = k.cmd("bt")
        if "free_reserved_range" in bt:
            break
    else:
        raise AssertionError("the free count was never written by the handoff")
    assert "ekdb_late_init" in bt, bt
    # kdb reads the allocator there although this CPU stopped holding its lock
    assert re.search(r"^MemFree:\s+\d+ kB$", k.cmd("meminfo"), re.M)
    k.cmd("bc *")
    k.type("go")
    k.enter()
    k.wait(HANDOFF, timeout=BOOT_TIMEOUT)
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    assert not re.search(BAD, m.output(0)), m.output(0)[-2000:]


def test_early_storage_poisoned_before_it_is_freed(machine):
    """The early storage is filled with 0x6b before it becomes free memory
    (docs/handoff.md), so a stale pointer into it reads poison, not the
    old session.  Stopped by a watchpoint on the free count inside
    free_reserved_range() during the handoff (the storage is given back
    but nothing can have reused it yet), every byte of
    __ekdb_early_start..__ekdb_early_end reads 0x6b (issue 19, planted
    bug 3: not poisoned before it is freed)."""
    syms = subprocess.run(["nm", KERNEL_ELF], capture_output=True, text=True,
                          check=True).stdout
    start = int(re.search(r"^([0-9a-f]+) \w __ekdb_early_start$", syms, re.M).group(1), 16)
    end = int(re.search(r"^([0-9a-f]+) \w __ekdb_early_end$", syms, re.M).group(1), 16)
    assert end - start >= 4096, (hex(start), hex(end))
    m = boot_kdb(machine, cmdline=KDB_HANDOFF.replace(" ekdb.debug_early=unmap", ""))
    k = Kdb(m)
    k.cmd("set LINES 100000")
    k.cmd("set EARLYSTATE=kept")                           # state in the early storage
    k.cmd("bp mm_init")
    go_to_entry(k)
    k.cmd("bp kmalloc")                                    # the handoff's first kmalloc
    for _ in range(50):
        go_to_entry(k)
        if "ekdb_late_init" in k.cmd("bt"):
            break
    else:
        raise AssertionError("kmalloc never stopped inside the handoff")
    k.cmd("bc *")
    assert "Data Write BP #" in k.cmd("bph nr_free dataw 8")
    for _ in range(50):
        e, text = go_to_entry(k)
        assert "Data Write breakpoint" in text, text
        bt = k.cmd("bt")
        if "free_reserved_range" in bt:
            break
    else:
        raise AssertionError("the free count was never written by the handoff")
    assert "ekdb_late_init" in bt, bt
    base = start + m.kaslr_offset()
    out = k.cmd(f"md {base:#x} {(end - start) // 16}")
    words = re.findall(r"^0x[0-9a-f]{16} ([0-9a-f]{16}) ([0-9a-f]{16})", out, re.M)
    bad = [w for pair in words for w in pair if w != "6b" * 8]
    assert not bad and "zero suppressed" not in out, \
        f"freed early storage not poisoned: {len(bad)} words, e.g. {bad[:8]}"
    assert len(words) == (end - start) // 16, out[-1000:]
    k.cmd("bc *")
    k.type("go")
    k.enter()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_panic_enters_kdb_and_go_refuses(machine):
    m = machine(cmdline=f"{CONSOLE} kgdboc=ttyS0 test_oops=panic", ports=("unix",))
    m.wait_for(r"Kernel panic - not syncing: test_oops=panic requested", timeout=BOOT_TIMEOUT)
    e = m.wait_for(ENTRY, timeout=60)
    assert "Panic" in e.group(3) or "panic" in e.group(3), e.group(0)
    m.wait_for(PROMPT, timeout=60)
    k = Kdb(m)
    out = k.cmd("go")
    assert "Catastrophic error detected" in out, out
    assert "type go a second time if you really want to continue" in out, out
    bt = k.cmd("bt")
    assert "oops_test_panic" in bt and "panic" in bt, bt


@pytest.mark.parametrize("kind,where", [("null", "oops_test_null_deref"),
                                        ("irq", "oops_test_null_deref")])
def test_oops_enters_kdb(machine, kind, where):
    m = machine(cmdline=f"{CONSOLE} kgdboc=ttyS0 test_oops={kind}", ports=("unix",))
    e = m.wait_for(ENTRY, timeout=BOOT_TIMEOUT)
    assert re.fullmatch(r"oops @ 0x[0-9a-f]{16}", e.group(3)), e.group(0)   # kdb's fault entry
    m.wait_for(PROMPT, timeout=60)
    k = Kdb(m)
    bt = k.cmd("bt")
    assert where in bt, bt
    if kind == "irq":
        assert "timer_interrupt" in bt, bt


def test_early_fault_without_kgdbwait(machine):
    m = machine(cmdline=f"{CONSOLE} ekgdboc=ttyS0 test_early_fault", ports=("unix",))
    m.wait_for(r"test_early_fault: faulting in setup_arch", timeout=BOOT_TIMEOUT)
    m.wait_for(ENTRY, timeout=60)
    m.wait_for(PROMPT, timeout=60)
    bt = Kdb(m).cmd("bt")
    assert "early_fault_test" in bt and "setup_arch" in bt, bt


@pytest.mark.parametrize("value,why", [
    ("foo", "unknown driver"),
    ("ttyS9", "bad port"),
    ("ttyS0,0", "baud of 0"),
    ("kbd,", "trailing comma"),
    ("ttyS0,kms,ttyS1", "two lines"),
])
def test_bad_kgdboc_fails_closed(machine, value, why):
    m = machine(cmdline=f"{CONSOLE} kgdboc={value} kgdbwait exit_after_boot",
                ports=("unix", "unix"))
    m.wait_for(rf"Malformed early option 'kgdboc={re.escape(value)}'", timeout=BOOT_TIMEOUT)
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    out = m.output(0)
    assert "Entering kdb" not in out and "handoff: " not in out, why
    assert "kgdb: malformed kgdboc= option: the debugger stays off" in out, out[-3000:]


def test_different_early_and_late_lines(machine):
    m = machine(cmdline=f"{CONSOLE} ekgdboc=ttyS1 kgdboc=ttyS0 exit_after_boot",
                ports=("unix", "unix"))
    m.wait_for(r"ekgdboc=ttyS1 and kgdboc=ttyS0 name different lines", timeout=BOOT_TIMEOUT)
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
