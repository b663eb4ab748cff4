# SPDX-License-Identifier: GPL-2.0
"""The debugger protects itself and never wraps at 2^64 (issue 19).

- Writes into the debugger's own data and bss are refused from gdb (`M`/`X`:
  E01, gdb's "Cannot access memory") and from kdb (`mm`: a message and
  `diag: -22: Permission denied`), as watchpoints there already were;
  reads stay allowed.
- A range that runs past the top of the address space is refused whole:
  gdb `m`/`M`/`x`/`Z2`.. get E22, kdb `md`/`mdr`/`mm`/`bph` a message and
  `diag: -21: Invalid address` (Linux's kdb would go on at address 0).
- kdb's `bl` shows how often a breakpoint fired (`    hits=N`, only once
  it has), counted by the stops the machine really made.
"""

import re

from gdb_boot import attach, boot_to_kgdbwait, expect_error, value
from kdb_session import BOOT_COMPLETE, Kdb, boot_kdb
from qemu import BOOT_TIMEOUT
from test_kdb_serial import sym

CANNOT_ACCESS = r"Cannot access memory at address"


def received(g, packet):
    """The stub's reply to one raw packet (gdb's `maint packet`)."""
    out = g.cmd(f"maint packet {packet}")
    m = re.search(r'received: "(.*)"', out)
    assert m, f"{packet}: {out}"
    return m.group(1)


def test_gdb_refuses_debugger_data_and_ranges_past_the_top(machine, gdb):
    """At kgdbwait, gdb: `set var` on the debugger's data (`bp_cap`, core/bp.c)
    and bss (`roundup_active`, core/cpu.c) fails with "Cannot access memory"
    and leaves the value; both still read; a kernel global stays writable.
    Raw packets over the top of the address space get E22 and change
    nothing; ranges that end exactly at 2^64 are not refused for it.
    Bad input tried: set var on a data int, a bss bool, and a write that
    starts in kernel data and runs into the debugger's (M from 8 bytes
    below __ekdb_data_start); m/x from 0xffffffffffffff80 for 0x100 bytes,
    M of 4 bytes at the last 2, Z2/Z4 of 8 bytes at the last 4, x/32xb at
    the last 16 bytes."""
    m = boot_to_kgdbwait(machine)
    g = attach(machine, gdb, m)

    cap = value(g, "bp_cap")
    assert cap == "32", cap                         # the early table's size
    expect_error(g, "set var bp_cap = 0", CANNOT_ACCESS)
    assert value(g, "bp_cap") == cap
    assert value(g, "roundup_active") == "false"
    expect_error(g, "set var roundup_active = 1", CANNOT_ACCESS)
    assert value(g, "roundup_active") == "false"
    data = int(value(g, "/x (unsigned long)&__ekdb_data_start"), 16)
    assert received(g, f"M{data - 8:x},10:{'00' * 16}") == "E01"
    assert re.fullmatch(r"[0-9a-f]{16}", received(g, f"m{data:x},8"))    # reads allowed
    old = int(value(g, "console_loglevel"))         # the kernel's own data: writable
    g.cmd(f"set var console_loglevel = {old + 1}")
    assert int(value(g, "console_loglevel")) == old + 1
    g.cmd(f"set var console_loglevel = {old}")

    assert received(g, "mffffffffffffff80,100") == "E22"
    assert received(g, "xffffffffffffff80,100") == "E22"
    assert received(g, "Mfffffffffffffffe,4:01020304") == "E22"
    assert received(g, "Z2,fffffffffffffffc,8") == "E22"
    assert received(g, "Z4,fffffffffffffffc,8") == "E22"
    # the last page is not mapped: a whole range there is a plain fault (E0e)
    assert received(g, "mfffffffffffffff8,8") == "E0e"
    expect_error(g, "x/32xb 0xfffffffffffffff0", rf"{CANNOT_ACCESS} 0xfffffffffffffff0")

    g.cont()
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT)


def test_kdb_refuses_debugger_data_ranges_past_the_top_and_counts_hits(machine):
    """At kgdbwait, kdb: `mm` on the debugger's bss and data says it is the
    debugger's and gives diag -22, the value unchanged (`md` still reads
    it); md/mdr/mm/bph over the top of the address space give the range
    message and diag -21, and never print an address at page 0.  Then
    `bl` counts real stops: a bp on mm_init (fires once) and a write
    watchpoint on jiffies (fires on every tick, twice here) show
    `hits=1` and `hits=2` after the stops, no hits line before.
    Bad input tried: mm roundup_active 1, mm4 bp_cap 0, md
    0xfffffffffffffff8 4, mdr 0xfffffffffffffffe 4, mm
    0xfffffffffffffffc 0, bph 0xfffffffffffffffc dataw 8."""
    m = boot_kdb(machine)
    k = Kdb(m)
    k.cmd("set LINES 200")

    ra, cap = sym("roundup_active", m), sym("bp_cap", m)
    before = k.cmd("md1c1 roundup_active")
    assert before.startswith(f"0x{ra:016x} 00"), before
    assert k.cmd("mm1 roundup_active 1") == (
        f"mm1: 0x{ra:x} is the debugger's own code or data: not writable\n"
        "diag: -22: Permission denied")
    assert k.cmd("md1c1 roundup_active") == before
    assert k.cmd("mm4 bp_cap 0") == (
        f"mm4: 0x{cap:x} is the debugger's own code or data: not writable\n"
        "diag: -22: Permission denied")
    assert k.cmd("md4c1 bp_cap").startswith(f"0x{cap:016x} 00000020"), "bp_cap changed"

    top = "runs past the end of the address space\ndiag: -21: Invalid address"
    out = k.cmd("md 0xfffffffffffffff8 4")
    assert out == f"md: 0xfffffffffffffff8 + 0x40 bytes {top}", out
    assert k.cmd("mdr 0xfffffffffffffffe 4") == f"mdr: 0xfffffffffffffffe + 0x4 bytes {top}"
    assert k.cmd("mm 0xfffffffffffffffc 0") == f"mm: 0xfffffffffffffffc + 0x8 bytes {top}"
    assert k.cmd("bph 0xfffffffffffffffc dataw 8") == (
        f"bph: 0xfffffffffffffffc + 0x8 bytes {top}")
    assert k.cmd("bl") == ""                        # nothing was planted

    mm_init, jiffies = sym("mm_init", m), sym("jiffies", m)
    k.cmd("bp mm_init")
    k.cmd("bph jiffies dataw 8")
    bl = k.cmd("bl")
    assert "hits=" not in bl, bl
    k.go(rf"Instruction\(i\) breakpoint #0 at 0x{mm_init:x}")
    k.wait(r"\[0\]kdb> ")
    k.go(rf"Data Write breakpoint #1 at 0x{jiffies:x}")
    k.wait(r"\[0\]kdb> ")
    k.go(rf"Data Write breakpoint #1 at 0x{jiffies:x}")
    k.wait(r"\[0\]kdb> ")
    bl = k.cmd("bl")
    assert bl == (
        f"Instruction(i) BP #0 at 0x{mm_init:x} (mm_init)\n"
        f"    is enabled   addr at {mm_init:016x}, hardtype=0 installed=0\n"
        "    hits=1\n\n"
        f"Data Write BP #1 at 0x{jiffies:x} (jiffies)\n"
        f"    is enabled   addr at {jiffies:016x}, hardtype=2 installed=0\n"
        "    hits=2"), bl
    k.cmd("bc *")
    k.go(BOOT_COMPLETE)
