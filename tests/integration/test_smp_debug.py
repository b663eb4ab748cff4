# SPDX-License-Identifier: GPL-2.0
"""Hardware breakpoints, watchpoints and run control with several CPUs
(issue 12, issue 14): every CPU carries the same armed debug registers,
including APs that come up after they were set and CPUs that were held
while another one was in the debugger; a deleted one is gone everywhere;
gdb's vCont steps the thread it names while the others stay stopped.

The data and code used are only touched by one CPU: ksoftirqd_count[1]
and ksoftirqd_ap_work() (ksoftirqd/1, bound to CPU 1), and
percpu_area[0].ticks (CPU 0's timer interrupt).
"""

import os
import re
import signal

from conftest import KERNEL_ELF
from gdb_boot import KGDBWAIT as KGDBWAIT_GDB
from gdb_boot import (STOP_TIMEOUT, attach, boot_to_kgdbwait, cont_to_stop, frames, reg,
                      stop_func)
from gdbdriver import gdb_batch
from kdb_session import ENTRY, KGDBWAIT, PROMPT, Kdb, boot_kdb
from qemu import BOOT_TIMEOUT

HEARTBEAT = r"kheartbeat: uptime \d+ s"     # every 10 s, at KERN_DEBUG (loglevel=8)

_ADDR = {}


def addr(m, expr):
    """Run-time address of a C lvalue on machine m: build/kernel.elf's (gdb
    evaluates &expr) plus the offset the loader moved the kernel by (KASLR)."""
    if expr not in _ADDR:
        out = gdb_batch(KERNEL_ELF, [f"p/x &{expr}"])
        _ADDR[expr] = int(re.search(r"= (?:\([^)]*\) )?(0x[0-9a-f]+)", out).group(1), 16)
    return _ADDR[expr] + m.kaslr_offset()


def go_entry(k, until=None):
    """`go` (waiting for regex until first, if given), then the next kdb
    entry: returns (cpu, reason)."""
    if until:
        k.go(until)
        e = k.wait(ENTRY, timeout=BOOT_TIMEOUT)
    else:
        e = k.go(ENTRY)
    k.wait(PROMPT)
    return int(e.group(2)), e.group(3)


def test_kdb_hw_breakpoints_on_every_cpu(machine):
    """bph at kgdbwait (one CPU) fires on CPU 1 once it is up; a watch set
    while CPU 1 is in the debugger fires on CPU 0 (held meanwhile); one
    deleted while CPU 0 is in the debugger no longer fires on CPU 1; an
    instruction breakpoint on code only CPU 1 runs fires there."""
    m = boot_kdb(machine, smp=2, cmdline=f"{KGDBWAIT} loglevel=8")
    k = Kdb(m)
    count1 = addr(m, "ksoftirqd_count[1]")
    ticks0 = addr(m, "percpu_area[0].ticks")
    ap_work = addr(m, "ksoftirqd_ap_work")

    # -- set at kgdbwait, before CPU 1 exists: CPU 1 loads it as it comes up
    out = k.cmd(f"bph 0x{count1:x} dataw 8")
    assert out.startswith(f"Data Write BP #0 at 0x{count1:x}"), out
    cpu, why = go_entry(k, r"boot complete: 2 CPUs online")
    assert cpu == 1, why
    assert why.startswith("Debug @ "), why
    assert "ksoftirqd" in k.cmd("bt"), k.cmd("bt")

    # -- set while CPU 1 is the one in kdb: CPU 0 (held) must load it too
    out = k.cmd(f"bph 0x{ticks0:x} dataw 8")
    assert out.startswith(f"Data Write BP #1 at 0x{ticks0:x}"), out
    for _ in range(6):                      # CPU 1's count may still come first
        cpu, why = go_entry(k)
        if cpu == 0:
            break
    assert cpu == 0, "the watchpoint set from CPU 1 never fired on CPU 0"
    assert "timer_interrupt" in k.cmd("bt")

    # -- `go` from a CPU other than the one that entered is refused (Linux)
    k.cmd("cpu 1")
    out = k.cmd("go")
    assert out.splitlines()[0] == ('go must execute on the entry cpu, please use "cpu 0" '
                                   'and then execute go'), out
    assert "Invalid cpu number" in out, out
    assert re.search(r"\[1\]kdb> $", m.output(0))       # still stopped, on the same prompt
    k.cmd("cpu 0")

    # -- deleted from CPU 0: gone on CPU 1 too.  The new instruction
    # breakpoint takes slot 0, which CPU 1 had armed as the count watch: a
    # stale DR0 there would report a stop inside ksoftirqd, not at ap_work.
    k.cmd("bc 0")
    k.cmd("bc 1")
    out = k.cmd("bph ksoftirqd_ap_work")
    assert out.startswith(f"Instruction(Register) BP #0 at 0x{ap_work:x}"), out
    cpu, why = go_entry(k)
    assert (cpu, why) == (1, f"Breakpoint @ 0x{ap_work:016x}"), (cpu, why)
    k.cmd("bc 0")
    start = k.mark()
    k.go(HEARTBEAT)                         # nothing armed any more: it runs on
    assert "Entering kdb" not in m.output(0)[start:]


