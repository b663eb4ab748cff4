# SPDX-License-Identifier: GPL-2.0
"""The debugger in the UEFI loader (ekdb.loader=wait|on, issue 11): real gdb
and lldb at the loader's stop before ExitBootServices, kdb on the line,
faults in the loader, and the parameter's bad values.
See docs/debugging-early-boot.md."""

import os
import re
import struct
import subprocess

from gdb_boot import (ACKS_ON, BOOT_COMPLETE, CONSOLE, cmd_or_error, cont_to_stop, frames,
                      reg, stop_func)
from kdb_session import PROMPT, Kdb
from qemu import BOOT_TIMEOUT, REPO

LOADER_SO = os.path.join(REPO, "build", "boot", "loader.so")
KERNEL_ELF = os.path.join(REPO, "build", "kernel.elf")
WAITING = r"ekdb loader: waiting for the debugger on ttyS1"
ARMED = r"ekdb loader: debugger armed on ttyS1 \(ekdb.loader=(\w+)\), loader image at 0x([0-9A-Fa-f]+)\r*\n"
LOADER_WAIT = f"ekdb.loader=wait {CONSOLE} ekgdboc=ttyS1"
CANNOT_ACCESS = r"Cannot access memory at address"


def boot_to_loader_stop(machine, cmdline=LOADER_WAIT, ports=("unix", "socket")):
    """Boot until the loader waits for the debugger; return (machine, the
    loader base it printed, or None when that line did not come through whole)."""
    m = machine(cmdline=cmdline, ports=ports)
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    armed = re.search(ARMED, m.output(0))
    return m, int(armed.group(2), 16) if armed else None


def gdb_at_loader_stop(machine, gdb, cmdline=LOADER_WAIT):
    """boot_to_loader_stop, then a gdb (acks on, as a person's gdb has them)
    connected on ttyS1: (machine, the loader base or None, gdb)."""
    m, base = boot_to_loader_stop(machine, cmdline=cmdline)
    g = gdb()
    for c in ACKS_ON:
        g.cmd(c)
    g.connect(m.socket_path(1))
    return m, base, g


def elf_bytes_at(path, vaddr, n):
    """n bytes of the ELF file at link address vaddr (from its PT_LOAD segments)."""
    with open(path, "rb") as f:
        data = f.read()
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for i in range(phnum):
        p_type, _, p_off, p_vaddr, _, p_filesz = struct.unpack_from(
            "<IIQQQQ", data, phoff + i * phentsize)
        if p_type == 1 and p_vaddr <= vaddr and vaddr + n <= p_vaddr + p_filesz:
            o = p_off + vaddr - p_vaddr
            return data[o:o + n]
    raise AssertionError(f"0x{vaddr:x} not in a PT_LOAD of {path}")


def symbol(path, name):
    out = subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout
    m = re.search(rf"^([0-9a-f]+) \w {re.escape(name)}$", out, re.M)
    assert m, f"{name} not in {path}"
    return int(m.group(1), 16)


def xbytes(out):
    return bytes(int(b, 16) for b in re.findall(r"0x([0-9a-f]{2})\b", out.split(":", 1)[1]))


