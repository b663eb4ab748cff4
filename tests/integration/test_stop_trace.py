# SPDX-License-Identifier: GPL-2.0
"""The stop path, measured (issue 33): which kernel functions run while
the debugger runs is recorded, not derived from the call graph (which
misses calls through function pointers: the EHCI late driver's register
accessors late_read/late_write/late_now_us took breakpoints and hung the
machine from the tick's poll).

A trace build (probe_build.trace_esp(): kernel-glue/ compiled with
-finstrument-functions, kernel-glue/stoptrace.c) records every kernel
function entered on a CPU for which ekdb_cpu_in_debugger() holds: stopped,
leaving, parked by a round-up, taking a debug trap, polling for a
break-in from the tick, sending a kgdbcon packet.  Each test boots it once
for one transport family, drives the debugger in both lifetimes (early at
kgdbwait, then after the handoff to the kernel's drivers: a breakpoint
after the drivers took over, a break-in after the boot, packets of every
kind gdb and kdb send, a step, kdb commands through `monitor`, detach),
lets the kernel run so the tick polls, then reads the table out of the
machine (QMP memsave) and checks that every function recorded is
__ekdb_nobp in the normal build (inside __ekdb_text_start..__ekdb_text_end,
where breakpoints are refused), or is one of the few shown safe by
re-entry recovery (BREAKABLE).  A function the normal build only has
inlined has no address to break at: its callers are recorded and checked.
Why recording function entries and not QEMU's exec trace: docs/testing.md,
"The stop path, measured"."""

import os
import re
import subprocess

import pytest

from gdb_boot import BOOT_COMPLETE, KGDBWAIT, WAITING
from kdb_session import BAD
from probe_build import trace_esp
from qemu import BOOT_TIMEOUT, REPO
from rsp import Rsp, frame
from test_stop_path import symbols
import test_uarts

pytestmark = pytest.mark.qemu

KERNEL_ELF = os.path.join(REPO, "build", "kernel.elf")
CONSOLE = "earlyprintk=serial,ttyS0,115200"
# A function kernel_init calls after every driver has taken its device over.
AFTER_DRIVERS = "kthreads_start"
# Shown safe by re-entry recovery (test_stop_path.py's BREAKABLE_LOG: users
# break on them, as Linux allows; the stop path reaches them only with the
# breakpoints out, and a trap there is recovered): allowed when recorded.
BREAKABLE = {"printk", "vprintk"}


def elf_of(esp):
    """The kernel.elf an ESP of probe_build boots (build/kernel.elf for None)."""
    return os.path.join(os.path.dirname(esp), "kernel.elf") if esp else KERNEL_ELF


def signed(a):
    return a - (1 << 64) if a >= 1 << 63 else a


def recorded(m, elf):
    """The names of the kernel functions the machine recorded (trace build)."""
    syms, funcs = symbols(elf)
    off = m.kaslr_offset()
    path = os.path.join(m.dir, "stoptrace.bin")
    size = int(re.search(r"^[0-9a-f]+ ([0-9a-f]+) B stoptrace_fns$",
                         subprocess.run(["nm", "-S", elf], capture_output=True, text=True,
                                        check=True).stdout, re.M).group(1), 16)
    # QMP's integers are signed 64-bit: a higher-half address goes negative
    m.qmp().execute("memsave", val=signed(syms["stoptrace_fns"] + off), size=size,
                    filename=path)
    m.qmp().execute("memsave", val=signed(syms["stoptrace_lost"] + off), size=8,
                    filename=path + ".n")
    with open(path + ".n", "rb") as f:
        lost = int.from_bytes(f.read(4), "little")
    assert lost == 0, f"{lost} functions did not fit the recorder's table"
    with open(path, "rb") as f:
        raw = f.read()
    names, unknown = set(), []
    for i in range(0, len(raw), 8):
        a = int.from_bytes(raw[i:i + 8], "little")
        if not a:
            continue
        n = funcs.get(a - off)
        if n:
            names.add(n)
        else:
            unknown.append(hex(a))
    assert not unknown, f"recorded addresses that are no function entry: {unknown}"
    return names


def unmarked(names):
    """The recorded functions a breakpoint can be planted in, in the normal
    build (build/kernel.elf): outside the debugger's text."""
    syms, funcs = symbols(KERNEL_ELF)
    lo, hi = syms["__ekdb_text_start"], syms["__ekdb_text_end"]
    # every function of that name (a static one may have namesakes)
    return sorted({n for a, n in funcs.items() if n in names - BREAKABLE and not lo <= a < hi})


