"""The xHCI Debug Capability across the debugger's handoff and the xHCI
host-controller driver (docs/xdbc.md, "At the handoff"): the running
kernel's DbC driver takes the DbC over from the early one without the far
host enumerating it again (the model counts enumerations), on rings of
its own (the early static block is left: the model watches DMA into it,
and with ekdb.debug_early=unmap it is poisoned); the xHCI driver's HCRST
resets the DbC (as the specification has it: the model implements it),
the DbC driver enables it again and real gdb and kdb keep their session;
earlyprintk=xdbc0 stops at the handoff, earlyprintk=xdbc0,keep goes on
through the reset to the end of the boot; unplug and replug after the
handoff."""

import re
import time

import pytest

from gdb_boot import ACKS_ON, BOOT_COMPLETE, WAITING, cont_to_stop, frames, stop_func
from kdb_session import BAD, ENTRY, PROMPT, Kdb
from qemu import BOOT_TIMEOUT

CONSOLE = "earlyprintk=serial,ttyS0,115200"
HANDOFF = (r"ekdb: handoff: \d+ breakpoints \(\d+ sw, \d+ hw\) kept, \d+ installed, "
           r"xdbc0 -> xdbc0, kdb\+gdb session kept")
TAKEN = (r"xdbc: xdbc0: DbC taken over from the early driver \(port 2, not enumerated again\), "
         r"rings at (0x[0-9a-f]+); the early block at (0x[0-9a-f]+) is left")
IN_USE = r"xhci_hcd [0-9a-f]{2}:[0-9a-f]{2}\.\d: Debug Capability IN USE"
BACK = (r"xdbc: xdbc0: the xHCI reset turned the DbC off: enabled again, debug host back on "
        r"port 2 \(enumerated again\), the session goes on")
STARTED = r"xhci_hcd [0-9a-f:.]+: xHCI 1\.10 started, 4 ports, 0 connected, Debug Capability in use"
STOPS = (r"xdbc: the early console on xdbc0 stops at the handoff \(earlyprintk=xdbc0,keep keeps "
         r"it\): DbC turned off")
BLOCK = 12 * 1024

pytestmark = pytest.mark.qemu


def boot(machine, cmdline, knobs=(), **kw):
    return machine(cmdline=cmdline, ports=("unix",), xdbc=True, xdbc_knobs=knobs, **kw)


def wait_stats(m, pred, timeout=30):
    """The model's stats once pred holds (the guest's next register write
    is microseconds away, but the far side is another process)."""
    deadline = time.monotonic() + timeout
    while True:
        s = m.xdbc_control("stats")
        if pred(s) or time.monotonic() > deadline:
            return s
        time.sleep(0.05)


def attach(gdb, m):
    g = gdb()
    for c in ACKS_ON:
        g.cmd(c)
    g.connect(m.xdbc_path, timeout=120)
    return g


