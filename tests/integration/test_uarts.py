# SPDX-License-Identifier: GPL-2.0
"""UARTs that are not at 0x3f8 and today's Linux parameters for them
(docs/uarts.md): earlycon= (io, mmio32), bare earlycon from an ACPI SPCR
table, kgdboc_earlycon handed over to kgdboc=, a 16550 behind a PCI
function's I/O BAR (QEMU's pci-serial) and a memory-mapped 16550 with
32-bit register stride behind a PCI function (tools/uart-sim through
x-pci-proxy-dev).  Each: kgdbwait in setup_arch, kdb or gdb there, the
running kernel's driver taking the line over, a breakpoint hit after it.
Bad values tried: an unknown console name, an unknown iotype, an I/O port
out of range, a baud rate with no divisor, a misaligned mmio32 address,
mmio at an address this kernel does not map, bare earlycon without an SPCR
table, kgdboc_earlycon without an earlycon, kgdboc_earlycon naming another
console, pciserial at a function that is not a 16550 and where there is
no function."""

import re
import struct

import pytest

from gdb_boot import ACKS_ON, cont_to_stop, stop_func
from kdb_session import BAD, BOOT_COMPLETE, ENTRY, PROMPT, Kdb
from conftest import KERNEL_ELF
from qemu import BOOT_TIMEOUT

pytestmark = pytest.mark.qemu

WAITING = r"kgdb: Waiting for connection from remote gdb"
TAKEN = r"serial8250: (ttyS\d) at ([^\r\n]*) is a 16550A[^\r\n]*debugger line \(kgdboc\)"
PCI_LINE = r"serial8250: 00:(\w\w)\.(\d): (ttyS\d) \((io|mmio32) (0x[0-9a-f]+)\) not used"
AFTER_TAKEOVER = "kthreads_start"       # kernel_init calls it after serial8250_init


def entry_go(k, timeout=BOOT_TIMEOUT):
    """go; the next kdb entry: (entry match, text since go)."""
    start = k.mark()
    k.type("go")
    k.enter()
    e = k.wait(ENTRY, timeout=timeout)
    k.wait(PROMPT)
    return e, k.since(start)


def kdb_handoff_and_breakpoint(m, k, console_port):
    """At kgdbwait: bt shows setup_arch; a breakpoint after the takeover
    fires in kdb on the same line; go runs the boot to its end."""
    assert "setup_arch" in k.cmd("bt")
    out = k.cmd(f"bp {AFTER_TAKEOVER}")
    bp = re.search(rf"BP #0 at (0x[0-9a-f]+) \({AFTER_TAKEOVER}\)", out)
    assert bp, out
    e, text = entry_go(k)
    assert e.group(3) == f"Breakpoint @ {bp.group(1)}", text
    log = m.output(console_port)
    assert re.search(r"ekdb: handoff: 1 breakpoints", log), log[-3000:]
    taken = re.search(TAKEN, log)
    assert taken, log[-3000:]
    k.cmd("bc 0")
    k.type("go")
    k.enter()
    m.wait_for(BOOT_COMPLETE, port=console_port, timeout=BOOT_TIMEOUT, fail_on=BAD)
    return taken


@pytest.fixture(scope="module")
def pci_lines(tmp_path_factory):
    """Boot once with both PCI UARTs: where the firmware put them (bus
    address, BAR), as the running kernel's driver reports them."""
    from qemu import Machine
    m = Machine(tmp_path_factory.mktemp("pci"), cmdline="earlyprintk=serial,ttyS0,115200",
                uart_pci=1, uart_mmio32=True)
    try:
        m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
        found = {kind: (f"00:{slot}.{fn}", addr)
                 for slot, fn, _, kind, addr in re.findall(PCI_LINE, m.output(0))}
    finally:
        m.kill()
    assert set(found) == {"io", "mmio32"}, m.output(0)[-2000:]
    return found


# ------------------------------------------------------------------ earlycon, io

