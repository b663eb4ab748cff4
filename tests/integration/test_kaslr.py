# SPDX-License-Identifier: GPL-2.0
"""KASLR (issue 11, docs/boot.md "KASLR"): the loader moves the kernel to a
random 2 MiB-aligned base (and physical block) at every boot; gdb follows
by itself (qOffsets; no add-symbol-file), kdb's symbols follow (kallsyms
relocated), and `nokaslr` keeps the link address.

Each KASLR boot puts kdb and gdb on ttyS1 (test_kdb_gdb.py's setup): kdb
first, then gdb takes the line, so both are checked against the same base.
Addresses from build/kernel.elf (nm) plus the base the loader printed must
be what the running system says."""

import re
import subprocess

from conftest import KERNEL_ELF
from gdb_boot import ACKS_ON, cont_to_stop, frames as gdb_frames, reg, stop_func
from kdb_session import CONSOLE, Kdb, boot_kdb, KGDBWAIT
from qemu import BOOT_TIMEOUT

LINK = 0xffffffff80200000
WINDOW_END = 0xffffffffc0000000
KDB_ON_TTYS1 = f"{CONSOLE} ekgdboc=ttyS1 kgdbwait"
LOADER_KASLR = (r"ekdb loader: KASLR: kernel base (0x[0-9A-F]+) \(offset (0x[0-9A-F]+), "
                r"link (0x[0-9A-F]+)\), phys (0x[0-9A-F]+), entropy (RDRAND|TSC)")
KDB_BT_AT_KGDBWAIT = ["kgdb_breakpoint", "ekdb_early_init", "setup_arch", "start_kernel"]

_NM = {}


