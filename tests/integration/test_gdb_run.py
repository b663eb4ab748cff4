"""Real gdb run control on the early debugger: hardware watchpoints (write,
read, access; lengths 1, 2, 4, 8; the fifth slot; bad lengths and
alignment), single stepping (stepi, nexti, step, next, finish), stepping
and continuing off a breakpoint, and Ctrl-C once the kernel runs.

Watched variables (kernel-glue/printk.c, mm/kmalloc.c), all touched after
kgdbwait:
  log_head        u64, written by every printk (log_store)
  console_loglevel int, read by every printk
  ignore_loglevel bool, read by every printk
  kmalloc_ready   bool, written once by mm_init -> kmalloc_init
x86 has no read-only watchpoint: rwatch is armed as read/write access."""

import re

import pytest

from gdb_boot import (BOOT_COMPLETE, STOP_TIMEOUT, attach, boot_to_kgdbwait,
                      cont_expect_error, cont_to_stop, frames, reg, stop_func, value)
from qemu import BOOT_TIMEOUT

PRINTK = ("log_store", "vprintk", "printk")     # log_store is inlined into vprintk
TOO_MANY = (r"Could not insert hardware (watchpoint|breakpoint)|"
            r"too many hardware breakpoints/watchpoints|Remote failure reply")


def cont_cli(g, timeout=STOP_TIMEOUT):
    """CLI `continue` (what a person types); returns (*stopped record,
    console text gdb printed for the stop, e.g. Old value/New value)."""
    mark = len(g.transcript)
    g._drop_stops()
    g.cmd("continue")
    st = g.wait_stop(timeout)
    text = []
    for line in g.transcript[mark:]:
        if line.startswith('~"'):
            text.append(line[2:-1].encode().decode("unicode_escape"))
    return st, "".join(text)