def test_kdb_duplicate_breakpoints_refused(machine):
    """Linux's kdb refuses a second breakpoint at an address that has one,
    whatever its kind (bp twice; dataw and datar on one address)."""
    m = boot_kdb(machine)
    k = Kdb(m)
    setup = addr(m, "setup_arch")
    jiffies = addr(m, "jiffies")
    assert k.cmd("bp setup_arch").startswith("Instruction(i) BP #0")
    out = k.cmd("bp setup_arch")
    assert out.splitlines()[0] == f"You already have a breakpoint at 0x{setup:016x}", out
    assert "Duplicate breakpoint address" in out, out
    assert k.cmd("bph jiffies dataw 8").startswith("Data Write BP #1")
    out = k.cmd("bph jiffies datar 8")
    assert out.splitlines()[0] == f"You already have a breakpoint at 0x{jiffies:016x}", out
    assert len(re.findall(r"BP #\d+ at", k.cmd("bl"))) == 2
    k.cmd("bc 0")
    assert k.cmd("bp setup_arch").startswith("Instruction(i) BP #0")   # free again


# --------------------------------------------------------------------------
def thread_of(stop):
    return int(stop.get("thread-id", "0"))


def test_gdb_watch_hbreak_on_ap_and_reconnect(machine, gdb):
    """gdb watch/awatch/hbreak set at kgdbwait fire on CPU 1 (thread 2);
    after gdb goes away without deleting, a new gdb finds every CPU's DR7
    clean and the old watchpoint never fires again."""
    m = boot_to_kgdbwait(machine, smp=2, cmdline=f"{KGDBWAIT_GDB} loglevel=8")
    g = attach(machine, gdb, m)
    g.cmd("watch ksoftirqd_count[1]")
    st = cont_to_stop(g, timeout=BOOT_TIMEOUT)
    assert st.get("reason") == "watchpoint-trigger" and thread_of(st) == 2, st
    assert stop_func(st) == "ksoftirqd", st
    g.cmd("delete")
    g.cmd("hbreak ksoftirqd_ap_work")
    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and thread_of(st) == 2, st
    assert stop_func(st) == "ksoftirqd_ap_work", st
    g.cmd("delete")
    g.cmd("awatch ap_work_count[1]")
    st = cont_to_stop(g)
    assert st.get("reason") == "access-watchpoint-trigger" and thread_of(st) == 2, st

    # gdb dies with the watchpoint planted (no detach, no kill, no z packet)
    os.killpg(g.proc.pid, signal.SIGKILL)
    g.close()
    g2 = attach(machine, gdb, m)            # the stub drops the old gdb's breakpoints
    g2.cont()
    m.wait_for(HEARTBEAT, timeout=BOOT_TIMEOUT)    # CPU 1 wrote the count ~100 times
    st = g2.interrupt(timeout=STOP_TIMEOUT)
    assert st.get("signal-name") == "SIGINT", st      # not the old watchpoint
    # nothing is armed behind the table's back: a fresh hbreak reuses slot
    # 0, which CPU 1 had armed as the old awatch; a stale DR0 there would
    # stop inside ksoftirqd_ap_work at no breakpoint (gdb: a plain SIGTRAP)
    g2.cmd("hbreak ksoftirqd_ap_work")
    st = cont_to_stop(g2)
    assert st.get("reason") == "breakpoint-hit" and thread_of(st) == 2, st
    assert stop_func(st) == "ksoftirqd_ap_work", st
    g2.cmd("delete")
    g2.detach()