def nm(name):
    """Link address of a kernel symbol (build/kernel.elf)."""
    if not _NM:
        out = subprocess.run(["nm", KERNEL_ELF], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 3:
                _NM.setdefault(f[2], int(f[0], 16))
    return _NM[name]


def kdb_frames(bt):
    """Function names of a kdb `bt` (Linux 6.x format), innermost first: the
    RIP: line's, then each Call Trace entry (also the unreliable '? ')."""
    return [a or b for a, b in re.findall(
        r"^RIP: [0-9a-f]{4}:(\w+)\+0x[0-9a-f]+/0x[0-9a-f]+$|"
        r"^ (?:\? )?(\w+)\+0x[0-9a-f]+/0x[0-9a-f]+$", bt, re.M)]


def loader_base(m):
    """(virtual base, offset, physical base) from the loader's log line."""
    r = re.search(LOADER_KASLR, m.output(0))
    assert r, m.output(0)[-3000:]
    base, off, link, phys = (int(r.group(i), 16) for i in range(1, 5))
    assert link == LINK and base == LINK + off, r.group(0)
    return base, off, phys


def kaslr_boot(machine, gdb):
    """One KASLR boot: kdb then gdb on it, both naming the right functions
    at the moved addresses.  Returns (virtual base, physical base)."""
    m = boot_kdb(machine, cmdline=KDB_ON_TTYS1, port=1, ports=("unix", "unix"))
    base, off, phys = loader_base(m)
    assert base != LINK and base % 0x200000 == 0 and base < WINDOW_END, hex(base)
    assert phys % 0x200000 == 0 and phys + 0x200000 <= 1 << 32, hex(phys)
    assert m.kaslr_offset() == off
    # the kernel says the same
    m.wait_for(rf"KASLR: kernel base 0x{base:x}, offset 0x{off:x} from the link address",
               timeout=BOOT_TIMEOUT)

    # -- kdb: symbols at run-time addresses
    k = Kdb(m, port=1)
    bt = k.cmd("bt")
    assert kdb_frames(bt)[:4] == KDB_BT_AT_KGDBWAIT, bt
    md = k.cmd("md setup_arch 1")
    assert md.startswith(f"0x{nm('setup_arch') + off:016x} "), md
    rd = k.cmd("rd")
    rip = int(re.search(r"\bip: ([0-9a-f]{16})", rd).group(1), 16)
    assert rip == nm("kgdb_breakpoint") + off + 1, (hex(rip), rd)

    # -- gdb takes the line: build/kernel.elf, nothing else
    m.release_port(1)
    g = gdb()
    for c in ACKS_ON:
        g.cmd(c)
    g.connect(m.socket_path(1))
    assert gdb_frames(g.cmd("bt"))[:4] == KDB_BT_AT_KGDBWAIT
    assert re.match(r"kgdb_breakpoint \+ \d+ in section \.text", g.cmd("info symbol $pc")), \
        g.cmd("info symbol $pc")
    assert reg(g, "pc") == nm("kgdb_breakpoint") + off + 1
    out = g.cmd("p/x &boot_params")
    assert f"0x{nm('boot_params') + off:x}" in out, out
    # memory read through a relocated symbol: the record's magic ("EDKBINFO")
    assert "0x4f464e49424b4445" in g.cmd("p/x boot_params.magic")
    # .rodata moves too (qOffsets TextSeg=: with Text=;Data=;Bss= gdb kept
    # const tables at their link address): a static const table of
    # early_param entries, its name string read through it
    out = g.cmd("p &__early_param_setup_ekgdboc")
    assert f"0x{nm('__early_param_setup_ekgdboc') + off:x}" in out, out
    assert '"ekgdboc"' in g.cmd("p __early_param_setup_ekgdboc.name"), \
        g.cmd("p __early_param_setup_ekgdboc")

    # break by name, then watch a global
    g.cmd("break mm_init")
    st = cont_to_stop(g)
    assert stop_func(st) == "mm_init", st
    assert gdb_frames(g.cmd("bt"))[:2] == ["mm_init", "start_kernel"]
    assert g.cmd("info symbol $pc").startswith("mm_init in section .text")
    g.cmd("delete")
    out = g.cmd("watch jiffies")
    assert "Hardware watchpoint" in out, out
    st = cont_to_stop(g, timeout=BOOT_TIMEOUT)
    assert st.get("reason") == "watchpoint-trigger", st
    assert reg(g, "dr0") == nm("jiffies") + off, hex(reg(g, "dr0"))
    assert re.match(r"\w+ \+ \d+ in section \.text|\w+ in section \.text",
                    g.cmd("info symbol $pc"))
    return base, phys


def test_kaslr_two_boots_gdb_and_kdb_follow(machine, gdb):
    """Two boots: different bases (printed); in each, kdb bt/md/rd and gdb
    bt, info symbol $pc, break by name and watch on a global are right."""
    first = kaslr_boot(machine, gdb)
    second = kaslr_boot(machine, gdb)
    print(f"KASLR bases: boot 1 virt 0x{first[0]:x} phys 0x{first[1]:x}; "
          f"boot 2 virt 0x{second[0]:x} phys 0x{second[1]:x}")
    # 511 virtual slots times hundreds of physical ones: equal by chance ~1e-5
    assert first != second, (hex(first[0]), hex(second[0]))


def test_nokaslr_keeps_the_link_address(machine):
    """nokaslr: the loader says so, the kernel runs at 0xffffffff80200000,
    kdb's symbols are the ELF's."""
    m = boot_kdb(machine, cmdline=f"{KGDBWAIT} nokaslr")
    out = m.output(0)
    assert re.search(r"ekdb loader: KASLR off \(nokaslr\): kernel base 0xFFFFFFFF80200000 "
                     r"\(the link address\)", out), out[-2000:]
    assert "KASLR: off, kernel at its link address 0xffffffff80200000" in out
    assert m.kaslr_offset() == 0
    k = Kdb(m)
    assert kdb_frames(k.cmd("bt"))[:4] == KDB_BT_AT_KGDBWAIT
    md = k.cmd("md setup_arch 1")
    assert md.startswith(f"0x{nm('setup_arch'):016x} "), md


def test_kaslr_word_inside_a_value_is_not_nokaslr(machine):
    """Bad input: `nokaslr` only as a parameter of its own; inside a quoted
    value or as part of a longer word it does not turn KASLR off."""
    m = boot_kdb(machine, cmdline=f'{KGDBWAIT} x.nokaslr=1 foo="a nokaslr b" nokaslrx')
    base, off, _ = loader_base(m)
    assert off != 0 and base != LINK
    k = Kdb(m)
    assert kdb_frames(k.cmd("bt"))[:4] == KDB_BT_AT_KGDBWAIT