def check(m, esp, must_include):
    names = recorded(m, elf_of(esp))
    for f in must_include:
        assert f in names, f"{f} not recorded: {sorted(names)}"
    bad = unmarked(names)
    assert not bad, ("kernel functions that ran while the debugger ran and take "
                     f"breakpoints (mark them __ekdb_nobp): {bad}")
    return names


# ------------------------------------------------------------ gdb sessions

def reply(r, timeout=None):
    """The next reply; one damaged on the line is NAKed and sent again, as
    gdb does with acks on (the UART models drop a byte now and then: see
    gdb_boot.ACKS_ON).  A lost ack is not this test's business."""
    while True:
        try:
            payload, _ = r.read_reply(timeout=timeout)
            return payload
        except AssertionError as e:
            if "bad checksum" not in str(e):
                raise
            r.send_raw(b"-")


def ask(r, payload, timeout=None):
    r.send_raw(frame(payload))
    return reply(r, timeout)


def monitor(r, cmd):
    """gdb's `monitor CMD` (qRcmd): kdb's output as O packets, then OK."""
    r.send_raw(frame("qRcmd," + cmd.encode().hex()))
    out = ""
    while True:
        got = reply(r)
        if got == "OK" or got.startswith("E"):
            return out
        if got.startswith("O"):
            out += bytes.fromhex(got[1:]).decode("latin-1")


def stop_reply(r, timeout):
    """The stop reply after a resume, past the kernel's kgdbcon O packets."""
    while True:
        got = reply(r, timeout)
        if not got.startswith("O") or got == "OK":
            return got


def session(r, syms, off):
    """What a gdb user's session sends at a stop: registers, memory,
    threads, breakpoints of each kind in and out, a step, kdb commands."""
    assert ask(r, "?").startswith("T")
    assert len(ask(r, "g")) > 100
    ask(r, "qfThreadInfo")
    ask(r, f"m{syms['jiffies'] + off:x},8")
    ask(r, f"m{syms['mm_init'] + off:x},40")
    for kind, where, n in ((0, "mm_init", 1), (1, "mm_init", 1), (2, "jiffies", 8)):
        assert ask(r, f"Z{kind},{syms[where] + off:x},{n}") == "OK"
        assert ask(r, f"z{kind},{syms[where] + off:x},{n}") == "OK"
    for cmd in ("ps", "bt", "dmesg 3", "lsmod", "summary", "cpu"):
        monitor(r, cmd)
    r.send_raw(frame("s"))
    stop = stop_reply(r, 120)
    assert stop.startswith("T05"), stop


def cont_to(r, syms, off, func):
    """A breakpoint at func, continue to it, remove it."""
    assert ask(r, f"Z0,{syms[func] + off:x},1") == "OK"
    r.send_raw(frame("c"))
    stop = stop_reply(r, BOOT_TIMEOUT)
    assert stop.startswith("T05"), stop
    assert ask(r, f"z0,{syms[func] + off:x},1") == "OK"


def both_lifetimes(m, r, elf, console_port=0):
    """At kgdbwait (early), at AFTER_DRIVERS (the kernel's drivers have the
    line), at a break-in after the boot, then the kernel runs with the tick
    polling and printk going out as kgdbcon packets; detach."""
    syms, _ = symbols(elf)
    off = m.kaslr_offset()
    r.send_raw(b"+")
    assert "PacketSize" in ask(r, "qSupported:swbreak+;hwbreak+")
    session(r, syms, off)
    cont_to(r, syms, off, AFTER_DRIVERS)
    session(r, syms, off)
    r.send_raw(frame("c"))
    m.wait_for(BOOT_COMPLETE, port=console_port, timeout=BOOT_TIMEOUT, fail_on=BAD)
    r.send_raw(b"\x03")
    stop = stop_reply(r, 240)
    assert stop.startswith("T02"), stop
    session(r, syms, off)
    # the kernel has run with the tick polling for a break-in all along, and
    # printk going to gdb as O packets (kgdbcon); leave by detaching
    assert ask(r, "D") == "OK"


# ------------------------------------------------------------ the transports

pci_lines = test_uarts.pci_lines      # the fixture: where the firmware put the PCI UARTs


@pytest.fixture(scope="module")
def esp():
    return trace_esp()


def test_serial_kms_kbd(machine, esp):
    """ttyS1 (the ISA UART: the early transport, then serial8250's), the
    kms display hooks and the keyboard transport, 2 CPUs (the round-up)."""
    m = machine(cmdline=f"{KGDBWAIT} kgdboc=kms,kbd,ttyS1 kgdbcon", smp=2,
                ports=("unix", "socket"), esp=esp)
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    r = Rsp(m.socket_path(1))
    both_lifetimes(m, r, elf_of(esp))
    check(m, esp, ("debugger_cpu_id", "apic_send_nmi_allbutself", "kms_debug_enter",
                   "kms_debug_leave", "serial8250_getc", "glue_task_get"))