def test_earlycon_io_kgdboc_earlycon_kdb_handoff(machine):
    """The README's line: kdb on the earlycon at kgdbwait, handed over to
    kgdboc=ttyS0's interrupt-driven driver, a breakpoint hit after it."""
    m = machine(cmdline="earlycon=uart8250,io,0x3f8,115200n8 kgdboc_earlycon kgdboc=ttyS0 kgdbwait")
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=BAD)
    out = m.output(0)
    assert "earlycon: uart8250 at I/O port 0x3f8 (options '115200n8')" in out, out
    assert "kgdboc: Going to register kgdb with earlycon 'uart8250'" in out, out
    assert "kgdb: Registered I/O driver kgdboc_earlycon (ttyS0)" in out, out
    k = Kdb(m)
    taken = kdb_handoff_and_breakpoint(m, k, 0)
    assert taken.group(1) == "ttyS0" and taken.group(2).startswith("I/O 0x3f8 (irq = 4"), taken.group(0)


def test_earlycon_io_gdb(machine, gdb):
    """gdb on an earlycon line of its own (ttyS1, kgdboc_earlycon=uart),
    the boot log also on earlyprintk's ttyS0 (Linux has both consoles),
    across the handoff to kgdboc=ttyS1's driver."""
    m = machine(cmdline="earlyprintk=serial,ttyS0,115200 earlycon=uart,io,0x2f8,115200 "
                        "kgdboc_earlycon=uart kgdboc=ttyS1 kgdbwait", ports=("unix", "socket"))
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT, fail_on=BAD)
    out = m.output(0)
    assert "earlycon: uart0 at I/O port 0x2f8 (options '115200')" in out, out
    assert "kgdb: Registered I/O driver kgdboc_earlycon (ttyS1)" in out, out
    g = gdb()
    for c in ACKS_ON:
        g.cmd(c)
    g.connect(m.socket_path(1))
    assert "setup_arch" in g.cmd("bt")
    g.cmd(f"break {AFTER_TAKEOVER}")
    st = cont_to_stop(g)
    assert stop_func(st) == AFTER_TAKEOVER, st
    out = m.output(0)
    assert re.search(TAKEN, out) and "ttyS1 at I/O 0x2f8" in out, out[-3000:]
    g.cmd("delete")
    g.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)


# ------------------------------------------------------------------ SPCR

def spcr_table(path, space, access, addr, baud_code):
    """An ACPI SPCR (revision 2): a 16550, its Generic Address, a baud code."""
    t = bytearray(80)
    t[0:4] = b"SPCR"
    struct.pack_into("<IB", t, 4, 80, 2)
    t[10:16] = b"EKDBQ "
    t[16:24] = b"EKDBSPCR"
    t[36] = 0                                   # 16550 compatible
    struct.pack_into("<BBBBQ", t, 40, space, 8, 0, access, addr)
    t[58] = baud_code
    t[9] = (-sum(t)) & 0xFF
    with open(path, "wb") as f:
        f.write(t)
    return path


def test_bare_earlycon_from_spcr(machine, tmp_path):
    """Bare `earlycon` takes the console the SPCR table describes (QEMU
    -acpitable), as Linux does; kgdboc_earlycon puts kdb on it."""
    table = spcr_table(str(tmp_path / "spcr.bin"), 1, 1, 0x3f8, 7)
    m = machine(cmdline="earlycon kgdboc_earlycon kgdboc=ttyS0 kgdbwait",
                extra=("-acpitable", f"file={table}"))
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=BAD)
    out = m.output(0)
    assert "ACPI: SPCR: console: uart,io,0x3f8,115200" in out, out
    assert "earlycon: uart0 at I/O port 0x3f8 (options '115200')" in out, out
    k = Kdb(m)
    kdb_handoff_and_breakpoint(m, k, 0)


# ------------------------------------------------------------------ PCI, I/O BAR

