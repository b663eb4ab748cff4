# SPDX-License-Identifier: GPL-2.0
"""The gdb helpers (scripts/gdb/, docs/gdb-helpers.md) with real gdb:
loaded by gdb itself from kernel.elf's .debug_gdb_scripts section (the
auto-load safe-path line a user adds), then each command at kgdbwait (in
setup_arch, before the scheduler and the handoff) and in the running
system after continue and an interrupt, with KASLR on (every address
checked against build/kernel.elf's plus the loader's offset), and
`make debug`'s launcher loading them.  Bad inputs: a command before there
is a target, before its data exists, with a wrong argument: a message,
never a Python traceback."""

import os
import re
import subprocess

import pytest

from conftest import KERNEL_ELF, REPO
from gdb_boot import (CONSOLE, boot_to_kgdbwait, cont_to_stop, expect_error, frames,
                      value)
from qemu import BOOT_TIMEOUT

AUTOLOAD = ("-iex", f"add-auto-load-safe-path {KERNEL_ELF}")
COMMANDS = ("lx-dmesg", "lx-ps", "lx-cpus", "lx-lsmod",
            "ekdb-breakpoints", "ekdb-transports", "ekdb-early")
FUNCTIONS = ("$lx_current()", '$lx_per_cpu("cpu")', "$lx_task_by_pid(1)")
SUBSYSTEMS = ["printk", "acpi", "memblock", "page_alloc", "slab", "sched", "apic", "smp"]
TRACEBACK = r"Traceback|Python Exception|Error occurred in Python"
DMESG_LINE = r"^\[\s*\d+\.\d{6}\] "

_NM = {}


