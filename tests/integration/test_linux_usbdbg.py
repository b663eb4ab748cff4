# SPDX-License-Identifier: GPL-2.0
"""Real gdb through the USB debug ports on Linux (issue 34, docs/linux.md):
`ekdb.kgdbdbgp=0` (the EHCI debug port, tools/dbgp-sim behind QEMU's
x-pci-proxy-dev) and `ekdb.kgdbxdbc=0` (the xHCI DbC, tools/xdbc-sim), each
from Linux's setup_arch() with Linux's vmlinux loaded and KASLR on (gdb
relocates it through qOffsets, no add-symbol-file).  The controllers'
registers are reached through ekdb's fixmap slots (linux/glue/io.c, patch
0030)."""

import re

import pytest

from gdb_boot import ACKS_ON, cont_to_stop, frames, reg, stop_func
from qemu import BOOT_TIMEOUT
from test_linux import CONSOLE, INIT, LINUX_BAD, VMLINUX, linux_kernel  # noqa: F401 (fixture)

WAITING = r"kgdb: Waiting for connection from remote gdb"
PORTS = {
    "dbgp": (r"kgdb: Registered I/O driver kgdbdbgp \(dbgp0\)", "dbgp_path"),
    "xdbc": (r"kgdb: Registered I/O driver kgdbxdbc", "xdbc_path"),
}


def nm(name):
    import subprocess
    out = subprocess.run(["nm", VMLINUX], capture_output=True, text=True, check=True).stdout
    return int(re.search(rf"^([0-9a-f]{{16}}) [Tt] {name}$", out, re.M).group(1), 16)


@pytest.mark.parametrize("port", ["dbgp", "xdbc"])
def test_gdb_from_setup_arch(bare_machine, linux_kernel, gdb, port):  # noqa: F811
    """gdb on vmlinux through the port: stopped in setup_arch() under
    start_kernel, Linux's memory read by symbol at its KASLR address, a
    breakpoint on a later setup_arch() step hit; then one at rest_init(),
    after the handoff, served by Linux's gdbstub over the same port (the
    same thread), continue on to the shell."""
    bz, initrd = linux_kernel
    m = bare_machine(cmdline=f"{CONSOLE} ekdb.kgdb{port}=0 ekdb.kgdbwait", linux=bz,
                     initrd=initrd, ports=("unix",), **{port: True})
    registered, path = PORTS[port]
    m.wait_for(registered, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    g = gdb(elf=VMLINUX)
    for c in ACKS_ON:
        g.cmd(c)
    g.connect(getattr(m, path), timeout=120)
    fr = frames(g.cmd("bt"))
    assert "setup_arch" in fr and "start_kernel" in fr, fr
    assert fr.index("setup_arch") < fr.index("start_kernel"), fr
    # KASLR: the stopped pc lies in the text as moved, 2 MiB aligned moves
    pc = reg(g, "rip")
    out = g.cmd("info symbol $pc")
    assert re.match(r"\w+ \+ \d+ in section \.text", out), out
    fn = out.split()[0]
    assert (pc - int(out.split()[2])) % (2 << 20) == nm(fn) % (2 << 20), (hex(pc), out)
    # Linux's data by name (.data, moved by qOffsets' Data=): uname's release
    out = g.cmd("p init_uts_ns.name.release")
    assert re.search(r'= "6\.1\.\d+"', out), out
    # a breakpoint on a later step of setup_arch()
    g.cmd("break acpi_boot_table_init")
    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "acpi_boot_table_init", st
    threads = g.cmd("info threads")
    # across the handoff: Linux's gdbstub goes on over the same port (ekdb
    # lends it: Linux has no polled driver for it), gdb on the same thread
    g.cmd("delete")
    g.cmd("break rest_init")
    st = cont_to_stop(g)
    assert st.get("reason") == "breakpoint-hit" and stop_func(st) == "rest_init", st
    assert re.search(r"ekdb: handoff to kgdb: \d+ breakpoints[^\n]*, gdb goes on with "
                     r"Linux's gdbstub", m.output(0)), m.output(0)[-2000:]
    fr = frames(g.cmd("bt"))
    assert fr.index("rest_init") < fr.index("start_kernel"), fr
    assert re.search(r"^\* 1 +Thread 4294967294 \(shadowCPU0\) ", threads, re.M), threads
    assert re.search(r"^\* 1 +Thread 4294967294 \(shadowCPU0\) ", g.cmd("info threads"),
                     re.M)
    g.cmd("delete")
    g.mi("-exec-continue")
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|Entering kdb")


BAD_INPUT = [
    # (machine options, ekdb's parameters, what it says)
    ({}, "ekdb.kgdbdbgp=0 ekdb.kgdbwait",
     [r"dbgp: no EHCI debug port 0 \(0 EHCI controllers, 0 with a debug port\)",
      r"kgdb: kgdbdbgp=0: No such device: the debugger stays off"]),
    ({"xdbc": True}, "ekdb.kgdbxdbc=5 ekdb.kgdbwait",
     [r"xdbc: no xHCI controller 5 \(1 xHCI controller found\)",
      r"kgdb: kgdbxdbc=5: No such device: the debugger stays off"]),
    ({"no_gop": True}, "ekdb.ekgdboc=kbd",
     [r"kgdb: ekgdboc=kbd: no screen to draw on \(no framebuffer\): keyboard input only",
      r"kgdb: ekgdboc=kbd: i8042 keyboard \(config 0x[0-9a-f]{2}\), no output side \(no screen\)"]),
]


@pytest.mark.parametrize("opts,params,messages", BAD_INPUT,
                         ids=["kgdbdbgp-no-ehci", "kgdbxdbc=5", "kbd-no-framebuffer"])
def test_what_the_machine_cannot_serve(bare_machine, linux_kernel, opts, params,  # noqa: F811
                                       messages):
    """Bad input tried: a debug port on a machine without EHCI, a DbC on
    controller 5 of 1, the screen keyboard without a framebuffer (-vga
    none): each says so in the log, ekdb.kgdbwait does not stop (the
    debugger stays off), and Linux boots on to a working shell."""
    bz, initrd = linux_kernel
    m = bare_machine(cmdline=f"{CONSOLE} {params}", linux=bz, initrd=initrd,
                     ports=("unix",), **opts)
    for msg in messages:
        m.wait_for(msg, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT, from_start=True)
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|Entering kdb|" + WAITING)
    m.send(0, b"echo ekdb-$((6*7))\n")
    m.wait_for(r"ekdb-42", timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
