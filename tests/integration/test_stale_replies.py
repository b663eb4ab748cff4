"""Never a stale answer (issue 33): after a fault of the line (a stalled
endpoint, lost events, the cable out, a port reset, a far host that stops
reading, a line held or packets lost), each gdb request gets one reply and
it is the reply to that request.  gdb (acks on) sends a request again when
our '+' does not come, NAKs with '-' when the reply does not come, and
acks with '+' when it gives up; a line that stalled hands the stub all of
that at once, long after gdb went on.  The stub answers a request once,
and not at all when gdb went on without it (gdbstub/packet.c).

Each test walks a table of its transport's fault knobs in one boot: the
fault, a read gdb may lose to it (setup_arch's first bytes), the fault
undone, then reads of known memory (kernel text, compared with the ELF as
linked: nokaslr).  A stale answer is the reply to an earlier request, so it
shows as the wrong bytes.

Not in the tables: a far host that stops taking the DbC's output
(`ring-full`) and takes it again after gdb gave up receives the stub's
queued '+' and reply late, and gdb takes them for its next request: a DbC
cannot take back TRBs it owns (docs/xdbc.md, Limits)."""

import os
import subprocess
import threading
import time

from conftest import KERNEL_ELF
from gdb_boot import ACKS_ON, WAITING, attach, boot_to_kgdbwait, hexes
from gdb_wire import DropPackets, Hold, WireProxy
from gdbdriver import GdbError
from qemu import BOOT_TIMEOUT
from test_dbgp_gdb import DBGP_WAIT, attach_dbgp, boot_dbgp
from test_xdbc_gdb import XDBC_WAIT, attach_xdbc, boot_xdbc

LOST = "x/64xb setup_arch"                      # the request a fault may take
KNOWN = ("x/64xb _text", "x/64xb start_kernel", "x/64xb setup_arch")


def elf_bytes(expr):
    out = subprocess.run(["gdb", "-nx", "-batch", "-ex", expr, KERNEL_ELF],
                         capture_output=True, text=True, timeout=120).stdout
    return hexes(out)


def walk_faults(g, faults, control):
    """For each (name, before, after): `before` on the control socket, the
    read a fault may take (gdb waits 2 s a try: it gives up after 4 sends
    and 3 NAKs), `after`, then the known reads.  Returns {name: what was
    wrong} for every fault that gave a wrong answer."""
    want = {e: elf_bytes(e) for e in KNOWN + (LOST,)}
    assert all(len(w) == 64 for w in want.values()), want
    wrong = {}
    for name, before, after in faults:
        g.cmd("set remotetimeout 2")
        for c in before:
            control(c)
        try:
            got = hexes(g.cmd(LOST, timeout=120))
            if got and got != want[LOST]:
                wrong[name] = f"during: {got[:8]}"
        except GdbError:
            pass                                 # lost to the fault: an error, not a lie
        for c in after:
            control(c)
        g.cmd("set remotetimeout 10")
        for e in KNOWN:
            got = hexes(g.cmd(e, timeout=120))
            if got != want[e]:
                wrong.setdefault(name, f"{e} after: {got[:8]} want {want[e][:8]}")
    return wrong


def xdbc_ctl(m):
    def control(c):
        if c.startswith("sleep "):
            time.sleep(float(c.split()[1]))
            return
        r = m.xdbc_control(c)
        assert r.get("ok"), (c, r)
    return control


class Later:
    """A control command a little after the lost read has started (a port
    reset while gdb's request is on its way)."""

    def __init__(self, control, cmd, delay):
        self.control, self.cmd, self.delay = control, cmd, delay

    def __call__(self):
        threading.Timer(self.delay, self.control, (self.cmd,)).start()


XDBC_FAULTS = (
    ("stall in", ["stall in"], ["clear-halt"]),
    ("stall out", ["stall out"], ["clear-halt"]),
    ("drop-events in", ["drop-events in 2"], []),
    ("drop-events out", ["drop-events out 2"], []),
    ("late-events", ["late-events 3"], []),
    ("unplug", ["unplug"], ["plug"]),
    ("port-reset", ["later port-reset"], ["sleep 1"]),
)


def test_xdbc_faults_never_give_a_stale_answer(machine, gdb):
    m = boot_xdbc(machine, cmdline=f"{XDBC_WAIT} nokaslr")
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    g = attach_xdbc(gdb, m)
    ctl = xdbc_ctl(m)

    def control(c):
        if c.startswith("later "):
            Later(ctl, c[len("later "):], 0.5)()
        else:
            ctl(c)

    wrong = walk_faults(g, XDBC_FAULTS, control)
    st = m.xdbc_control("stats")
    assert not wrong, (sorted(wrong), wrong, st)
    assert st["stalls"] == 2 and st["events_dropped"] >= 2 and st["port_resets"] == 1, st
    assert "etach" in g.detach()


DBGP_FAULTS = (
    ("nak", ["nak 40"], []),
    ("timeout", ["timeout 6"], []),
    ("lose-out-ack", ["lose-out-ack 3"], []),
    ("lose-in-ack", ["lose-in-ack 3"], []),
    ("unplug", ["unplug"], ["plug"]),
)


def test_dbgp_faults_never_give_a_stale_answer(machine, gdb):
    m = boot_dbgp(machine, cmdline=f"{DBGP_WAIT} nokaslr")
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    g = attach_dbgp(gdb, m)

    def control(c):
        if c.startswith("sleep "):
            time.sleep(float(c.split()[1]))
            return
        r = m.dbgp_control(c)
        assert r.get("ok"), (c, r)

    wrong = walk_faults(g, DBGP_FAULTS, control)
    st = m.dbgp_control("stats")
    assert not wrong, (sorted(wrong), wrong, st)
    assert st["unplugs"] == 1 and st["naks"] >= 40, st
    assert "etach" in g.detach()


def test_serial_held_or_lost_never_gives_a_stale_answer(machine, gdb, tmp_path):
    """The serial line (ekgdboc=ttyS1) through a proxy that holds gdb's
    bytes (a stalled line, let go after gdb gave up), or loses gdb's
    packets, or the stub's replies (its '+' and answer)."""
    m = boot_to_kgdbwait(machine, cmdline="earlyprintk=serial,ttyS0,115200 "
                                          "ekgdboc=ttyS1 kgdbwait nokaslr")
    proxy = WireProxy(os.path.join(m.sockdir, "held.sock"), m.socket_path(1),
                      log_path=tmp_path / "wire.log")
    try:
        g = attach(machine, gdb, m, target=proxy.path, pre=ACKS_ON)

        def control(c):
            if c == "hold":
                proxy.to_stub = Hold()
            elif c == "release":
                proxy.release("to_stub")
            elif c == "lose requests":
                proxy.to_stub = DropPackets(2)
            elif c == "lose replies":
                proxy.to_gdb = DropPackets(1)
            elif c == "clear":
                proxy.to_stub = proxy.to_gdb = None

        faults = (("held", ["hold"], ["release"]),
                  ("requests lost", ["lose requests"], ["clear"]),
                  ("reply lost", ["lose replies"], ["clear"]))
        wrong = walk_faults(g, faults, control)
        assert not wrong, (sorted(wrong), wrong)
        assert "etach" in g.detach()
    finally:
        proxy.close()