def test_gdb_session_across_handoff_and_xhci_reset(machine, gdb):
    """gdb attached at kgdbwait through the DbC: a breakpoint after the
    handoff stops in the same session with one enumeration (the takeover is
    invisible to the far host); the controller's new rings are in use and
    nothing touches the early block (watched, and poisoned with
    ekdb.debug_early=unmap); a breakpoint after the xHCI driver's HCRST
    stops in the same session: the DbC was reset and enabled again (one
    more enumeration), gdb never noticed."""
    m = boot(machine, f"{CONSOLE} kgdbxdbc=0 kgdbwait ekdb.debug_early=unmap")
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    g = attach(gdb, m)
    assert frames(g.cmd("bt"))[:3] == ["kgdb_breakpoint", "ekdb_early_init", "setup_arch"]
    early = m.xdbc_control("stats")
    assert early["enumerations"] == 1, early
    g.cmd("break sched_init")                 # after the handoff, before the xHCI driver
    g.cmd("break kthreads_start")             # kernel_init, after xhci_hcd_init()

    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "sched_init", st
    log = m.output(0)
    for msg in (HANDOFF, TAKEN):
        assert re.search(msg, log), (msg, log[-3000:])
    rings, old = (int(x, 16) for x in re.search(TAKEN, log).groups())
    s = m.xdbc_control("stats")
    assert s["enumerations"] == 1 and s["state"] == "configured", s     # no re-enumeration
    assert s["dbc_resets"] == 0, s
    # the event ring and the context moved at the handoff
    assert rings <= s["ev_base"] < rings + BLOCK and rings <= s["dccp"] < rings + BLOCK, s
    # gdb traffic: the controller walks over the Link TRBs into the new rings
    text = g.cmd("x/2000xb _text")
    assert len(re.findall(r"\t0x[0-9a-f]{2}", text)) == 2000, text[-300:]
    s = m.xdbc_control("stats")
    for deq in s["ep_deq"]:
        assert rings <= deq < rings + BLOCK, (hex(deq), hex(rings), s)
    # from now on nothing reads or writes the early block
    assert m.xdbc_control(f"watch-dma {old} {BLOCK}")["ok"]
    out = g.cmd("x/4gx &jiffies")
    assert re.search(r"<jiffies>:\s+0x[0-9a-f]{16}", out), out
    assert re.search(r"= \d+", g.cmd("p jiffies"))

    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "kthreads_start", st
    log = m.output(0)
    for msg in (IN_USE, BACK, STARTED):
        assert re.search(msg, log), (msg, log[-3000:])
    assert re.search(HANDOFF, log).start() < re.search(IN_USE, log).start()
    s = m.xdbc_control("stats")
    assert s["dbc_resets"] == 1 and s["enumerations"] == 2, s    # HCRST: the DbC came back
    assert "kernel_init" in frames(g.cmd("bt"))
    text = g.cmd("x/1000xb _text")
    assert len(re.findall(r"\t0x[0-9a-f]{2}", text)) == 1000, text[-300:]
    assert "already hit 1 time" in g.cmd("info breakpoints")
    s = m.xdbc_control("stats")
    assert s["watched_dma"] == 0 and s["trb_errors"] == 0, s
    g.cmd("delete")
    assert "etach" in g.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    s = m.xdbc_control("stats")
    assert s["enumerations"] == 2 and s["watched_dma"] == 0, s
    assert not re.search(BAD, m.output(0)), m.output(0)[-2000:]


def kdb_past_the_xhci_reset(machine, knobs=()):
    """kdb on the DbC at kgdbwait plants a breakpoint after the xHCI
    driver's reset and goes there: (machine, kdb, its `xdbc` output)."""
    m = boot(machine, f"{CONSOLE} kgdbxdbc=0 kgdbwait", knobs=knobs)
    p = m.take_xdbc()
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    k = Kdb(m, p)
    assert "BP #0" in k.cmd("bp kthreads_start")
    e = k.go(ENTRY)
    assert "Breakpoint" in e.group(0), e.group(0)
    k.wait(PROMPT)
    return m, k, k.cmd("xdbc")


def boot_on(m, k):
    """The breakpoint cleared, the boot completes."""
    k.cmd("bc 0")
    k.go(r"go\r?\n")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_kdb_session_across_handoff_and_xhci_reset(machine):
    """kdb on the DbC: a breakpoint planted at kgdbwait fires after the xHCI
    driver's reset, on the same DbC; kdb's `xdbc` shows the late driver,
    the reset survived and the early block no longer used."""
    m, k, out = kdb_past_the_xhci_reset(machine)
    assert re.search(r"xdbc0: xHCI [0-9a-f]{2}:[0-9a-f]{2}\.\d DbC at 0x[0-9a-f]+, port 2, "
                     r"configured, debugger", out), out
    assert "early block no longer used" in out, out
    assert "xHCI resets survived 1 (DbC enabled again 1, kept 0)" in out, out
    assert re.search(r"BP #0 .*kthreads_start", k.cmd("bl")), k.cmd("bl")
    assert re.search(BACK, m.output(0))
    s = m.xdbc_control("stats")
    assert s["enumerations"] == 2 and s["dbc_resets"] == 1, s
    boot_on(m, k)