def test_loader_stop_gdb_symbols_memory_breakpoint(machine, gdb):
    """ekdb.loader=wait: gdb on build/kernel.elf finds the loader by itself
    (qXfer:libraries:read) at the base the loader printed; bt names loader
    functions with file:line; the kernel image reads at its link address
    (the loader placed it elsewhere) as the ELF's bytes; a bad address is
    an error and the session goes on; a breakpoint on a loader function
    fires; detach boots the kernel."""
    m, base, g = gdb_at_loader_stop(machine, gdb, cmdline=LOADER_WAIT)

    libs = g.cmd("info sharedlibrary")
    row = re.search(r"^(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+Yes\s+(\S+)$", libs, re.M)
    assert row, libs
    assert row.group(3) == LOADER_SO, libs
    assert base is not None, f"the loader's base line was lost:\n{m.output(0)[-2000:]}"
    assert int(row.group(1), 16) == base, (libs, hex(base))

    bt = g.cmd("bt")
    assert frames(bt)[:5] == ["kgdb_breakpoint", "ldr_dbg_wait", "ldr_debugger_stop",
                              "run", "efi_main"], bt
    assert re.search(r"ldr_debugger_stop \(.*\) at boot/debugger\.c:\d+", bt), bt
    assert re.search(r"run \(.*\) at boot/main\.c:\d+", bt), bt
    rip = reg(g, "rip")
    assert base < rip < base + 0x100000, hex(rip)

    # the kernel image where it will run (link address + the KASLR offset, which
    # gdb has from qOffsets): the loader's copy, byte for byte (these bytes hold
    # no absolute address, so the relocations did not change them)
    off = m.kaslr_offset()
    for name in ("start_kernel", "x86_64_start_kernel"):   # (_text: the loader has one too)
        addr = symbol(KERNEL_ELF, name)
        out = g.cmd(f"x/16xb {name}")
        assert CANNOT_ACCESS not in out, out
        assert out.startswith(f"0x{addr + off:x} <{name}>"), (out, hex(off))
        assert xbytes(out) == elf_bytes_at(KERNEL_ELF, addr, 16), out
    # rodata too (another segment)
    addr = symbol(KERNEL_ELF, "__start___ex_table")
    # (its first word is an absolute address: the loader added the offset to it)
    got = int.from_bytes(xbytes(g.cmd(f"x/8xb 0x{addr + off:x}")), "little")
    assert got - off == int.from_bytes(elf_bytes_at(KERNEL_ELF, addr, 8), "little"), hex(got)

    # bad addresses: an error reply, then the session goes on
    for bad in ("0xdead00000000", "0x8000000000000000", "0xffffffff7ff00000"):
        out = cmd_or_error(g, f"x/4gx {bad}")
        assert re.search(CANNOT_ACCESS, out), out
    assert reg(g, "rip") == rip

    # a loader function after the stop
    g.cmd("break ldr_exit_boot_services")
    stop = cont_to_stop(g)
    assert stop_func(stop) == "ldr_exit_boot_services", stop
    assert frames(g.cmd("bt"))[:2] == ["ldr_exit_boot_services", "run"]
    g.cmd("delete")
    g.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=r"Oops|Kernel panic")


def test_loader_continue_boots(machine, gdb):
    """`continue` from the loader's stop (nothing planted): the kernel boots."""
    m, _ = boot_to_loader_stop(machine)
    g = gdb()
    g.connect(m.socket_path(1))
    g.cont()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=r"Oops|Kernel panic")


def test_loader_bad_values_fail_closed(machine):
    """Bad input: an unknown ekdb.loader= value, the keyboard as transport,
    no ekgdboc=, a malformed kdb.cmd_enable=: a clear message, no debugger,
    the boot goes on."""
    cases = [
        ("ekdb.loader=bogus ekgdboc=ttyS1",
         r"ekdb loader: ekdb.loader=bogus: unknown value \(wait, on or off\): "
         r"the loader debugger stays off"),
        ("ekdb.loader=wait ekgdboc=kbd",
         r"ekdb loader: ekgdboc=kbd: the keyboard is not a loader transport .*"
         r"the loader debugger stays off"),
        ("ekdb.loader=wait",
         r"ekdb loader: no ekgdboc=: the loader debugger needs ekgdboc=ttySn\[,baud\]: "
         r"the loader debugger stays off"),
        # a kdb mask typo never leaves every command allowed: off, as in the kernel
        ("ekdb.loader=wait ekgdboc=ttyS1 kdb.cmd_enable=zebra",
         r"ekdb loader: kdb.cmd_enable=zebra: not a mask \(e.g. 0x1, 0x28\): "
         r"the loader debugger stays off"),
    ]
    for params, message in cases:
        # The firmware writes its console on both UARTs; under load OVMF now and
        # then drops a run of it on both (always from the `command line` line
        # on).  The message is read from either, and a boot whose command-line
        # line did not come through whole on either UART is made once more.
        for _ in range(2):
            m = machine(cmdline=f"{params} {CONSOLE}", ports=("unix", "unix"))
            m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=r"Oops|Kernel panic")
            m.wait_for(r"exit_boot_services|exiting boot services", port=1, from_start=True)
            m.expect_not(r"debugger armed|waiting for the debugger")
            m.expect_not(r"debugger armed|waiting for the debugger", port=1)
            outs = (m.output(0), m.output(1))
            m.kill()
            found = any(re.search(message, o) for o in outs)
            whole = any(re.search(r"ekdb loader: command line \(.*\): .*" + re.escape(CONSOLE), o)
                        for o in outs)
            if found or whole:
                break
        assert found, (params, outs[0][-3000:], outs[1][-3000:])