def test_usb_keyboard(machine, esp):
    """No PS/2 (i8042=off), a USB keyboard on qemu-xhci: kgdboc=kms,kbd,ttyS1
    makes the kernel's USB keyboard driver (kernel-glue/drivers/xhci_kbd.c)
    the debugger's kbd; every stop polls it through its ops (the xHCI
    events, the keyboards' service and queues: io/xhci-kbd's code) beside
    the serial line gdb talks on."""
    m = machine(cmdline=f"{KGDBWAIT} kgdboc=kms,kbd,ttyS1 kgdbcon", smp=2,
                ports=("unix", "socket"), no_ps2=True, usb_kbd=["qemu-xhci"], esp=esp)
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    r = Rsp(m.socket_path(1))
    both_lifetimes(m, r, elf_of(esp))
    assert re.search(r"kbd: the debugger's kbd is the USB keyboard \(1\)", m.ports[0].text)
    check(m, esp, ("usb_t_getc", "xhci_kbd_dbg_getc", "usb_t_post"))


def test_pci_mmio_uart(machine, esp, pci_lines):
    """The memory-mapped 16550 behind a PCI function (ekgdboc=pciserial,
    force,...: the early PCI transport, then serial8250's ttyS5, polled by
    the tick: it has no interrupt).  The I/O-BAR PCI UART differs from it
    and from the ISA one only in the early register accessors (io/,
    the debugger's own text); kgdboc=ttyS4 on it runs serial8250's ops of
    test_serial_kms_kbd.

    One CPU: QEMU 7.2's x-pci-proxy-dev (the model's bridge) deadlocks when
    one vCPU reads the device's PCI config space (holding QEMU's big lock,
    waiting for the proxy's mutex) while the other waits for a BAR access's
    answer (holding the proxy's mutex, waiting for the big lock): QMP stops
    answering, the guest stops.  Seen with 2 CPUs under load, one run in
    three (gdb's `thread apply all bt` on the hung QEMU: docs/testing.md).
    The round-up of a second CPU is test_serial_kms_kbd's."""
    bdf, _ = pci_lines["mmio32"]
    m = machine(cmdline=f"{CONSOLE} ekgdboc=pciserial,force,{bdf} kgdboc=ttyS5 kgdbwait "
                        "kgdbcon", smp=1, uart_pci=1, uart_mmio32=True, esp=esp)
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT, fail_on=BAD)
    r = Rsp(m.uart_mmio32_path)
    both_lifetimes(m, r, elf_of(esp))
    check(m, esp, ("serial8250_getc", "serial8250_putc"))


def test_ehci_debug_port(machine, esp):
    """The USB debug port (kgdbdbgp=0,1: the running kernel looks every second): the early driver, then the late one
    (kernel-glue/drivers/ehci_dbgp.c) whose register accessors are called
    through struct dbgp_io's pointers, polled from the tick."""
    m = machine(cmdline=f"{CONSOLE} kgdbdbgp=0,1 kgdbwait kgdbcon", smp=2, ports=("unix",),
                dbgp=True, esp=esp)
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    r = Rsp(m.dbgp_path)
    both_lifetimes(m, r, elf_of(esp))
    check(m, esp, ("late_read", "late_write", "ld_getc"))


def test_xhci_dbc(machine, esp):
    """The xHCI Debug Capability (kgdbxdbc=0,1): early, then the late DbC driver."""
    m = machine(cmdline=f"{CONSOLE} kgdbxdbc=0,1 kgdbwait kgdbcon", smp=2, ports=("unix",),
                xdbc=True, esp=esp)
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    r = Rsp(m.xdbc_path)
    both_lifetimes(m, r, elf_of(esp))
    check(m, esp, ("lx_getc",))


def test_ekdbts(machine, esp):
    """ekdbts= (the in-kernel self-test drives the real core: breakpoint
    stops on every CPU, the early tests and the handoff).  Not its
    single-step stress (S): in the trace build every kernel function
    begins with a call of the recorder, and the stress steps a kernel
    function expecting its own instructions (the steps are recorded by the
    gdb sessions of the other tests)."""
    m = machine(cmdline=f"{CONSOLE} ekdbts=V1F20E", smp=2, esp=esp)
    m.wait_for(r"ekdbts: \d+ passed, 0 failed", timeout=BOOT_TIMEOUT * 3, fail_on=BAD)
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    check(m, esp, ("debugger_cpu_id",))
