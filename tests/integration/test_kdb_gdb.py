# SPDX-License-Identifier: GPL-2.0
"""kdb and gdb on one serial line (issue 4, docs/kdb.md "kdb and gdb on one
line"): gdb connecting at the kdb prompt is noticed and handed the line;
`monitor <cmd>` runs kdb commands with their output in gdb; `maintenance
packet 3` ($3#33) gives the line back to kdb; `kgdb` typed in kdb gives it
to gdb again.

The debugger is on ttyS1 (the console stays on ttyS0, so gdb's line carries
only kdb and packets).  The Machine types on ttyS1 while kdb has it, and
releases the socket to gdb (release_port) and takes it back (take_port)."""

import os
import re
import signal
import time

import pytest

from gdbdriver import GdbError
from gdb_boot import ACKS_ON, frames as gdb_frames, stop_func
from kdb_session import (BOOT_COMPLETE, CONSOLE, CTRL_U, ENTRY, PROMPT, Kdb, boot_kdb)
from qemu import BOOT_TIMEOUT
from rsp import TIMEOUT as RSP_TIMEOUT, Rsp, frame

KDB_ON_TTYS1 = f"{CONSOLE} ekgdboc=ttyS1 kgdbwait"


def kill_gdb(g):
    """Drop gdb without letting it say goodbye on the line (a `D` packet
    would detach and resume the kernel)."""
    try:
        os.killpg(g.proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    g.proc.wait()


def monitor(g, cmd):
    return g.monitor(cmd)


def connect_gdb(gdb, m):
    m.release_port(1)
    g = gdb()
    for c in ACKS_ON:
        g.cmd(c)
    g.connect(m.socket_path(1))
    return g


def test_kdb_gdb_monitor_and_back(machine, gdb):
    m = boot_kdb(machine, cmdline=KDB_ON_TTYS1, port=1, ports=("unix", "unix"))
    k = Kdb(m, port=1)
    out = k.cmd("bp mm_init")
    assert re.match(r"^Instruction\(i\) BP #0 at 0x[0-9a-f]{16} \(mm_init\)\n"
                    r"    is enabled   addr at [0-9a-f]{16}, hardtype=0 installed=0$", out), out

    # -- gdb connects while kdb waits at its prompt: handed the line
    g = connect_gdb(gdb, m)
    names = gdb_frames(g.cmd("bt"))
    assert "setup_arch" in names and "start_kernel" in names, names
    assert names.index("setup_arch") < names.index("start_kernel")

    # -- monitor: kdb commands, output in gdb
    ps = monitor(g, "ps")
    assert "*swapper/0" in ps and "Task Addr" in ps, ps
    bl = monitor(g, "bl")
    assert re.search(r"^Instruction\(i\) BP #0 at 0x[0-9a-f]{16} \(mm_init\)\n"
                     r"    is enabled   addr at [0-9a-f]{16}, hardtype=0 installed=0$", bl, re.M), bl
    d3 = [ln for ln in monitor(g, "dmesg 3").splitlines() if ln.strip()]
    assert len(d3) == 3 and "Waiting for connection from remote gdb" in d3[-1], d3
    assert all(re.match(r"^<[0-7]>\[ *\d+\.\d{6}\] ", ln) for ln in d3), d3
    assert "kgdb" in monitor(g, "dmesg | grep kgdb")

    # -- maintenance packet 3: back to kdb.  kdb answers with its prompt,
    # not a packet, so gdb may time out waiting for a reply.
    g.cmd("set remotetimeout 3")
    try:
        g.cmd("maintenance packet 3", timeout=30)
    except GdbError:
        pass
    kill_gdb(g)
    m.take_port(1)
    k.key(CTRL_U)                      # whatever gdb left on the line
    ps = k.cmd("ps")
    assert "*swapper/0" in ps, ps
    assert "mm_init" in k.cmd("bl")

    # -- kgdb typed in kdb: the line is gdb's again
    assert "cleared" in k.cmd("bc 0")    # kdb's bp: see test_gdb_stops_at_kdb_breakpoint
    k.mark()
    k.type("kgdb")
    k.enter()
    k.wait(r"Entering please attach debugger or use \$D#44\+ or \$3#33")
    g2 = connect_gdb(gdb, m)
    assert "setup_arch" in gdb_frames(g2.cmd("bt"))
    g2.cmd("break mm_init")
    g2.cont()
    stop = g2.wait_stop(timeout=BOOT_TIMEOUT)
    assert stop_func(stop) == "mm_init", stop
    assert "Breakpoint" not in monitor(g2, "bl")   # gdb takes its own out when stopped
    g2.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_gdb_stops_at_kdb_breakpoint(machine, gdb):
    """`bp mm_init` in kdb, then gdb connects at the prompt and continues:
    the kernel stops at mm_init (shared breakpoint table)."""
    m = boot_kdb(machine, cmdline=KDB_ON_TTYS1, port=1, ports=("unix", "unix"))
    k = Kdb(m, port=1)
    k.cmd("bp mm_init")
    g = connect_gdb(gdb, m)
    assert re.search(r"BP #0 at 0x[0-9a-f]{16} \(mm_init\)", monitor(g, "bl"))
    g.cont()
    stop = None
    while stop is None and not re.search(BOOT_COMPLETE, m.output(0)):
        try:
            stop = g.wait_stop(timeout=2)
        except GdbError:
            pass
    assert stop is not None, "boot went on past the kdb breakpoint at mm_init"
    assert stop_func(stop) == "mm_init", stop



def _read_until(r, regex, timeout=None):
    """Bytes from the scripted client's line up to and including regex."""
    deadline = time.monotonic() + (timeout or RSP_TIMEOUT)
    while True:
        mm = re.search(regex, r.buf)
        if mm:
            out, r.buf = r.buf[:mm.end()], r.buf[mm.end():]
            return out.decode("latin-1")
        r._fill(deadline, regex)


def test_gdb_detach_packet_after_packet_3_stays_in_kdb(machine, gdb):
    """Issue 21: gdb hands the line back (`maintenance packet 3`), then its
    `$D#44` (what gdb sends when it exits, and what a person copies from
    kdb's `kgdb` message) reaches kdb's prompt.  Linux's rule decides: a
    packet other than gdb's greeting is text once kdb has the line again,
    so kdb answers `Unknown kdb command` and the kernel stays stopped (it
    used to detach and boot on).  The exact bytes gdb would send, from a
    scripted client (real gdb retransmits `$3#33` on its timeout)."""
    m = boot_kdb(machine, cmdline=KDB_ON_TTYS1, port=1, ports=("unix", "unix"))
    m.release_port(1)
    r = Rsp(m.socket_path(1))
    r.send_raw(b"+" + frame("qSupported:multiprocess+;swbreak+"))
    reply, _ = r.read_reply()
    assert "PacketSize" in reply, reply
    assert r.ask("?").startswith("T05"), r.log[-300:]
    r.send_raw(frame("3"))                       # maintenance packet 3
    _read_until(r, rb"Entering kdb \(current=[^\n]*\n\[0\]kdb> ")
    r.send_raw(frame("D") + b"\r")              # gdb's detach, then Enter
    out = _read_until(r, rb"\[0\]kdb> ")
    assert "Unknown kdb command: '$D#44'" in out, out
    r.send_raw(b"ps\r")
    out = _read_until(r, rb"\[0\]kdb> ")
    assert "*swapper/0" in out, out               # still stopped at kgdbwait, in kdb
    m.expect_not(BOOT_COMPLETE, port=0)
    r.close()
    # a new gdb is still recognised by its greeting
    g = connect_gdb(gdb, m)
    assert "setup_arch" in gdb_frames(g.cmd("bt"))
    g.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_killed_gdb_kdb_reachable_no_stray_ack(machine, gdb):
    """Issue 21: a gdb killed (SIGKILL) while it owns the line leaves no
    packet behind; a line typed there (`ps` Enter: two printable bytes or
    more, then Enter, which gdb never sends outside a packet) gives the line
    back to kdb at once, as `$3#33` does: the entry line and the prompt (the
    typed line itself is not run).  And after `maintenance packet 3` a gdb
    waiting for a reply NAKs (`-`) on each timeout and acks (`+`) when it
    gives up: none of it lands in kdb's line.  Bad inputs: one byte then Enter, and line noise, stay
    gdb's (tests/host/test_gdb_packet.c::test_typed_line_gives_kdb)."""
    m = boot_kdb(machine, cmdline=KDB_ON_TTYS1, port=1, ports=("unix", "unix"))
    k = Kdb(m, port=1)
    g = connect_gdb(gdb, m)
    assert "setup_arch" in gdb_frames(g.cmd("bt"))
    kill_gdb(g)                                  # gdb owned the line: no $3#33, no D
    m.take_port(1)
    start = k.mark()
    k.type("ps")
    k.enter()
    e = k.wait(ENTRY)
    assert e.group(3) == "Keyboard Entry", e.group(0)
    k.wait(PROMPT)
    assert "swapper" not in k.since(start)        # the typed line was not run
    ps = k.cmd("ps")
    assert "*swapper/0" in ps, ps
    m.expect_not(BOOT_COMPLETE, port=0)

    # -- maintenance packet 3, then gdb gives up waiting (its last '+'), killed
    g = connect_gdb(gdb, m)
    assert "setup_arch" in gdb_frames(g.cmd("bt"))
    g.cmd("set remotetimeout 1")
    with pytest.raises(GdbError, match="error while fetching packet|Ignoring packet error"):
        g.cmd("maintenance packet 3", timeout=60)
    kill_gdb(g)
    m.take_port(1)
    start = k.mark()
    ps = k.cmd("ps")
    echo = k.since(start).split("\n", 1)[0]
    assert "+" not in echo and "-" not in echo and "Unknown kdb command" not in ps, (echo, ps)
    assert "*swapper/0" in ps, ps
    # a new gdb is still recognised by its greeting
    g = connect_gdb(gdb, m)
    assert "setup_arch" in gdb_frames(g.cmd("bt"))
    g.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_monitor_obeys_cmd_enable(machine, gdb):
    """kdb.cmd_enable=0x28 (register read + inspection) holds for gdb's
    `monitor` as for kdb typed on the line, before and after the handoff:
    `monitor md` and `monitor mm` are refused and show no memory,
    `monitor ps` runs (issue 19, planted bug 2: a restriction that fails
    open through gdb)."""
    m = machine(cmdline=f"{CONSOLE} ekgdboc=ttyS1 kgdboc=ttyS1 kgdbwait kdb.cmd_enable=0x28",
                ports=("unix", "socket"))
    m.wait_for(r"kgdb: Waiting for connection from remote gdb", timeout=BOOT_TIMEOUT)
    g = connect_gdb(gdb, m)
    for where in ("setup_arch", "sched_init"):
        out = monitor(g, f"md {where}")
        assert "Permission denied" in out, out
        assert not re.search(r"0x[0-9a-f]{16} [0-9a-f]{16}", out), out     # no dump
        out = monitor(g, f"mm {where} 0")
        assert "Permission denied" in out, out
        assert "Permission denied" in monitor(g, "bp rest_init")
        assert "swapper/0" in monitor(g, "ps")
        if where == "setup_arch":
            g.cmd("break sched_init")                  # after the handoff
            g.cont()
            st = g.wait_stop(timeout=BOOT_TIMEOUT)
            assert stop_func(st) == "sched_init", st
            m.wait_for(r"ekdb: handoff: ", from_start=True, timeout=60)
    g.cmd("delete")
    g.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