def test_dbc_kept_across_an_xhci_reset_that_leaves_it(machine):
    """A controller whose HCRST leaves the DbC alone (the model's
    hcrst-keeps-dbc knob): the DbC driver finds DCE still set after the
    xHCI driver's reset and keeps the DbC as it is (no second enable, no
    second enumeration); the kdb session on it goes on through a
    breakpoint after the reset."""
    m, k, out = kdb_past_the_xhci_reset(machine, knobs=("hcrst-keeps-dbc",))
    assert "xHCI resets survived 1 (DbC enabled again 0, kept 1)" in out, out
    assert re.search(IN_USE, m.output(0))
    assert re.search(r"xdbc: xdbc0: DbC kept across the xHCI reset \(still enabled\)",
                     m.output(0))
    assert not re.search(BACK, m.output(0))
    s = m.xdbc_control("stats")
    assert s["hcresets"] >= 1 and s["dbc_resets"] == 0 and s["enumerations"] == 1, s
    assert s["enables"] == 1 and s["state"] == "configured", s
    boot_on(m, k)


def test_bytes_on_the_old_rings_after_the_handoff(machine):
    """The IN TRBs the early driver had posted stay the controller's after
    the handoff (a DbC cannot take them back): the first bytes the far host
    sends land in the early block's buffers and are carried to the late
    driver in order.  A kdb line sent in one burst at a breakpoint after
    the handoff (before the xHCI driver's reset voids the old rings) runs."""
    m = boot(machine, f"{CONSOLE} kgdbxdbc=0 kgdbwait nousb")
    p = m.take_xdbc()
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    k = Kdb(m, p)
    k.cmd("bp sched_init")
    k.go(ENTRY)
    k.wait(PROMPT)
    assert re.search(TAKEN, m.output(0))
    start = k.mark()
    m.send(p, b"md jiffies 1\r")              # one burst: one old IN TRB
    k.wait(PROMPT, from_start=False)
    out = k.since(start)
    assert re.search(r"0x[0-9a-f]{16} +[0-9a-f]{16}", out), out
    out = k.cmd("xdbc")
    assert re.search(r"carried [1-9]\d* bytes", out) and "lost 0" in out, out
    k.cmd("bc 0")
    k.go(r"go\r?\n")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_nousb_keeps_the_dbc_as_it_is(machine):
    """nousb: no xHCI driver, no reset: the DbC the handoff moved goes on to
    the end of the boot with its one enumeration (kdb still answers)."""
    m = boot(machine, f"{CONSOLE} kgdbxdbc=0 kgdbwait nousb")
    p = m.take_xdbc()
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    k = Kdb(m, p)
    k.cmd("bp kthreads_start")
    k.go(ENTRY)
    k.wait(PROMPT)
    assert "xHCI resets survived 0" in k.cmd("xdbc")
    assert not re.search(IN_USE, m.output(0))
    s = m.xdbc_control("stats")
    assert s["enumerations"] == 1 and s["dbc_resets"] == 0, s
    k.cmd("bc 0")
    k.go(r"go\r?\n")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_unplug_and_replug_after_the_handoff(machine):
    """The cable pulled and put back after the handoff (the late driver's
    rings): the far host enumerates the device again and kdb goes on."""
    m = boot(machine, f"{CONSOLE} kgdbxdbc=0 kgdbwait nousb")
    p = m.take_xdbc()
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    k = Kdb(m, p)
    k.cmd("bp kthreads_start")
    k.go(ENTRY)
    k.wait(PROMPT)
    assert m.xdbc_control("unplug")["ok"]
    assert m.xdbc_control("plug")["ok"]
    out = k.cmd("md jiffies 1")
    assert re.search(r"0x[0-9a-f]{16} +[0-9a-f]{16}", out), out
    assert "xdbc0" in k.cmd("xdbc")
    s = m.xdbc_control("stats")
    assert s["enumerations"] == 2 and s["state"] == "configured", s
    k.cmd("bc 0")
    k.go(r"go\r?\n")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_earlyprintk_xdbc_without_keep_stops_at_the_handoff(machine):
    """earlyprintk=xdbc0 (no keep): the boot log reaches the far host up to
    the handoff, whose last line says so, then the DbC is turned off (as
    Linux does); the xHCI driver then finds it unused."""
    m = boot(machine, "earlyprintk=xdbc0 loglevel=7 exit_after_boot")
    p = m.take_xdbc()
    m.wait_for(r"ekdb reference kernel", port=p, timeout=BOOT_TIMEOUT)
    m.wait_for(STOPS, port=p, timeout=BOOT_TIMEOUT)
    s = wait_stats(m, lambda s: s["state"] == "disabled")     # DCE 0 right after that line
    assert s["enumerations"] == 1 and s["disables"] >= 1, s
    assert m.wait_exit(timeout=BOOT_TIMEOUT) == 0             # exit_after_boot: it booted
    out = m.output(p)
    assert "boot complete" not in out and "xhci_hcd" not in out, out[-1500:]
    assert out.rstrip().endswith("DbC turned off"), out[-500:]


