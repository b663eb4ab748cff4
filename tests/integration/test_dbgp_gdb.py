"""Real gdb through the EHCI USB debug port (kgdbdbgp=0): the guest sees
an EHCI controller with a debug port and a USB debug device, served by
tools/dbgp-sim behind QEMU's x-pci-proxy-dev; gdb talks to the device's
host side.  The same session as on a serial line: stop at kgdbwait in
setup_arch, bt, registers, memory, break/hbreak/watch, stepping, detach,
the boot completes; the device was enumerated exactly once."""

import re

from gdb_boot import ACKS_ON, BOOT_COMPLETE, WAITING, early_tour, reg
from qemu import BOOT_TIMEOUT

CONSOLE = "earlyprintk=serial,ttyS0,115200"
DBGP_WAIT = f"{CONSOLE} kgdbdbgp=0 kgdbwait"
FOUND = r"dbgp: EHCI [0-9a-f]{2}:[0-9a-f]{2}\.\d debug port 2: debug device at 127"


def boot_dbgp(machine, cmdline=DBGP_WAIT, knobs=(), **kw):
    m = machine(cmdline=cmdline, ports=("unix",), dbgp=True, dbgp_knobs=knobs, **kw)
    return m


def attach_dbgp(gdb, m):
    g = gdb()
    for c in ACKS_ON:
        g.cmd(c)
    g.connect(m.dbgp_path, timeout=120)
    return g


def test_gdb_through_debug_port_at_kgdbwait(machine, gdb):
    m = boot_dbgp(machine)
    m.wait_for(FOUND, timeout=BOOT_TIMEOUT)
    m.wait_for(r"kgdb: Registered I/O driver kgdbdbgp \(dbgp0\)")
    m.wait_for(WAITING)
    g = attach_dbgp(gdb, m)

    text = early_tour(g, 64)                          # several IN packets per reply
    assert len(text) == 64, text

    stats = m.dbgp_control("stats")
    assert stats["enumerations"] == 1 and stats["port_resets"] == 1, stats
    assert stats["bytes_in"] > 100 and stats["bytes_out"] > 1000, stats

    out = g.detach()
    assert "etach" in out, out
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    assert m.dbgp_control("stats")["enumerations"] == 1


def test_gdb_through_a_lossy_port(machine, gdb):
    """The device NAKs, misses answers and loses handshakes both ways all
    the time (every few packets): gdb still reads kernel text byte-exact,
    steps and detaches; the model saw repeats it acknowledged and dropped,
    and repeats of its own the driver dropped."""
    import subprocess
    from conftest import KERNEL_ELF
    knobs = ("nak-out-every=3", "nak-in-every=4", "timeout-every=11",
             "lose-out-ack-every=7", "lose-in-ack-every=5")
    # nokaslr: the text is compared byte for byte with the ELF as linked
    # (KASLR patches absolute addresses in it)
    m = boot_dbgp(machine, cmdline=f"{DBGP_WAIT} nokaslr", knobs=knobs)
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    g = attach_dbgp(gdb, m)
    want = subprocess.run(["gdb", "-nx", "-batch", "-ex", "x/512xb _text", KERNEL_ELF],
                          capture_output=True, text=True, timeout=120).stdout
    got = g.cmd("x/512xb _text")
    hexes = lambda s: re.findall(r"\t(0x[0-9a-f]{2})", s)
    assert len(hexes(want)) == 512 and hexes(got) == hexes(want), got
    pc0 = reg(g, "rip")
    g.cmd("stepi")
    assert reg(g, "rip") != pc0
    st = m.dbgp_control("stats")
    assert st["dup_out"] >= 1 and st["dup_in"] >= 1 and st["timeouts"] >= 1, st
    assert st["naks"] >= 10 and st["enumerations"] == 1, st
    out = g.detach()
    assert "etach" in out, out
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
