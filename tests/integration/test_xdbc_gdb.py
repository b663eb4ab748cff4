"""Real gdb through the xHCI Debug Capability (kgdbxdbc=0): the guest sees
an xHCI controller with the DbC, served by tools/xdbc-sim behind QEMU's
x-pci-proxy-dev (it does DMA into guest RAM: rings, events, buffers); gdb
talks to the far host's side of the cable.  The same session as on a
serial line: stop at kgdbwait in setup_arch, bt, registers, memory,
break/hbreak/watch, stepping, detach, the boot completes; the device was
enumerated exactly once; and the session survives the cable's faults."""

import subprocess

from conftest import KERNEL_ELF
from gdb_boot import ACKS_ON, BOOT_COMPLETE, WAITING, early_tour, hexes
from qemu import BOOT_TIMEOUT

CONSOLE = "earlyprintk=serial,ttyS0,115200"
XDBC_WAIT = f"{CONSOLE} kgdbxdbc=0 kgdbwait"
FOUND = r"xdbc: xHCI [0-9a-f]{2}:[0-9a-f]{2}\.\d: DbC configured by the debug host on port 2"


def boot_xdbc(machine, cmdline=XDBC_WAIT, knobs=(), **kw):
    return machine(cmdline=cmdline, ports=("unix",), xdbc=True, xdbc_knobs=knobs, **kw)


def attach_xdbc(gdb, m):
    g = gdb()
    for c in ACKS_ON:
        g.cmd(c)
    g.connect(m.xdbc_path, timeout=120)
    return g


def elf_text(n):
    out = subprocess.run(["gdb", "-nx", "-batch", "-ex", f"x/{n}xb _text", KERNEL_ELF],
                         capture_output=True, text=True, timeout=120).stdout
    return hexes(out)


def test_gdb_through_the_dbc_at_kgdbwait(machine, gdb):
    m = boot_xdbc(machine)
    m.wait_for(FOUND, timeout=BOOT_TIMEOUT)
    m.wait_for(r"kgdb: Registered I/O driver kgdbxdbc \(xdbc0\)")
    m.wait_for(WAITING)
    g = attach_xdbc(gdb, m)

    text = early_tour(g, 3000)                        # replies over several OUT TRBs
    assert len(text) == 3000, text[-30:]

    stats = m.xdbc_control("stats")
    assert stats["enumerations"] == 1 and stats["state"] == "configured", stats
    assert stats["strings"]["product"].startswith("ekdb"), stats
    assert stats["trb_errors"] == 0 and stats["doorbells_ignored"] == 0, stats
    assert stats["bytes_in"] > 100 and stats["bytes_out"] > 3000, stats

    out = g.detach()
    assert "etach" in out, out
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)
    # once more after the xHCI driver's HCRST, which resets the DbC (test_xdbc_handoff.py)
    st = m.xdbc_control("stats")
    assert st["enumerations"] == 2 and st["dbc_resets"] == 1, st


def test_gdb_survives_unplug_replug_and_port_reset(machine, gdb):
    """Cable out and back in, then the far host resets the port: each time
    the DbC leaves Configured and is enumerated again; the driver waits for
    it, rings the doorbells again, and the same gdb session reads kernel
    text byte-exact afterwards."""
    m = boot_xdbc(machine, cmdline=f"{XDBC_WAIT} nokaslr")
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    g = attach_xdbc(gdb, m)
    want = elf_text(512)
    assert hexes(g.cmd("x/512xb _text")) == want
    assert m.xdbc_control("unplug")["ok"]
    assert m.xdbc_control("stats")["state"] == "disconnected"
    assert m.xdbc_control("plug")["ok"]
    assert hexes(g.cmd("x/512xb _text")) == want
    assert m.xdbc_control("port-reset")["ok"]
    assert hexes(g.cmd("x/512xb _text")) == want
    st = m.xdbc_control("stats")
    assert st["enumerations"] == 3 and st["port_resets"] == 1 and st["state"] == "configured", st
    out = g.detach()
    assert "etach" in out, out
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_gdb_survives_lost_in_events(machine, gdb):
    """Transfer events of IN transfers lost: those bytes of gdb's packets
    are gone, gdb sends the packet again, the driver declares the buffer
    whose event never came lost once a later one completes, and the read
    is byte-exact."""
    m = boot_xdbc(machine, cmdline=f"{XDBC_WAIT} nokaslr")
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    g = attach_xdbc(gdb, m)
    want = elf_text(256)
    assert m.xdbc_control("drop-events in 2")["ok"]
    assert hexes(g.cmd("x/256xb _text")) == want
    st = m.xdbc_control("stats")
    assert st["events_dropped"] == 2, st
    out = g.detach()
    assert "etach" in out, out