def test_watchpoints(machine, gdb):
    m = boot_to_kgdbwait(machine)
    g = attach(machine, gdb, m)

    # watch, 8 bytes: gdb prints the old and the new value.
    out = g.cmd("watch log_head")
    assert re.search(r"Hardware watchpoint 1: log_head", out), out
    before = int(value(g, "log_head"))
    st, text = cont_cli(g)
    assert st.get("reason") == "watchpoint-trigger", st
    assert stop_func(st) in PRINTK, st
    old, new = int(st["value"]["old"]), int(st["value"]["new"])
    assert old == before and new > old, st
    assert re.search(rf"Hardware watchpoint 1: log_head\s+Old value = {old}\s+"
                     rf"New value = {new}", text), text
    assert reg(g, "dr7") & 0xff == 0      # not armed while stopped
    g.cmd("delete")

    # watch, 2 bytes (low half of log_head).
    g.cmd("watch *(unsigned short *)&log_head")
    st, text = cont_cli(g)
    assert st.get("reason") == "watchpoint-trigger" and stop_func(st) in PRINTK, st
    assert "Old value = " in text and "New value = " in text, text
    g.cmd("delete")

    # rwatch, 4 bytes: printk reads console_loglevel.
    level = value(g, "console_loglevel")
    out = g.cmd("rwatch console_loglevel")
    assert "Hardware read watchpoint 3: console_loglevel" in out, out
    st, text = cont_cli(g)
    assert st.get("reason") == "read-watchpoint-trigger", st
    assert st["value"]["value"] == level, st
    assert re.search(rf"Value = {level}", text), text
    assert "printk" in " ".join(frames(g.cmd("bt"))), g.cmd("bt")
    g.cmd("delete")

    # awatch, 1 byte: printk reads ignore_loglevel.
    out = g.cmd("awatch ignore_loglevel")
    assert "Hardware access (read/write) watchpoint 4: ignore_loglevel" in out, out
    st, text = cont_cli(g)
    assert st.get("reason") == "access-watchpoint-trigger", st
    assert st["value"].get("value") == "false" or st["value"].get("new") == "false", st
    g.cmd("delete")

    # Bad requests: misaligned, odd length, longer than a debug register.
    for expr in ("*(int *)((char *)&log_head + 1)",       # 4 bytes at +1
                 "*(char (*)[3])&log_head",               # 3 bytes
                 "*(char (*)[16])&log_head"):             # 16 bytes
        g.cmd(f"watch {expr}")
        cont_expect_error(g, TOO_MANY + r"|Could not insert|Cannot insert")
        g.cmd("delete")
        assert frames(g.cmd("bt"))[0] in PRINTK

    # Four debug registers: the fifth hardware breakpoint/watchpoint is
    # refused by the stub (E..), gdb says so, and nothing else is lost.
    g.cmd("hbreak trap_init")
    g.cmd("hbreak mm_init")
    g.cmd("watch kmalloc_ready")
    g.cmd("rwatch console_loglevel")
    g.cmd("awatch last_level")
    cont_expect_error(g, TOO_MANY)
    assert frames(g.cmd("bt"))[0] in PRINTK
    info = g.cmd("info breakpoints")
    assert len(re.findall(r"^\d+\s+(hw breakpoint|hw watchpoint|read watchpoint|"
                          r"acc watchpoint)", info, re.M)) == 5, info
    # Drop two: the remaining three fit, and fire in boot order.
    nums = re.findall(r"^(\d+)\s+(?:read|acc) watchpoint", info, re.M)
    g.cmd("delete " + " ".join(nums))
    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "trap_init", st
    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "mm_init", st
    # watch, 1 byte: kmalloc_ready false -> true.
    st, text = cont_cli(g)
    assert st.get("reason") == "watchpoint-trigger", st
    assert st["value"] == {"old": "false", "new": "true"}, st
    assert re.search(r"Old value = false\s+New value = true", text), text
    assert "mm_init" in frames(g.cmd("bt")), g.cmd("bt")

    g.cmd("delete")
    g.cont()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_stepping(machine, gdb):
    m = boot_to_kgdbwait(machine)
    g = attach(machine, gdb, m)

    # stepi from the kgdbwait stop
    pc0 = reg(g, "pc")
    g.cmd("stepi")
    st = g.wait_stop(STOP_TIMEOUT)
    assert st.get("reason") == "end-stepping-range", st
    assert reg(g, "pc") != pc0

    # Into setup_arch code proper.
    g.cmd("tbreak print_memory_map")
    st = cont_to_stop(g)
    assert stop_func(st) == "print_memory_map", st
    line0 = int(st["frame"]["line"])

    # next: a source line, same function (pr_info is stepped over)
    g.cmd("next")
    st = g.wait_stop(STOP_TIMEOUT)
    assert st.get("reason") == "end-stepping-range", st
    assert stop_func(st) == "print_memory_map" and int(st["frame"]["line"]) != line0, st

    # stepi until a call; nexti steps over it to the next instruction
    for _ in range(200):
        insn = g.cmd("x/i $pc")
        if re.search(r"\bcall", insn):
            break
        g.cmd("stepi")
        st = g.wait_stop(STOP_TIMEOUT)
        assert st.get("reason") == "end-stepping-range", st
    else:
        pytest.fail("no call instruction reached by stepi")
    assert stop_func(st) == "print_memory_map", st
    nxt = re.findall(r"0x([0-9a-f]+)", g.cmd("x/2i $pc"))
    after_call = int(g.cmd("x/2i $pc").splitlines()[1].split()[0], 16)
    g.cmd("nexti")
    st = g.wait_stop(STOP_TIMEOUT)
    assert st.get("reason") == "end-stepping-range", st
    assert reg(g, "pc") == after_call, (nxt, hex(reg(g, "pc")))
    assert stop_func(st) == "print_memory_map", st

    # step into a call, finish back out
    for _ in range(20):
        g.cmd("step")
        st = g.wait_stop(STOP_TIMEOUT)
        if stop_func(st) != "print_memory_map":
            break
    assert stop_func(st) in ("printk", "vprintk", "_printk"), st
    bt = frames(g.cmd("bt"))
    assert bt[1:3] == ["print_memory_map", "setup_arch"], bt
    g.cmd("finish")
    st = g.wait_stop(STOP_TIMEOUT)
    assert st.get("reason") == "function-finished", st
    assert stop_func(st) == "print_memory_map", st

    # A breakpoint on a function called again and again (every printk):
    # stepping or continuing off it must not lose it.
    g.cmd("break vprintk")
    st = cont_to_stop(g)
    assert stop_func(st) in PRINTK and st.get("reason") == "breakpoint-hit", st
    bp_pc = reg(g, "pc")
    g.cmd("stepi")                              # off the breakpoint by one insn
    st = g.wait_stop(STOP_TIMEOUT)
    assert st.get("reason") == "end-stepping-range" and reg(g, "pc") != bp_pc, st
    st = cont_to_stop(g)                        # the next printk hits it again
    assert stop_func(st) in PRINTK and st.get("reason") == "breakpoint-hit", st
    assert reg(g, "pc") == bp_pc
    st = cont_to_stop(g)                        # continue straight off it: again
    assert stop_func(st) in PRINTK and st.get("reason") == "breakpoint-hit", st
    assert re.search(r"breakpoint already hit 3 times", g.cmd("info breakpoints")), \
        g.cmd("info breakpoints")
    # The int3 is never visible while stopped.
    assert "int3" not in g.cmd("x/i vprintk")

    g.cmd("delete")
    g.cont()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_ctrl_c_after_boot(machine, gdb):
    """gdb continues from kgdbwait, the kernel boots to idle, Ctrl-C
    (-exec-interrupt) stops it with SIGINT; then detach, and a new gdb
    breaks in on connect (set remote interrupt-on-connect).  With --smp 4
    every CPU is online by then and is one gdb thread."""
    m = boot_to_kgdbwait(machine, smp=4)
    g = attach(machine, gdb, m)
    g.cont()
    m.wait_for(r"boot complete: 4 CPUs online", timeout=BOOT_TIMEOUT)
    st = g.interrupt(timeout=60)
    assert st.get("signal-name") == "SIGINT", st
    assert frames(g.cmd("bt")), g.cmd("bt")
    threads = g.cmd("info threads")
    tids = re.findall(r"^[* ]\s+\d+\s+Thread (\d+) \(CPU#(\d+)", threads, re.M)
    assert sorted((int(t), int(c)) for t, c in tids) == [(1, 0), (2, 1), (3, 2), (4, 3)], \
        threads
    for t, _ in tids:                 # every CPU was stopped: its registers are real
        g.cmd(f"thread {t}")
        assert reg(g, "rip") >= 0xffffffff80000000
    assert int(value(g, "log_head")) > 0
    g.detach()
    g.close()

    g2 = gdb()
    g2.cmd("set remote interrupt-on-connect on")
    g2.connect(m.socket_path(1), timeout=60)
    assert frames(g2.cmd("bt")), g2.cmd("bt")
    g2.cmd("detach")
