"""The USB debug port across the debugger's handoff and the EHCI
host-controller driver (docs/dbgp.md, "At the handoff"): the running
kernel's debug-port driver takes the device over from the early one
without enumerating it again (the model counts enumerations), and the
EHCI driver's reset keeps the port working through Linux's
dbgp_reset_prep/dbgp_external_startup contract.  Real gdb and kdb on the
port keep their session; earlyprintk=dbgp0 stops at the EHCI driver's
reset, earlyprintk=dbgp0,keep goes on; a chipset whose reset takes the
port down gets the device enumerated again, once."""

import re

import pytest

from gdb_boot import ACKS_ON, BOOT_COMPLETE, WAITING, cont_to_stop, frames, stop_func
from kdb_session import BAD, ENTRY, PROMPT, Kdb
from qemu import BOOT_TIMEOUT

CONSOLE = "earlyprintk=serial,ttyS0,115200"
HANDOFF = (r"ekdb: handoff: \d+ breakpoints \(\d+ sw, \d+ hw\) kept, \d+ installed, "
           r"dbgp0 -> dbgp0, kdb\+gdb session kept")
IN_USE = r"ehci_hcd [0-9a-f]{2}:[0-9a-f]{2}\.\d: debug port 2 IN USE"
KEPT = r"dbgp: dbgp0: debug port kept across the EHCI reset \(device 127, not enumerated again\)"
STARTED = (r"ehci_hcd [0-9a-f:.]+: USB 2\.0 started, EHCI 1\.00, 4 ports, 0 connected, "
           r"debug port in use\r?\n")
DROPPED = r"dbgp: dbgp0: the EHCI reset took the debug port down: debug device enumerated again"
GONE = r"debug device not answering"

pytestmark = pytest.mark.qemu


def boot(machine, cmdline, knobs=(), **kw):
    m = machine(cmdline=cmdline, ports=("unix",), dbgp=True, dbgp_knobs=knobs, **kw)
    return m, m.take_dbgp()


def test_gdb_session_across_handoff_and_ehci_driver(machine, gdb):
    """gdb attached at kgdbwait through the port: a breakpoint on a function
    that runs after the EHCI driver reset and started the controller stops
    in the same gdb session; the device was enumerated once, the controller
    reset once."""
    m = machine(cmdline=f"{CONSOLE} kgdbdbgp=0 kgdbwait ekdb.debug_early=unmap", smp=2,
                ports=("unix",), dbgp=True)
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    g = gdb()
    for c in ACKS_ON:
        g.cmd(c)
    g.connect(m.dbgp_path, timeout=120)
    assert frames(g.cmd("bt"))[:3] == ["kgdb_breakpoint", "ekdb_early_init", "setup_arch"]
    resets0 = m.dbgp_control("stats")["hcresets"]          # the firmware's (EhciDxe)
    g.cmd("break kthreads_start")                     # kernel_init, after ehci_hcd_init()

    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "kthreads_start", st
    boot_log = m.output(0)
    for msg in (HANDOFF, IN_USE, KEPT, STARTED):
        assert re.search(msg, boot_log), (msg, boot_log[-3000:])
    # the handoff came before the EHCI driver
    assert re.search(HANDOFF, boot_log).start() < re.search(IN_USE, boot_log).start()
    stats = m.dbgp_control("stats")
    assert stats["enumerations"] == 1 and stats["port_resets"] == 1, stats
    assert stats["hcresets"] == resets0 + 1, stats   # the EHCI driver did reset it
    assert "kernel_init" in frames(g.cmd("bt"))
    out = g.cmd("x/2gx &jiffies")
    assert re.search(r"<jiffies>:\s+0x[0-9a-f]{16}", out), out
    assert "already hit 1 time" in g.cmd("info breakpoints")
    g.cmd("delete")
    assert "etach" in g.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    assert m.dbgp_control("stats")["enumerations"] == 1
    assert not re.search(BAD + "|" + GONE, m.output(0)), m.output(0)[-2000:]


def test_kdb_session_across_handoff_and_ehci_driver(machine):
    """kdb on the port: a breakpoint planted at kgdbwait fires after the
    EHCI driver's reset, on the same port; kdb's `dbgp` shows the late
    driver with the device as the early one left it."""
    m, p = boot(machine, f"{CONSOLE} kgdbdbgp=0 kgdbwait")
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    k = Kdb(m, p)
    resets0 = m.dbgp_control("stats")["hcresets"]          # the firmware's
    assert "BP #0" in k.cmd("bp kthreads_start")
    e = k.go(ENTRY)
    assert "Breakpoint" in e.group(0), e.group(0)
    k.wait(PROMPT)
    out = k.cmd("dbgp")
    assert re.search(r"dbgp0: EHCI [0-9a-f]{2}:[0-9a-f]{2}\.\d port 2, device 127 "
                     r"\(in ep 2, out ep 1\), toggles in [01] out [01], debugger", out), out
    assert "EHCI resets survived 1, enumerated again 0" in out, out
    assert re.search(r"BP #0 .*kthreads_start", k.cmd("bl")), k.cmd("bl")
    assert re.search(KEPT, m.output(0))
    k.cmd("bc 0")
    k.go(r"go\r?\n")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    st = m.dbgp_control("stats")
    assert st["enumerations"] == 1 and st["hcresets"] == resets0 + 1, st


