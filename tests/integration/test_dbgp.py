"""The EHCI USB debug port as a user meets it, through tools/dbgp-sim
behind QEMU's x-pci-proxy-dev: kdb typed on the port, the boot log on the
port (earlyprintk=dbgp0,keep), Ctrl-C break-in while the kernel runs
(kgdbdbgp=0,1), and what goes wrong: a NAK storm, a device unplugged and
plugged back, a device firmware already set up, firmware that does not let
go, no EHCI, an EHCI without a debug port, a debug port that does not
exist, malformed values (kgdbdbgp=, earlyprintk=dbgp)."""

import re

import pytest

from kdb_session import BAD, ENTRY, PROMPT, Kdb
from qemu import BOOT_TIMEOUT, SCALE

CONSOLE = "earlyprintk=serial,ttyS0,115200"
BOOT_COMPLETE = r"boot complete: \d+ CPUs online"
SHELL = r"ekdb:/# "
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
    # by then the late driver has the device and the EHCI driver reset the controller
    m.wait_for(r"dbgp: dbgp0: debug port kept across the EHCI reset", timeout=BOOT_TIMEOUT)
    m.wait_for(BOOT_COMPLETE, port=0, timeout=BOOT_TIMEOUT)
    m.send(p, b"\x03")
    m.wait_for(ENTRY, port=p, timeout=60 * SCALE)
    m.wait_for(PROMPT, port=p)
    k = Kdb(m, p)
    assert "Stack traceback" in k.cmd("bt")
    assert "EHCI resets survived 1, enumerated again 0" in k.cmd("dbgp")
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
    m.wait_for(SHELL, port=0, timeout=BOOT_TIMEOUT, fail_on=BAD)
    t0 = guest_uptime(m)
    m.send(p, b"\x03")
    # wait on the guest's clock, not the host's: three seconds of the
    # kernel running (a kgdbdbgp=0,1 poll would have looked three times)
    while guest_uptime(m) < t0 + 3:
        pass
    assert not re.search(ENTRY, m.output(p))
    assert m.dbgp_control("stats")["transactions"] == before


def guest_uptime(m):
    """The console shell's uptime on ttyS0, in seconds (the kernel's clock)."""
    m.send(0, b"uptime\r")
    up = m.wait_for(r"up (\d+)\.(\d{3}) s, ", port=0, timeout=60 * SCALE, fail_on=BAD)
    m.wait_for(SHELL, port=0, timeout=60 * SCALE, fail_on=BAD)
    return int(up.group(1)) + int(up.group(2)) / 1000


def test_nak_storm_mid_session(machine):
    """The device NAKs a burst of packets both ways while kdb talks: the
    driver retries within its time budget and the session goes on."""
    m, p = boot(machine, f"{CONSOLE} kgdbdbgp=0 kgdbwait")
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    k = Kdb(m, p)
    m.dbgp_control("nak 40")
    assert "setup_arch" in k.cmd("bt")
    assert m.dbgp_control("stats")["naks"] >= 40


def test_unplug_and_replug_while_running(machine):
    """The device goes away while the kernel runs: a clear message, the
    kernel keeps running; plugged back, it is enumerated again and Ctrl-C
    on it enters kdb."""
    m, p = boot(machine, f"{CONSOLE} kgdbdbgp=0,1")
    m.wait_for(BOOT_COMPLETE, port=0, timeout=BOOT_TIMEOUT)
    assert m.dbgp_control("unplug")["ok"]
    m.wait_for(r"dbgp: debug device not answering: output dropped until it is back",
               timeout=60 * SCALE)
    assert m.alive()
    assert m.dbgp_control("plug")["ok"]
    m.wait_for(r"dbgp: debug device back, enumerated again", timeout=60 * SCALE)
    assert m.dbgp_control("stats")["enumerations"] == 2
    m.send(p, b"\x03")
    m.wait_for(ENTRY, port=p, timeout=60 * SCALE)
    m.wait_for(PROMPT, port=p)
    assert "Stack traceback" in Kdb(m, p).cmd("bt")