def test_earlyprintk_xdbc_keep_goes_on(machine):
    """earlyprintk=xdbc0,keep: the late driver takes the console over at the
    handoff (no re-enumeration), it survives the xHCI driver's reset (the
    DbC enabled again) and the log reaches the far host to the end."""
    m = boot(machine, "earlyprintk=xdbc0,keep loglevel=7")
    p = m.take_xdbc()
    m.wait_for(r"ekdb reference kernel", port=p, timeout=BOOT_TIMEOUT)
    m.wait_for(TAKEN, port=p, timeout=BOOT_TIMEOUT)
    m.wait_for(BACK, port=p, timeout=BOOT_TIMEOUT)
    m.wait_for(BOOT_COMPLETE + r"\r\n", port=p, timeout=BOOT_TIMEOUT)
    assert not re.search(STOPS, m.output(p))
    s = m.xdbc_control("stats")
    assert s["enumerations"] == 2 and s["dbc_resets"] == 1, s


def test_late_dbc_ops_refuse_breakpoints(machine):
    """Everything the stop path calls is debugger code: the late DbC
    driver's transport ops, found from the transport pointers of the
    stopped machine after the handoff (test_stop_path's method), and every
    function they reach (static call graph) refuse Z0 and Z1 with E01."""
    from rsp import Rsp
    from test_stop_path import call_graph, closure, hook_roots, moved, symbols

    addr, funcs = symbols()
    m = boot(machine, f"{CONSOLE} kgdbxdbc=0,1 kgdbwait")
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    addr, funcs = moved(m, addr, funcs)
    r = Rsp(m.xdbc_path)
    r.send_raw(b"+")
    assert "PacketSize" in r.ask("qSupported:swbreak+;hwbreak+")
    r.send_raw(b"$c#63")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    r.send_raw(b"\x03")                        # kgdbxdbc=0,1: looked for every second
    stop, _ = r.read_reply(timeout=240)
    assert stop.startswith("T02"), stop

    roots = hook_roots(r, addr, funcs)
    for f in ("lx_getc", "lx_putc", "lx_flush", "lx_pre", "lx_post"):
        assert f in roots, f"{f} not among the debugger's hooks: {sorted(roots)}"
    path = closure(call_graph(), roots)
    for f in ("xdbc_getc", "xdbc_poll", "xdbc_start", "xdbc_legacy_getc"):
        assert f in path, f"{f} not reached from the hooks: {sorted(path)}"
    accepted = []
    for f in sorted(path):
        if f not in addr or f in ("printk", "vprintk"):
            continue        # a local label; printk: test_stop_path's one exception
        for kind in (0, 1):
            reply = r.ask(f"Z{kind},{addr[f]:x},1")
            if not reply.startswith("E.01.in the debugger's own code"):
                accepted.append((f, kind, reply))
                r.ask(f"z{kind},{addr[f]:x},1")
    assert not accepted, f"breakpoints accepted in the late DbC driver's ops: {accepted}"
    r.send_raw(b"$D#44")
