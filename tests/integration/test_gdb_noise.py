"""The gdb line under stress: bytes damaged on the wire in both directions,
junk between packets, gdb killed mid-session and a new one connecting,
a half-sent packet left behind.  The stub must resynchronise on '$',
NAK bad checksums ('-') and retransmit what gdb NAKs.

A proxy (gdb_wire.WireProxy) sits between gdb and the guest's socket and
keeps a byte log (tmp_path/wire.log) for bug reports."""

import os
import re
import signal
import socket


from gdb_boot import (ACKS_ON, BOOT_COMPLETE, attach, boot_to_kgdbwait, cont_to_stop,
                      frames, reg, stop_func, value)
from gdb_wire import Corrupter, WireProxy
from gdb_wire import frames as frames_of
from qemu import BOOT_TIMEOUT

JUNK = b"~noise\x00\xff\x7fjunk"        # no '$', '#', '+', '-' or ^C in it


def nak_count(proxy, side):
    """'-' (please send again) sent by one side, outside packets."""
    return sum(1 for f in frames_of(proxy.received(side)) if f == b"-")


def snapshot(g):
    """A few answers that must come out the same on a noisy line."""
    return {
        "bt": frames(g.cmd("bt")),
        "rip": reg(g, "rip"),
        "rsp": reg(g, "rsp"),
        "cr3": reg(g, "cr3"),
        "boot_params": g.cmd("x/4gx &boot_params"),
        "loglevel": value(g, "console_loglevel"),
        "text": g.cmd("x/8i _text"),
    }


def test_line_noise_recovers(machine, gdb, tmp_path):
    m = boot_to_kgdbwait(machine)
    proxy = WireProxy(os.path.join(m.sockdir, "noise.sock"), m.socket_path(1),
                      log_path=tmp_path / "wire.log")
    try:
        # With acks on (as on any serial line kgdb-style): '-' asks again.
        g = attach(machine, gdb, m, target=proxy.path)
        clean = snapshot(g)
        assert clean["bt"][:3] == ["kgdb_breakpoint", "ekdb_early_init", "setup_arch"]

        # gdb -> stub: every 3rd packet has a byte flipped, junk before every 2nd.
        proxy.to_stub = Corrupter(every=3, junk=JUNK, junk_every=2)
        assert snapshot(g) == clean
        g.cmd("set var console_loglevel = 5")
        assert value(g, "console_loglevel") == "5"
        g.cmd(f"set var console_loglevel = {clean['loglevel']}")
        assert proxy.to_stub.flipped >= 3 and proxy.to_stub.injected >= 3
        naks = nak_count(proxy, "stub")
        assert naks >= proxy.to_stub.flipped, (naks, proxy.to_stub.flipped)
        proxy.to_stub = None

        # stub -> gdb: every 3rd reply damaged, junk between replies; gdb
        # NAKs and the stub must send the same reply again.
        proxy.to_gdb = Corrupter(every=2, junk=JUNK, junk_every=2)
        g.cmd("flushregs")                  # no cached answers: ask the stub again
        assert snapshot(g) == clean
        assert proxy.to_gdb.flipped >= 2
        assert nak_count(proxy, "gdb") >= proxy.to_gdb.flipped
        proxy.to_gdb = None

        # Breakpoints still work end to end after all that.
        g.cmd("break print_memory_map")
        g.cont()
        st = g.wait_stop(120)
        assert st.get("frame", {}).get("func") == "print_memory_map", st
        g.cmd("delete")
        g.cont()
        m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    finally:
        proxy.close()


def _kill_gdb(g):
    os.killpg(g.proc.pid, signal.SIGKILL)
    g.proc.wait(10)


def test_reconnect_after_gdb_killed(machine, gdb):
    """gdb dies without detaching (no D packet); a new gdb connects to the
    same socket and finds the machine still stopped in setup_arch.  Then a
    half-sent packet is left on the line and gdb connects again."""
    m = boot_to_kgdbwait(machine)
    g = attach(machine, gdb, m)
    want = frames(g.cmd("bt"))
    g.cmd("break print_memory_map")          # gdb inserts it on resume only
    rip = reg(g, "rip")
    _kill_gdb(g)

    g2 = attach(machine, gdb, m)
    assert frames(g2.cmd("bt")) == want
    assert reg(g2, "rip") == rip
    _kill_gdb(g2)

    # A client that sends half a packet and vanishes.
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(m.socket_path(1))
    s.sendall(b"$m ffffffff802")
    # No wait needed: QEMU's socket chardev serves one client at a time and
    # hands these bytes to the UART before it sees this client's EOF and
    # accepts the next one, so the stub gets them before g3's first '$'.
    s.close()

    g3 = attach(machine, gdb, m)
    assert frames(g3.cmd("bt")) == want
    g3.cmd("break print_memory_map")
    g3.cont()
    st = g3.wait_stop(120)
    assert st.get("frame", {}).get("func") == "print_memory_map", st
    g3.cmd("delete")
    g3.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_default_noack_connects_intact(machine, gdb):
    """Connect with gdb's defaults (the stub offers QStartNoAckMode) several
    times at kgdbwait: every time the target description (a 7 KB qXfer in
    two 4 KB replies) and the 'g' packet must arrive intact."""
    m = boot_to_kgdbwait(machine)
    for n in range(6):
        g = gdb()
        g.connect(m.socket_path(1))
        text = "\n".join(g.transcript)
        assert "Could not load XML" not in text and "too long" not in text, g.tail()
        assert re.search(r"^cr3\s+0x", g.cmd("info registers cr3"), re.M)
        assert frames(g.cmd("bt"))[0] == "kgdb_breakpoint"
        _kill_gdb(g)


def test_new_gdb_starts_with_no_stale_breakpoints(machine, gdb):
    """gdb #1 (always-inserted, so its breakpoints are in the stub right
    away) sets four hardware breakpoints and a software one, then dies.
    gdb #2 connects: all four debug registers must be free for it, and the
    kernel must not stop at breakpoints gdb #2 does not know."""
    m = boot_to_kgdbwait(machine)
    g = attach(machine, gdb, m,
               pre=ACKS_ON + ("set breakpoint always-inserted on",))
    for f in ("trap_init", "mm_init", "rest_init", "acpi_boot_table_init"):
        g.cmd(f"hbreak {f}")
    g.cmd("break print_memory_map")
    _kill_gdb(g)

    g2 = attach(machine, gdb, m)
    g2.cmd("hbreak mm_init")
    g2.cmd("watch kmalloc_ready")
    st = cont_to_stop(g2)              # refused insertion raises GdbError here
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "mm_init", st
    g2.cmd("delete")
    g2.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
