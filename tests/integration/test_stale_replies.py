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
import re
import shlex
import subprocess
import sys
import threading
import time

from conftest import KERNEL_ELF
from gdb_boot import ACKS_ON, WAITING, attach, boot_to_kgdbwait, hexes
from gdb_wire import DropPackets, Hold, WireProxy
from gdbdriver import GdbError
from qemu import BOOT_TIMEOUT, REPO
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


def model_ctl(send):
    """A model's control socket (`send` is Machine.xdbc_control or
    dbgp_control): each command must say ok; "sleep S" waits S seconds."""
    def control(c):
        if c.startswith("sleep "):
            time.sleep(float(c.split()[1]))
            return
        r = send(c)
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
    ctl = model_ctl(m.xdbc_control)

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
    wrong = walk_faults(g, DBGP_FAULTS, model_ctl(m.dbgp_control))
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


CTL = ("import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); "
       "s.sendall(sys.argv[2].encode() + b'\\n'); sys.stdout.write(s.recv(4096).decode())")


def documented_gdb(doc, sock, ctl, steps):
    """Run the `# gdb:` line of docs/<doc> as written (its socket path made
    private: tests run in parallel), in batch mode with `steps` after it:
    ("ctl", command) goes to the model's control socket (through gdb's
    `shell`), ("later", command) goes there 3 s later (gdb goes on at
    once), ("x", expr) is a gdb command whose output is kept.  Returns
    the outputs of the "x" steps, in order, and gdb's whole output."""
    text = open(os.path.join(REPO, "docs", doc)).read()
    line = re.search(r"^# gdb:\s+(gdb .*)$", text, re.M)
    assert line, f"docs/{doc}: no '# gdb:' line"
    argv = shlex.split(line.group(1))
    assert argv[:2] == ["gdb", "build/kernel.elf"], argv
    path = [a for a in argv if a.startswith("target remote ")][0].split()[2]
    cmd = ["gdb", "-nx", "-batch"] + [a.replace(path, sock) for a in argv[1:]]
    n = 0
    for kind, what in steps:
        if kind in ("ctl", "later"):
            sh = (f"{shlex.quote(sys.executable)} -c {shlex.quote(CTL)} "
                  f"{shlex.quote(ctl)} {shlex.quote(what)}")
            if kind == "later":
                sh = f"(sleep 3; {sh}) >/dev/null 2>&1 &"
            cmd += ["-ex", f"shell {sh}"]
        else:
            cmd += ["-ex", f"echo @@{n}\\n", "-ex", what]
            n += 1
    cmd += ["-ex", f"echo @@{n}\\n", "-ex", "detach"]
    r = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600,
                       stdin=subprocess.DEVNULL)
    out = r.stdout + r.stderr
    parts = [out.split(f"@@{i}\n", 1)[1].split(f"@@{i + 1}\n", 1)[0]
             if f"@@{i + 1}\n" in out else "" for i in range(n)]
    return parts, out


def test_documented_xdbc_gdb_line_retransmits(machine):
    """docs/xdbc.md's gdb command line, as written: two lost IN events
    (gdb sends the request again: the 256-byte read is byte-exact), then a
    stalled IN endpoint let go after gdb gave up (no stale answer)."""
    m = boot_xdbc(machine, cmdline=f"{XDBC_WAIT} nokaslr")
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    want = [elf_bytes(e) for e in ("x/256xb _text",) + KNOWN]
    parts, out = documented_gdb("xdbc.md", m.xdbc_path, os.path.join(m.sockdir, "xdbc.ctl"), [
        ("ctl", "drop-events in 2"), ("x", "x/256xb _text"),
        ("ctl", "stall in"), ("x", LOST), ("ctl", "clear-halt")] + [("x", e) for e in KNOWN])
    got = [hexes(p) for i, p in enumerate(parts) if i != 1]
    assert got == want, out[-3000:]
    assert m.xdbc_control("stats")["events_dropped"] == 2


def test_documented_dbgp_gdb_line_retransmits(machine):
    """docs/dbgp.md's gdb command line, as written: the cable pulled when
    gdb sends a request and put back 3 s later (the device's bus reset
    loses what gdb had sent: gdb sends it again and the read is
    byte-exact), then pulled until gdb gave up (no stale answer after)."""
    m = boot_dbgp(machine, cmdline=f"{DBGP_WAIT} nokaslr")
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    want = [elf_bytes(e) for e in (LOST,) + KNOWN]
    parts, out = documented_gdb("dbgp.md", m.dbgp_path, os.path.join(m.sockdir, "dbgp.ctl"), [
        ("ctl", "unplug"), ("later", "plug"), ("x", LOST),
        ("ctl", "unplug"), ("x", LOST), ("ctl", "plug")] + [("x", e) for e in KNOWN])
    got = [hexes(p) for i, p in enumerate(parts) if i != 1]
    assert got == want, out[-3000:]