def test_gdb_vcont_threads(machine, gdb):
    """All-stop gdb with 2 CPUs: stepi/next/finish in thread 2 while thread
    1 stays where it was; the conditional breakpoint + watchpoint case of
    issue 12 (gdb 13 used to die in finish_step_over); vCont;c:99 fails."""
    m = boot_to_kgdbwait(machine, smp=2)
    g = attach(machine, gdb, m)
    g.cmd("hbreak ksoftirqd_ap_work")
    st = cont_to_stop(g, timeout=BOOT_TIMEOUT)
    assert stop_func(st) == "ksoftirqd_ap_work" and thread_of(st) == 2, st
    g.cmd("delete")

    g.cmd("thread 1")
    pc1 = reg(g, "pc")
    g.cmd("thread 2")
    pc2 = reg(g, "pc")
    for _ in range(3):                      # stepi: thread 2 moves, thread 1 does not
        g._drop_stops()
        g.cmd("stepi")
        st = g.wait_stop(STOP_TIMEOUT)
        assert st.get("reason") == "end-stepping-range" and thread_of(st) == 2, st
    assert reg(g, "pc") != pc2
    g.cmd("thread 1")
    assert reg(g, "pc") == pc1, "thread 1 ran while thread 2 was stepped"
    # stepping the thread gdb selected, not the one that stopped (vCont;s:1)
    g.cmd("thread 2")
    pc2 = reg(g, "pc")
    g.cmd("thread 1")
    g._drop_stops()
    g.cmd("stepi")
    st = g.wait_stop(STOP_TIMEOUT)
    assert st.get("reason") == "end-stepping-range" and thread_of(st) == 1, st
    assert reg(g, "pc") != pc1
    g.cmd("thread 2")
    assert reg(g, "pc") == pc2, "thread 2 moved when thread 1 was stepped"

    g._drop_stops()
    g.cmd("finish")                         # back into ksoftirqd, same thread
    st = g.wait_stop(STOP_TIMEOUT)
    assert st.get("reason") == "function-finished" and thread_of(st) == 2, st
    assert stop_func(st) == "ksoftirqd", st
    # next (not over msleep(): thread 2 is CPU 1, and another task runs
    # there while ksoftirqd/1 sleeps); ksoftirqd/0 runs the same code
    for _ in range(2):
        g._drop_stops()
        g.cmd("next")
        st = g.wait_stop(BOOT_TIMEOUT)
        assert st.get("reason") == "end-stepping-range" and thread_of(st) == 2, st
        assert stop_func(st) == "ksoftirqd", st

    # issue 12: a watchpoint and a breakpoint with conditions only thread 2
    # meets; CPU 0 hits both all the time and gdb steps it over them.
    g.cmd("watch percpu_area[0].ticks if $_thread == 2")
    g.cmd("break scheduler_tick if $_thread == 2")
    st = cont_to_stop(g, timeout=BOOT_TIMEOUT)
    assert st.get("reason") == "breakpoint-hit" and thread_of(st) == 2, st
    assert stop_func(st) == "scheduler_tick", st
    assert "internal-error" not in "".join(g.transcript)
    g.cmd("delete")

    out = g.cmd("maint packet vCont;c:99")
    assert 'received: "E02"' in out, out
    out = g.cmd("maint packet vCont;s:1;s:2")
    assert 'received: "E16"' in out, out
    assert frames(g.cmd("bt"))[0] == "scheduler_tick"      # still stopped
    g.detach()


def test_watchpoint_sees_an_ap_write_its_own_percpu_before_online(machine):
    """A write watchpoint on percpu_area[1].apic_id set at kgdbwait, before
    CPU 1 exists: CPU 0 fires it first (start_cpu fills in the AP's area),
    then CPU 1 itself, as it stores its APIC id in smp_ap_online before it
    reports online (issue 19: its debug registers were loaded only after
    that store, so the AP's own write was missed and the boot went on).
    The AP's debug registers are loaded as soon as its IDT is (smp_ap_start);
    only the GDT, the GS base and percpu_init_cpu's self/cpu fields come
    before that."""
    m = boot_kdb(machine, smp=2, cmdline=KGDBWAIT)
    k = Kdb(m)
    apic1 = addr(m, "percpu_area[1].apic_id")
    out = k.cmd(f"bph 0x{apic1:x} dataw 4")
    assert out.startswith(f"Data Write BP #0 at 0x{apic1:x}"), out
    cpu, why = go_entry(k)
    assert cpu == 0 and why.startswith("Debug @ "), (cpu, why)
    assert "start_cpu" in k.cmd("bt")
    start = len(m.output(0))
    k.go(ENTRY + "|" + r"boot complete: \d+ CPUs online")
    seen = m.output(0)[start:]
    e = re.findall(ENTRY, seen)
    assert len(e) == 1, seen[-2000:]             # a stop, not boot complete
    assert e[0][1] == "1", e                     # on CPU 1
    k.wait(PROMPT)
    assert "smp_ap_online" in k.cmd("bt")
    k.cmd("bc 0")
    k.go(r"boot complete: 2 CPUs online")