def nm(name):
    """(link address, size) of a kernel symbol in build/kernel.elf."""
    if not _NM:
        out = subprocess.run(["nm", "-S", KERNEL_ELF], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 4:
                _NM.setdefault(f[3], (int(f[0], 16), int(f[1], 16)))
            elif len(f) == 3:
                _NM.setdefault(f[2], (int(f[0], 16), 0))
    return _NM[name]


def run(g, cli):
    """A helper's output; it must not be a Python traceback."""
    out = g.cmd(cli)
    assert not re.search(TRACEBACK, out), f"{cli}:\n{out}"
    return out


def table(out, first_col=r"\s*\d+"):
    return [ln for ln in out.splitlines() if re.match(first_col + r"\s", ln)]


def doc_session(section):
    """The gdb session docs/gdb-helpers.md shows under `### `section``:
    [(command without its comment, [output lines])]."""
    text = open(os.path.join(REPO, "docs", "gdb-helpers.md")).read()
    sec = text.split(f"### `{section}`", 1)[1].split("\n### ", 1)[0]
    steps = []
    for ln in re.search(r"^```\n(.*?)^```", sec, re.S | re.M).group(1).splitlines():
        if ln.startswith("(gdb) "):
            steps.append((ln[len("(gdb) "):].split("#", 1)[0].strip(), []))
        elif steps:
            steps[-1][1].append(ln)
    return steps


def same_rows(doc_out, out):
    """The table rows of a helper's output are the documented ones, address
    columns (0x...) aside."""
    def rows(text):
        return [[w for w in ln.split() if not w.startswith("0x")] for ln in table(text)]
    assert rows("\n".join(doc_out)) == rows(out), "docs/gdb-helpers.md shows:\n" + \
        "\n".join(doc_out) + "\ngdb shows:\n" + out


def test_helpers_autoload_and_no_target(gdb):
    """gdb loads the helpers from kernel.elf's section (safe path added, as
    the docs say); before `target remote` each says so; a wrong argument
    is a usage error."""
    g = gdb(args=AUTOLOAD)
    assert re.search(r"^Yes\s+ekdb-gdb-helpers", g.cmd("info auto-load python-scripts"), re.M)
    for c in COMMANDS:
        assert "Usage: " + c in g.cmd(f"help {c}")
        expect_error(g, c, rf"{c}: no kernel to read: connect first")
        expect_error(g, f"{c} 1", rf"usage: {c} .*takes no arguments")
    for f in FUNCTIONS:
        expect_error(g, f"p {f}", r"no kernel to read: connect first")
    expect_error(g, "p $lx_per_cpu()", r'usage: \$lx_per_cpu\("FIELD"\[, CPU\]\)')
    expect_error(g, "p $lx_task_by_pid()", r"usage: \$lx_task_by_pid\(PID\)")
    expect_error(g, "p $lx_current(0, 1)", r"usage: \$lx_current\(\[CPU\]\)")


def test_helpers_at_kgdbwait_and_running(machine, gdb):
    m = boot_to_kgdbwait(machine, smp=2)
    off = m.kaslr_offset()
    assert off, "KASLR is on by default: the helpers must follow a moved kernel"
    g = gdb(args=AUTOLOAD)
    g.cmd("set remote noack-packet off")
    g.connect(m.socket_path(1))

    # ------------------------------------------------ at kgdbwait (setup_arch)
    out = run(g, "lx-dmesg")
    lines = out.splitlines()
    assert lines and all(re.match(DMESG_LINE, ln) for ln in lines), out
    assert re.match(DMESG_LINE + r"ekdb reference kernel \(x86_64\)", lines[0]), out
    assert lines[-1].endswith("] kgdb: Waiting for connection from remote gdb..."), out
    assert f"] KASLR: kernel base 0x{nm('_text')[0] + off:x}, offset 0x{off:x}" in out, out

    out = run(g, "lx-ps")
    rows = table(out, "0x[0-9a-f]{16}")
    assert rows == [f"0x{nm('init_task')[0] + off:016x}   0   swapper/0"], out
    assert "lx-ps: the scheduler is not running yet" in out, out
    expect_error(g, "p $lx_task_by_pid(1)",
                 r"no task with pid 1 \(the scheduler is not running yet")

    assert value(g, "$lx_current().comm").startswith('"swapper/0\\000'), g.cmd("p $lx_current()")
    assert value(g, "$lx_current().pid") == "0"
    assert value(g, '$lx_per_cpu("cpu", 0)') == "0"
    expect_error(g, "p $lx_current(99)", r"\$lx_current: no CPU 99 \(NR_CPUS is \d+\)")
    expect_error(g, 'p $lx_per_cpu("nosuch")', r"struct percpu has no member 'nosuch' "
                 r"\(it has: self, cpu, apic_id, curr_task")
    expect_error(g, "p $lx_per_cpu(1)", r"FIELD is a string")
    out = run(g, "lx-cpus")
    rows = table(out, r"[* ]\s*\d+")
    assert len(rows) == 1 and re.match(
        rf"\*\s+0\s+0\s+online\s+0x{nm('percpu_area')[0] + off:016x}\s+"
        rf"0x{nm('init_task')[0] + off:016x} swapper/0 \(0\)", rows[0]), out

    out = run(g, "lx-lsmod")
    assert out.startswith("Address            Module                  Size  Used by\n"), out
    rows = [ln.split() for ln in table(out, "0x[0-9a-f]{16}")]
    assert [r[1] for r in rows] == SUBSYSTEMS, out
    printk = rows[0]
    assert int(printk[0], 16) == nm("printk")[0] + off and int(printk[2]) == nm("printk")[1], out

    # breakpoints: kdb's (monitor) and gdb's (kept in the target while stopped),
    # the documented session typed as it stands in the doc
    session = doc_session("ekdb-breakpoints")
    assert [c for c, _ in session] == [
        "monitor bp setup_arch", "set breakpoint always-inserted on", "hbreak trap_init",
        "ekdb-breakpoints", "delete", "continue", "monitor bp schedule", "ekdb-breakpoints"], session
    for cmd, _ in session[:3]:
        if cmd.startswith("monitor "):
            g.monitor(cmd[len("monitor "):])
        else:
            g.cmd(cmd)
    out = run(g, "ekdb-breakpoints")
    same_rows(session[3][1], out)
    assert re.search(r"^breakpoint table: 2 used of \d+ entries at 0x[0-9a-f]{16}, in the "
                     r"early storage \(early_bps, in use\)", out, re.M), out
    rows = [ln.split() for ln in table(out)]
    assert rows == [
        ["0", "sw", f"0x{nm('setup_arch')[0] + off:016x}", "setup_arch", "1", "yes", "-",
         "kdb", "early", "0"],
        ["1", "hw", f"0x{nm('trap_init')[0] + off:016x}", "trap_init", "1", "yes", "DR0",
         "gdb", "early", "0"]], out

    out = run(g, "ekdb-transports")
    assert re.search(r"^ 0  ttyS1\s+serial\s+polled\s+no\s+early\s+\w+ \(io/serial/", out,
                     re.M), out
    assert "handoff: not yet (the early debugger runs on static storage)" in out, out

    out = run(g, "ekdb-early")
    start, end = nm("__ekdb_early_start")[0] + off, nm("__ekdb_early_end")[0] + off
    assert f"early storage: 0x{start:016x}-0x{end:016x}, {end - start} bytes" in out, out
    assert "state: in use: the early lifetime (the handoff has not run yet)" in out, out
    assert re.search(rf"^  0x{nm('early_bps')[0] + off:016x}  early_bps\s+\d+  core/bp.c$",
                     out, re.M), out
    assert re.search(r"^  0x[0-9a-f]{16}  gdb_inbuf\s+4096  early/storage.c$", out, re.M), out

    # ------------------------------------------------ the running system
    g.cmd("delete")
    g.cont()
    m.wait_for(r"boot complete: 2 CPUs online", timeout=BOOT_TIMEOUT)
    st = g.interrupt(timeout=60)
    assert st.get("signal-name") == "SIGINT", st

    out = run(g, "lx-dmesg")
    assert re.search(DMESG_LINE + r"ekdb: handoff: ", out, re.M), out[-3000:]
    assert re.search(DMESG_LINE + r"boot complete: 2 CPUs online$", out, re.M), out[-3000:]

    out = run(g, "lx-ps")
    assert "not running yet" not in out, out
    comms = {r.split()[2]: (int(r.split()[0], 16), int(r.split()[1]))
             for r in table(out, "0x[0-9a-f]{16}")}
    assert {"swapper/0", "swapper/1", "kernel_init", "kheartbeat"} <= set(comms), out
    assert comms["kernel_init"][1] == 1
    assert value(g, "(unsigned long)&$lx_task_by_pid(1)") == str(comms["kernel_init"][0])

    out = run(g, "lx-cpus")
    rows = table(out, r"[* ]\s*\d+")
    assert len(rows) == 2 and all(" online " in r for r in rows), out
    assert rows[0].startswith("*   0") and rows[1].startswith("    1"), out
    cur1 = value(g, "$lx_current(1).comm")
    g.cmd("thread 2")                         # CPU 1: $lx_current() follows the thread
    assert value(g, "$lx_current().comm") == cur1
    assert value(g, '$lx_per_cpu("cpu")') == "1"
    assert "*   1" in run(g, "lx-cpus")
    g.cmd("thread 1")

    g.monitor("bp schedule")
    out = run(g, "ekdb-breakpoints")
    same_rows(session[7][1], out)
    assert re.search(r"^breakpoint table: 2 used of \d+ entries at 0x[0-9a-f]{16}, in memory "
                     r"the full core allocated", out, re.M), out
    rows = [ln.split() for ln in table(out)]
    assert [r[3] for r in rows] == ["setup_arch", "schedule"], out
    assert [(r[7], r[8]) for r in rows] == [("kdb", "early"), ("kdb", "full")], out
    assert rows[1][2] == f"0x{nm('schedule')[0] + off:016x}", out

    out = run(g, "ekdb-transports")
    assert re.search(r"^ 0  ttyS1\s+serial\s+3\s+no\s+kernel\s+\w+ \(kernel-glue/drivers/", out,
                     re.M), out
    assert "handoff: done; early storage released" in out, out
    assert "moved (last takeover): ttyS1 -> ttyS1 (irq 3)" in out, out

    out = run(g, "ekdb-early")
    assert "state: released at the handoff: poisoned (0x6b) and given to the page allocator" \
        in out, out
    assert "objects (no longer used: their contents are poison):" in out, out

    for c in COMMANDS:                      # a wrong argument, in the running system too
        expect_error(g, f"{c} now", rf"usage: {c} ")
    g.monitor("bc all")
    g.detach()


def test_dmesg_after_the_log_wrapped(machine, gdb):
    """lx-dmesg once the ring (log_buf) has wrapped: every line whole and in
    order (kprintkflood's numbers consecutive), the oldest kept line first
    and the newest last: the same last lines as kdb's own dmesg (the
    kernel's log_buf_copy, C) prints at the same stop."""
    m = boot_to_kgdbwait(machine, smp=2, cmdline=f"{CONSOLE} ekgdboc=ttyS1 kgdbwait "
                                                 "test_printk_flood")
    g = gdb(args=AUTOLOAD)
    g.cmd("set remote noack-packet off")
    g.connect(m.socket_path(1))
    size = int(value(g, "sizeof(log_buf)"))
    g.cont()
    m.wait_for(r"printk flood %d:" % (size // 60), timeout=BOOT_TIMEOUT * 3)
    st = g.interrupt(timeout=60)
    assert st.get("signal-name") == "SIGINT", st
    assert int(value(g, "log_head")) > size + 4096            # it has wrapped

    out = run(g, "lx-dmesg")
    lines = out.splitlines()
    assert lines and all(re.match(DMESG_LINE, ln) for ln in lines), out[:3000]
    assert sum(len(ln) for ln in lines) > size // 2, len(out)  # the whole ring, not a part
    assert "ekdb reference kernel" not in out                  # the oldest lines are gone
    flood = [int(n) for n in re.findall(r"\] printk flood (\d+): the quick brown fox jumps "
                                        r"over the lazy dog$", out, re.M)]
    assert len(flood) > 1000 and flood == list(range(flood[0], flood[0] + len(flood))), \
        flood[:5] + flood[-5:]
    kdb_line = r"^<\d>\[\s*\d+\.\d{6}\] "                  # kdb's: the level kept
    kdb = [re.sub(kdb_line, "", ln) for ln in g.monitor("dmesg 4").splitlines()
           if re.match(kdb_line, ln)]
    assert len(kdb) == 4, kdb
    assert [re.sub(DMESG_LINE, "", ln) for ln in lines[-4:]] == kdb, (lines[-4:], kdb)
    g.detach()


def test_breakpoint_planted_in_the_loader(machine, gdb):
    """A breakpoint set at the UEFI loader's stop (ekdb.loader=wait) and
    handed over to the kernel shows as planted in the loader; one set at
    kgdbwait as early."""
    from test_loader_debug import boot_to_loader_stop
    m, _ = boot_to_loader_stop(machine, cmdline=f"ekdb.loader=wait {CONSOLE} ekgdboc=ttyS1 "
                                                "kgdbwait")
    g = gdb(args=AUTOLOAD)
    g.cmd("set remote noack-packet off")
    g.connect(m.socket_path(1))
    assert frames(g.cmd("bt"))[:2] == ["kgdb_breakpoint", "ldr_dbg_wait"]
    g.cmd("set breakpoint always-inserted on")      # gdb's entry stays in the table
    g.cmd("hbreak trap_init")
    cont_to_stop(g)                                 # the jump, then kgdbwait
    assert frames(g.cmd("bt"))[:3] == ["kgdb_breakpoint", "ekdb_early_init", "setup_arch"]
    g.monitor("bp mm_init")
    out = run(g, "ekdb-breakpoints")
    rows = [ln.split() for ln in table(out)]
    assert [(r[1], r[3], r[6], r[7], r[8]) for r in rows] == [
        ("hw", "trap_init", "DR0", "gdb", "loader"), ("sw", "mm_init", "-", "kdb", "early")], out
    off = m.kaslr_offset()
    assert off and rows[0][2] == f"0x{nm('trap_init')[0] + off:016x}", out


@pytest.mark.qemu
def test_make_debug_loads_the_helpers(build_tree, tmp_path):
    """tools/ekdb-debug (make debug) starts gdb so that the helpers load by
    themselves: its gdb (a wrapper adding -batch and two helper commands)
    attaches at kgdbwait and runs them."""
    wrapper = tmp_path / "gdb"
    wrapper.write_text('#!/bin/sh\nexec gdb -nx -batch "$@" -ex "lx-dmesg" -ex "lx-ps" '
                       '-ex "kill"\n')
    wrapper.chmod(0o755)
    log = tmp_path / "ttyS0.log"
    r = subprocess.run([os.path.join(REPO, "tools", "ekdb-debug"), "--gdb", str(wrapper),
                        "--log", str(log)], stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=BOOT_TIMEOUT + 120)
    out = r.stdout + r.stderr
    assert "add-auto-load-safe-path" in out, out           # the command line it shows
    assert not re.search(TRACEBACK, out), out
    assert re.search(DMESG_LINE + r"kgdb: Waiting for connection from remote gdb", out, re.M), out
    assert re.search(r"^0x[0-9a-f]{16}   0   swapper/0$", out, re.M), out