def test_debugger_inside_the_ehci_reset(machine):
    """A breakpoint inside the EHCI driver's reset, where the controller is
    halted and the port quiesced: kdb still talks on the port (the late
    driver runs the controller for it and halts it again on go), and the
    reset then completes with the device kept."""
    m, p = boot(machine, f"{CONSOLE} kgdbdbgp=0 kgdbwait")
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    k = Kdb(m, p)
    assert "BP #0" in k.cmd("bp dbgp_external_startup")
    k.go(ENTRY)
    k.wait(PROMPT)
    bt = k.cmd("bt")
    assert "ehci_reset" in bt or "ehci_probe" in bt, bt
    assert not re.search(KEPT, m.output(0))                # not yet: inside the reset
    k.cmd("bc 0")
    k.go(r"go\r?\n")
    m.wait_for(KEPT, timeout=BOOT_TIMEOUT)
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    assert m.dbgp_control("stats")["enumerations"] == 1
    assert not re.search(GONE, m.output(0)), m.output(0)[-2000:]


def test_reset_that_drops_the_port(machine):
    """A chipset whose HCRESET takes the debug port down (and resets the
    device): dbgp_external_startup brings it up again right after the reset
    (one more enumeration, with a warning), and kdb goes on on the port."""
    m, p = boot(machine, f"{CONSOLE} kgdbdbgp=0 kgdbwait", knobs=("hcreset-drops-port",))
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    k = Kdb(m, p)
    resets0 = m.dbgp_control("stats")["hcresets"]
    k.cmd("bp kthreads_start")
    k.go(ENTRY)
    k.wait(PROMPT)
    m.wait_for(DROPPED, timeout=30)
    assert "EHCI resets survived 1, enumerated again 1" in k.cmd("dbgp")
    st = m.dbgp_control("stats")
    assert st["enumerations"] == 2 and st["hcresets"] == resets0 + 1, st
    assert not re.search(GONE, m.output(0)), m.output(0)[-2000:]
    k.cmd("bc 0")
    k.go(r"go\r?\n")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


@pytest.mark.parametrize("keep", [False, True], ids=["dbgp0", "dbgp0,keep"])
def test_console_at_the_ehci_reset(machine, keep):
    """earlyprintk=dbgp0 (console only): the log arrives on the port until
    the EHCI driver takes the controller; there it says so and stops, and
    the port is given back (not claimed).  With ,keep the log goes on to
    the end of the boot.  Either way the device is enumerated once."""
    opt = "earlyprintk=dbgp0" + (",keep" if keep else "")
    m, p = boot(machine, f"{CONSOLE} {opt}")
    m.wait_for(r"Command line: ", port=p, timeout=BOOT_TIMEOUT)
    m.wait_for(r"dbgp: dbgp0: console taken over from the early driver \(device 127, "
               r"no new enumeration\)", port=p, timeout=BOOT_TIMEOUT)
    m.wait_for(IN_USE, port=p, timeout=BOOT_TIMEOUT)
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)           # on ttyS0
    if keep:
        m.wait_for(BOOT_COMPLETE + r"\r\n", port=p, timeout=BOOT_TIMEOUT)
    log = m.output(p)
    st = m.dbgp_control("stats")
    assert st["enumerations"] == 1, st
    if keep:
        assert re.search(KEPT + r"\r\n", log), log[-1500:]
        assert re.search(r"ehci_hcd .*USB 2\.0 started.*debug port in use\r\n", log), log[-1500:]
        assert re.search(BOOT_COMPLETE + r"\r\n", log), log[-1500:]
        assert st["dbg_ctrl"] & (1 << 30), st               # still claimed (OWNER)
    else:
        stop = re.search(r"dbgp: the EHCI driver takes the controller: the console on dbgp0 "
                         r"stops \(earlyprintk=dbgp0,keep keeps it\)\r\n", log)
        assert stop, log[-1500:]
        assert log[stop.end():] == "", log[stop.end():]      # nothing after that line
        assert re.search(r"ehci_hcd .*USB 2\.0 started, EHCI 1\.00, 4 ports, 1 connected\r?\n",
                         m.output(0)), m.output(0)[-1500:]
        assert st["dbg_ctrl"] & ((1 << 30) | (1 << 28)) == 0, st  # released: not owned


def test_nousb_keeps_the_console(machine):
    """nousb: no EHCI driver, so nothing resets the controller and even a
    console without ,keep goes on to the end of the boot (the late driver
    still took it over, without a new enumeration)."""
    m, p = boot(machine, f"{CONSOLE} earlyprintk=dbgp0 nousb")
    m.wait_for(r"console taken over from the early driver", port=p, timeout=BOOT_TIMEOUT)
    resets0 = m.dbgp_control("stats")["hcresets"]
    m.wait_for(BOOT_COMPLETE + r"\r\n", port=p, timeout=BOOT_TIMEOUT)
    assert "ehci_hcd" not in m.output(0) and "stops" not in m.output(p)
    st = m.dbgp_control("stats")
    assert st["enumerations"] == 1 and st["hcresets"] == resets0, st
