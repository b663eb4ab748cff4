"""The EHCI USB debug port as a user meets it, through tools/dbgp-sim
behind QEMU's x-pci-proxy-dev: kdb typed on the port, the boot log on the
port (earlyprintk=dbgp0,keep), Ctrl-C break-in while the kernel runs
(kgdbdbgp=0,1), and what goes wrong: a NAK storm, a device unplugged and
plugged back, a device firmware already set up, firmware that does not let
go, no EHCI, an EHCI without a debug port, a debug port that does not
exist, malformed values (kgdbdbgp=, earlyprintk=dbgp)."""

import re
import time

import pytest

from kdb_session import BAD, ENTRY, PROMPT, Kdb
from qemu import BOOT_TIMEOUT, SCALE

CONSOLE = "earlyprintk=serial,ttyS0,115200"
BOOT_COMPLETE = r"boot complete: \d+ CPUs online"
FOUND = r"dbgp: EHCI [0-9a-f]{2}:[0-9a-f]{2}\.\d debug port 2: debug device at 127"


def boot(machine, cmdline, knobs=(), connect=True):
    m = machine(cmdline=cmdline, ports=("unix",), dbgp=True, dbgp_knobs=knobs)
    port = m.take_dbgp() if connect else None
    return m, port


def test_kdb_on_the_debug_port(machine):
    """kdb at kgdbwait on the port: commands typed there answer there; go
    lets the boot complete; nothing of it on the serial line."""
    m, p = boot(machine, f"{CONSOLE} kgdbdbgp=0 kgdbwait")
    m.wait_for(ENTRY, port=p, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    k = Kdb(m, p)
    out = k.cmd("bt")
    assert "setup_arch" in out and "ekdb_early_init" in out, out
    out = k.cmd("md boot_params 2")
    assert re.search(r"0x[0-9a-f]{16} +[0-9a-f]{16}", out), out
    assert "kdb>" not in m.output(0)
    k.type("go")
    k.enter()
    m.wait_for(BOOT_COMPLETE, port=0, timeout=BOOT_TIMEOUT)   # the log is on ttyS0 only
    assert m.dbgp_control("stats")["enumerations"] == 1


def test_earlyprintk_dbgp_keep_boot_log(machine):
    """earlyprintk=dbgp0,keep: the whole boot log, from the banner on (the
    console replays what came before it), arrives on the port with \\r\\n."""
    m, p = boot(machine, "earlyprintk=dbgp0,keep loglevel=7 exit_after_boot")
    m.wait_for(r"ekdb reference kernel", port=p, timeout=BOOT_TIMEOUT)
    m.wait_for(r"Command line: earlyprintk=dbgp0,keep", port=p)
    m.wait_for(FOUND, port=p)
    m.wait_for(BOOT_COMPLETE + r"\r\n", port=p, timeout=BOOT_TIMEOUT)
    assert m.wait_exit(timeout=60) == 0


def test_console_and_debugger_share_the_port(machine):
    """earlyprintk=dbgp0 with kgdbdbgp=0: one device, one enumeration, the
    log and then the kdb prompt on the same port."""
    m, p = boot(machine, "earlyprintk=dbgp0 kgdbdbgp=0 kgdbwait")
    m.wait_for(r"kgdb: Registered I/O driver kgdbdbgp \(dbgp0\)", port=p,
               timeout=BOOT_TIMEOUT)
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    out = Kdb(m, p).cmd("bt")
    assert "setup_arch" in out, out
    assert m.dbgp_control("stats")["enumerations"] == 1


def test_ctrl_c_break_in_while_running(machine):
    """kgdbdbgp=0,1: the running kernel looks at the port every second;
    Ctrl-C there enters kdb; go resumes it."""
    m, p = boot(machine, f"{CONSOLE} kgdbdbgp=0,1")
    m.wait_for(BOOT_COMPLETE, port=0, timeout=BOOT_TIMEOUT)
    m.send(p, b"\x03")
    m.wait_for(ENTRY, port=p, timeout=60 * SCALE)
    m.wait_for(PROMPT, port=p)
    k = Kdb(m, p)
    assert "Stack traceback" in k.cmd("bt")
    k.type("go")
    k.enter()
    m.wait_for(r"go\r?\n", port=p)
    m.send(p, b"\x03")
    m.wait_for(ENTRY, port=p, timeout=60 * SCALE)


def test_no_break_in_poll_without_secs(machine):
    """kgdbdbgp=0 (no seconds): as in Linux, the running kernel never reads
    the port, so Ctrl-C is not seen (and costs nothing)."""
    m, p = boot(machine, f"{CONSOLE} kgdbdbgp=0")
    m.wait_for(BOOT_COMPLETE, port=0, timeout=BOOT_TIMEOUT)
    before = m.dbgp_control("stats")["transactions"]
    m.send(p, b"\x03")
    time.sleep(3 * SCALE)
    assert not re.search(ENTRY, m.output(p))
    assert m.dbgp_control("stats")["transactions"] == before