def test_loader_fault_enters_debugger(machine, gdb):
    """ekdb.loader=on with a fault forced in the loader (ekdb.loader_test=fault):
    kdb reports it on the line, gdb attaches there and sees the faulting loader
    function and SIGSEGV."""
    m = machine(cmdline=f"ekdb.loader=on ekdb.loader_test=fault {CONSOLE} ekgdboc=ttyS1",
                ports=("unix", "unix"))
    m.wait_for(r"ekdb.loader_test=fault: reading", timeout=BOOT_TIMEOUT)
    k = Kdb(m, port=1)
    k.wait(r"Entering kdb \(current=0x0+, pid 0\) on processor 0 due to oops @ 0x[0-9a-f]+",
           timeout=BOOT_TIMEOUT, fail_on=r"unhandled exception|X64 Exception Type")
    k.wait(PROMPT, fail_on=None)
    m.expect_not(r"X64 Exception Type")
    m.expect_not(WAITING)
    m.release_port(1)
    g = gdb()
    for c in ACKS_ON:
        g.cmd(c)
    g.connect(m.socket_path(1))
    bt = g.cmd("bt")
    assert frames(bt)[:2] == ["ldr_test_fault", "ldr_debugger_stop"], bt
    assert "SIGSEGV" in g.cmd("info program"), g.tail()


def test_loader_fault_without_debugger_is_firmwares(machine):
    """Without ekdb.loader= the loader carries no debugger: the same forced
    fault goes to the firmware's own exception handler, as before."""
    m = machine(cmdline=f"ekdb.loader_test=fault {CONSOLE} ekgdboc=ttyS1 kgdbwait")
    m.wait_for(r"ekdb.loader_test=fault: reading", timeout=BOOT_TIMEOUT)
    m.wait_for(r"X64 Exception Type - 0D\(#GP - General Protection\)", timeout=BOOT_TIMEOUT)
    m.expect_not(r"debugger armed|Entering kdb")