def test_pciserial_io_bar_kdb(machine, pci_lines):
    """QEMU's pci-serial: earlyprintk=pciserial (Linux's x86 form) and the
    early debugger on it (ekgdboc=pciserial,...), kdb at kgdbwait, the PCI
    driver's ttyS4 takes it over, a breakpoint fires after."""
    bdf, io = pci_lines["io"]
    m = machine(cmdline=f"earlyprintk=pciserial,{bdf},115200 ekgdboc=pciserial,{bdf} "
                        f"kgdboc=ttyS4 kgdbwait", ports=("file",), uart_pci=1, uart_mmio32=True)
    p = m.take_uart(m.uart_pci_path(0))
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT, fail_on=BAD)
    assert "kgdb: Registered I/O driver ekgdboc (uart0)" in m.output(p), m.output(p)
    k = Kdb(m, p)
    taken = kdb_handoff_and_breakpoint(m, k, p)
    assert taken.group(1) == "ttyS4" and taken.group(2) == f"I/O {io} (polled, 115200 baud)", \
        taken.group(0)
    assert re.search(r"kgdb: Registered I/O driver kgdboc \(ttyS4\)", m.output(p)), m.output(p)


# ------------------------------------------------------------------ PCI, MMIO32

def test_mmio32_earlycon_kdb(machine, pci_lines):
    """A laptop's memory-mapped UART (32-bit registers 4 bytes apart):
    earlycon=uart8250,mmio32,<BAR> kgdboc_earlycon, kdb at kgdbwait, the PCI
    driver's ttyS5 takes it over, a breakpoint fires after."""
    _, bar = pci_lines["mmio32"]
    m = machine(cmdline=f"earlycon=uart8250,mmio32,{bar},115200 kgdboc_earlycon "
                        f"kgdboc=ttyS5 kgdbwait", ports=("file",), uart_pci=1, uart_mmio32=True)
    p = m.take_uart(m.uart_mmio32_path)
    m.wait_for(PROMPT, port=p, timeout=BOOT_TIMEOUT, fail_on=BAD)
    assert f"earlycon: uart8250 at MMIO32 {bar} (options '115200')" in m.output(p), m.output(p)
    k = Kdb(m, p)
    taken = kdb_handoff_and_breakpoint(m, k, p)
    assert taken.group(1) == "ttyS5" and taken.group(2) == f"MMIO32 {bar} (polled, 115200 baud)", \
        taken.group(0)


def test_mmio32_pciserial_gdb(machine, gdb, pci_lines):
    """gdb on the memory-mapped UART (ekgdboc=pciserial,force,... : it is
    not of the 16550 class), the boot log on ttyS0; across the takeover."""
    bdf, bar = pci_lines["mmio32"]
    m = machine(cmdline=f"earlyprintk=serial,ttyS0,115200 ekgdboc=pciserial,force,{bdf} "
                        f"kgdboc=ttyS5 kgdbwait", uart_pci=1, uart_mmio32=True)
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT, fail_on=BAD)
    g = gdb(args=("-iex", f"add-auto-load-safe-path {KERNEL_ELF}"))
    for c in ACKS_ON:
        g.cmd(c)
    g.connect(m.uart_mmio32_path)
    assert "setup_arch" in g.cmd("bt")
    assert re.search(r"0x[0-9a-f]+", g.cmd("x/2i $pc"))
    g.cmd(f"break {AFTER_TAKEOVER}")
    st = cont_to_stop(g)
    assert stop_func(st) == AFTER_TAKEOVER, st
    out = m.output(0)
    assert "kgdb: Registered I/O driver kgdboc (ttyS5)" in out, out[-3000:]
    assert f"serial8250: ttyS5 at MMIO32 {bar} (polled, 115200 baud)" in out, out[-3000:]
    # the driver's port took the early instance's place (same device, another name)
    rows = re.findall(r"^ *\d+ +(\S+) +serial .*$", g.cmd("ekdb-transports"), re.M)
    assert rows == ["ttyS5"], g.cmd("ekdb-transports")
    g.cmd("delete")
    g.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_mmio64_bar_above_4g(machine):
    """The UART model with a 64-bit BAR0 (tools/ekdb-qemu --uart-mmio64):
    OVMF puts it above 4 GiB; the running kernel's PCI UART driver names it
    there (BAR1 is its upper half), and the early discovery
    (ekgdboc=pciserial) reaches the same address and refuses it, since the
    early kernel maps device memory below 4 GiB only; the boot goes on.
    QEMU's x-pci-proxy-dev registers only 32-bit BARs, so nothing answers
    at that address: the UART itself is not used here."""
    m = machine(cmdline="earlyprintk=serial,ttyS0,115200", uart_mmio64=True)
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    found = re.findall(PCI_LINE, m.output(0))
    assert len(found) == 1 and found[0][3] == "mmio32", m.output(0)[-2000:]
    slot, fn, _, _, addr = found[0]
    assert int(addr, 16) >= 1 << 32, found
    bdf = f"00:{slot}.{fn}"
    m.kill()
    m = machine(cmdline=f"earlyprintk=serial,ttyS0,115200 ekgdboc=pciserial,force,{bdf} "
                        f"kgdbwait", uart_mmio64=True)
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    out = m.output(0)
    assert f"kgdb: ekgdboc=pciserial,force,{bdf}: Bad address: the debugger stays off" in out, \
        out[-2000:]
    assert f"({found[0][3]} {addr}) not used" in out, out[-2000:]