def test_device_set_up_by_firmware_is_reused(machine):
    """A debug device an earlier stage left in debug mode at 127 on a
    claimed port is taken as it is: no controller or port reset, no new
    enumeration."""
    m, p = boot(machine, f"{CONSOLE} kgdbdbgp=0 kgdbwait", knobs=("preenumerated",))
    m.wait_for(FOUND + r".*already set up: reused", timeout=BOOT_TIMEOUT)
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    assert "setup_arch" in Kdb(m, p).cmd("bt")
    st = m.dbgp_control("stats")
    assert st["enumerations"] == 0 and st["port_resets"] == 0, st


@pytest.mark.parametrize("knob,warning", [("bios-owned", None),
                                          ("bios-stuck", r"dbgp: firmware did not release "
                                                         r"the EHCI controller in 1 s: taking it")])
def test_firmware_handoff(machine, knob, warning):
    """USBLEGSUP: firmware that owns the controller is asked to let go (and
    one that does not is overruled after a second)."""
    m, p = boot(machine, f"{CONSOLE} kgdbdbgp=0 kgdbwait", knobs=(knob,))
    if warning:
        m.wait_for(warning, timeout=BOOT_TIMEOUT)
    m.wait_for(FOUND, timeout=BOOT_TIMEOUT)
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT)
    if not warning:
        m.expect_not(r"did not release")


NO_PORT = [
    # (dbgp-sim or not, knobs, cmdline, messages)
    (False, (), "kgdbdbgp=0 kgdbwait",
     [r"dbgp: no EHCI debug port 0 \(0 EHCI controllers, 0 with a debug port\)",
      r"kgdb: kgdbdbgp=0: No such device: the debugger stays off"]),
    (True, ("no-debug-port",), "kgdbdbgp=0 kgdbwait",
     [r"dbgp: no EHCI debug port 0 \(1 EHCI controller, 0 with a debug port\)",
      r"kgdb: kgdbdbgp=0: No such device: the debugger stays off"]),
    (True, (), "kgdbdbgp=7 kgdbwait",
     [r"dbgp: no EHCI debug port 7 \(1 EHCI controller, 1 with a debug port\)",
      r"kgdb: kgdbdbgp=7: No such device: the debugger stays off"]),
    (True, ("unplugged",), "kgdbdbgp=0 kgdbwait",
     [r"dbgp: EHCI [0-9a-f:.]+ port 2: no debug device",
      r"kgdb: kgdbdbgp=0: No such device: the debugger stays off"]),
    (False, (), "earlyprintk=dbgp0",
     [r"dbgp: no EHCI debug port 0 \(0 EHCI controllers"]),
]


@pytest.mark.parametrize("sim,knobs,params,messages", NO_PORT,
                         ids=["no-ehci", "ehci-without-debug-port", "kgdbdbgp=7",
                              "no-device", "earlyprintk-no-ehci"])
def test_no_debug_port(machine, sim, knobs, params, messages):
    """No port to use: a clear message, the debugger stays off, the boot
    completes."""
    m = machine(cmdline=f"{CONSOLE} {params} exit_after_boot", ports=("unix",), dbgp=sim,
                dbgp_knobs=knobs)
    for msg in messages:
        m.wait_for(msg, timeout=BOOT_TIMEOUT, from_start=True)
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    m.expect_not(r"Entering kdb")
    assert m.wait_exit(timeout=60) == 0


MALFORMED = ["kgdbdbgp=x", "kgdbdbgp=", "kgdbdbgp=12", "kgdbdbgp=0,", "kgdbdbgp=0,1x",
             "kgdbdbgp=0;1", "kgdbdbgp=0,99999", "earlyprintk=dbgpx", "earlyprintk=dbgp01",
             "earlyprintk=dbgp0,kep"]


@pytest.mark.parametrize("param", MALFORMED)
def test_malformed_values(machine, param):
    """Malformed values fail closed: reported; for kgdbdbgp= the debugger
    stays off (kgdbwait does not wait); the boot completes."""
    debugger = param.startswith("kgdbdbgp")
    m = machine(cmdline=f"{CONSOLE} {param} {'kgdbwait' if debugger else ''} exit_after_boot",
                ports=("unix",), dbgp=True)
    m.wait_for(re.escape(f"Malformed early option '{param}'"), timeout=BOOT_TIMEOUT)
    if debugger:
        m.wait_for(r"the debugger stays off")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    m.expect_not(r"Entering kdb")
    assert m.wait_exit(timeout=60) == 0