def test_loader_kdb_on_the_line(machine):
    """kdb at the loader's stop (no gdb): bt names loader functions (the
    loader's own symbol table), md reads
    the kernel image at its link address, bp on a kernel symbol (the kernel's
    kallsyms table in the placed image) is listed by bl; go boots on."""
    m, base = boot_to_loader_stop(machine, ports=("unix", "unix"))
    k = Kdb(m, port=1)
    k.wait(r"Entering kdb \(current=0x0+, pid 0\) on processor 0 due to Keyboard Entry",
           fail_on=None)
    k.wait(PROMPT, fail_on=None)
    bt = k.cmd("bt")
    # the loader's own names (its kallsyms table, built like the kernel's)
    assert re.search(r"^RIP: 0038:kgdb_breakpoint\+0x[0-9a-f]+/0x[0-9a-f]+$", bt, re.M), bt
    assert re.search(r"^ (\? )?ldr_dbg_wait\+0x[0-9a-f]+/0x[0-9a-f]+$", bt, re.M), bt
    assert re.search(r"^ efi_main\+0x[0-9a-f]+/0x[0-9a-f]+$", bt, re.M), bt
    link = symbol(KERNEL_ELF, "start_kernel")
    addr = link + m.kaslr_offset()                  # kdb's names: the moved image's own table
    md = k.cmd("md8c1 start_kernel")
    want = struct.unpack("<Q", elf_bytes_at(KERNEL_ELF, link, 8))[0]
    assert re.search(rf"0x{addr:016x}\s+{want:016x}", md), (md, hex(want))
    out = k.cmd("bp start_kernel")
    assert re.search(rf"Instruction\(i\) BP #0 at 0x{addr:x} \(start_kernel\)", out), out
    bl = k.cmd("bl")
    assert re.search(rf"BP #0 .*0x0*{addr:x}.*start_kernel", bl, re.S), bl
    assert "Not available" not in bl
    k.cmd("bc 0")
    k.go(r"ekdb loader: exiting boot services")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=r"Oops|Kernel panic")


def test_loader_stop_lldb(machine):
    """lldb 14 at the loader's stop finds the loader by itself
    (qXfer:libraries-svr4:read, which it asks for first): image list at the
    printed base, bt with loader symbols, a breakpoint on a loader function.
    lldb asks a remote stub for its images only from its POSIX dynamic
    loader, which it picks for a Linux (or BSD) triple: hence --arch."""
    m, base = boot_to_loader_stop(machine)
    out = subprocess.run(
        ["lldb", "-b",
         "-o", "settings set plugin.process.gdb-remote.packet-timeout 20",
         "-o", f"target create --arch x86_64-pc-linux-gnu {KERNEL_ELF}",
         "-o", f"process connect unix-connect://{m.socket_path(1)}",
         "-o", "image list", "-o", "bt",
         "-o", "breakpoint set -n ldr_exit_boot_services", "-o", "continue",
         "-o", "breakpoint delete --force", "-o", "process detach"],
        capture_output=True, text=True, timeout=BOOT_TIMEOUT).stdout
    row = re.search(r"^\[\s*\d+\] \S+ 0x([0-9a-f]+) (\S+/loader\.so)\s*$", out, re.M)
    assert row and row.group(2) == LOADER_SO, out
    if base is not None:
        assert int(row.group(1), 16) == base, (out, hex(base))
    assert re.search(r"frame #0: 0x[0-9a-f]+ loader\.so`kgdb_breakpoint at entry\.c:\d+", out), out
    assert re.search(r"frame #1: 0x[0-9a-f]+ loader\.so`ldr_dbg_wait at glue\.c:\d+", out), out
    assert re.search(r"stop reason = breakpoint 1\.1\n.*loader\.so`ldr_exit_boot_services", out), out
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=r"Oops|Kernel panic")


def test_loader_breakpoint_on_start_kernel(machine, gdb):
    """`break start_kernel` planted at the loader's stop (written into the
    placed kernel image through the link-address translation) fires when the
    kernel runs it, in the same gdb session: the loader's debugger state is
    handed over in the boot-info record and the kernel's takes it over in
    x86_64_start_kernel() (test_handoff_loader.py has the whole chain).  Then the
    breakpoint is deleted and the kernel boots.  KASLR on: gdb finds the
    moved kernel through qOffsets at the loader's stop."""
    m, _, g = gdb_at_loader_stop(machine, gdb, cmdline=LOADER_WAIT)
    g.cmd("break start_kernel")
    stop = cont_to_stop(g)
    assert stop_func(stop) == "start_kernel", stop
    assert frames(g.cmd("bt"))[:2] == ["start_kernel", "x86_64_start_kernel"]
    m.wait_for(r"ekdb loader: exiting boot services", timeout=10)
    m.expect_not(r"trap_init|Linux|boot complete")
    g.cmd("delete")
    g.detach()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=r"Oops|Kernel panic")