def test_pciserial_without_force_refused(machine, pci_lines):
    """The LPSS UART is not of the 16550 class: without ,force pciserial
    refuses it (Linux does), and says so; the boot goes on."""
    bdf, _ = pci_lines["mmio32"]
    m = machine(cmdline=f"earlyprintk=pciserial,{bdf} earlyprintk=serial,ttyS0,115200 "
                        f"ekgdboc=pciserial,00:1f.7 kgdbwait exit_after_boot",
                uart_pci=1, uart_mmio32=True)
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    out = m.output(0)
    assert f"earlyprintk: pciserial {bdf}: no 16550-class function there (a UART of another " \
           "class needs ,force)" in out, out
    assert "Malformed early option 'earlyprintk=pciserial," in out, out
    assert "kgdb: ekgdboc=pciserial,00:1f.7: No such device: the debugger stays off" in out, out
    assert not re.search(r"Entering kdb|Waiting for connection", out), out


# ------------------------------------------------------------------ bad values

BAD_EARLYCON = [
    ("earlycon=pl011,mmio32,0x9000000", r"Malformed early option 'earlycon=pl011,mmio32,0x9000000'"),
    ("earlycon=uart8250,pio,0x3f8", r"Malformed early option 'earlycon=uart8250,pio,0x3f8'"),
    ("earlycon=uart8250,io,0x10000", r"Malformed early option 'earlycon=uart8250,io,0x10000'"),
    ("earlycon=uart8250,io,0x3f8,12345", r"Malformed early option 'earlycon=uart8250,io,0x3f8,12345'"),
    ("earlycon=uart,mmio32,0xc1011002", r"Malformed early option 'earlycon=uart,mmio32,0xc1011002'"),
    ("earlycon=uart,mmio32,0x40000000000,115200",
     r"earlycon: uart at MMIO32 0x40000000000: the address is not mapped"),
    ("earlycon", r"earlycon: no ACPI SPCR table: no console to take"),
]


def test_bad_earlycon_values(machine):
    """Each bad earlycon= is refused with a Linux-like message and the boot
    goes on; kgdboc_earlycon then finds no earlycon (Linux's words) and
    kgdbwait has nothing to wait on: no debugger, no hang.  The console
    registered last replays the messages."""
    words = " ".join(w for w, _ in BAD_EARLYCON)
    m = machine(cmdline=f"{words} kgdboc_earlycon earlyprintk=serial,ttyS0,115200 kgdbwait "
                        "exit_after_boot")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    out = m.output(0)
    for _, msg in BAD_EARLYCON:
        assert re.search(msg, out), f"/{msg}/ not in:\n{out[-4000:]}"
    assert "kgdboc: Couldn't find kgdb earlycon" in out, out
    assert not re.search(r"Entering kdb|Registered I/O driver", out), out


def test_kgdboc_earlycon_other_name(machine):
    """kgdboc_earlycon=NAME that is not the earlycon's: no debugger on it."""
    m = machine(cmdline="earlycon=uart8250,io,0x3f8,115200 kgdboc_earlycon=ttyS0 kgdbwait "
                        "exit_after_boot")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    out = m.output(0)
    assert "kgdboc: Couldn't find kgdb earlycon 'ttyS0'" in out, out
    assert not re.search(r"Entering kdb|Registered I/O driver", out), out
