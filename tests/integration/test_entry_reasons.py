# SPDX-License-Identifier: GPL-2.0
"""Ways into kdb and the entry line each one prints, as Linux 6.x's
kdb_local(): sysrq-g on the keyboard (Alt+SysRq+g, ekgdboc=kbd) and an
NMI nobody claimed say so; gdb's `$3#33` back to kdb prints the entry
line again."""

import re

from kdb_session import CONSOLE, ENTRY, PROMPT, Kdb, boot_kdb
from qemu import BOOT_TIMEOUT

BOOT_COMPLETE = r"boot complete: (\d+) CPUs online"
BAD = r"Oops|Kernel panic|unhandled exception"


def test_sysrq_g_on_the_keyboard(machine):
    """Alt+SysRq+g pressed on the PS/2 keyboard while the kernel runs
    enters kdb "due to Keyboard Entry"; typing g alone (with Alt) or SysRq
    with another key does not."""
    m = machine(cmdline=f"{CONSOLE} ekgdboc=kbd,ttyS1", ports=("unix", "unix"))
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    q = m.qmp()
    k = Kdb(m, port=1)
    start = k.mark()
    q.send_key("alt-g")                 # not sysrq: typing, ignored while running
    q.send_key("alt-sysrq-h")           # another sysrq key: not ours
    q.send_key("alt-sysrq-g")
    e = k.wait(ENTRY, timeout=BOOT_TIMEOUT)
    assert e.group(3) == "Keyboard Entry", e.group(0)
    assert len(re.findall(r"Entering kdb", m.output(1)[start:])) == 1
    k.wait(PROMPT)
    k.go(r"go\r?\n")
    start = k.mark()
    q.send_key("alt-sysrq-g")           # and again: the detector is rearmed
    e = k.wait(ENTRY, timeout=BOOT_TIMEOUT)
    assert e.group(3) == "Keyboard Entry", e.group(0)
    k.wait(PROMPT)
    m.expect_not(BAD)


def test_nmi_enters_kdb(machine):
    """QEMU's inject-nmi (an NMI button) while 2 CPUs run: kdb says "due
    to NonMaskable Interrupt @ <pc>" once, the other CPU's NMI does not
    oops, and after go the kernel runs on and a second NMI stops it again."""
    m = machine(cmdline=f"{CONSOLE} ekgdboc=ttyS0", smp=2)
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    q = m.qmp()
    k = Kdb(m)
    for _ in range(2):
        start = k.mark()
        q.execute("inject-nmi")
        e = k.wait(ENTRY, timeout=BOOT_TIMEOUT)
        why = e.group(3)
        assert re.fullmatch(r"NonMaskable Interrupt @ 0x[0-9a-f]{16}", why), why
        k.wait(PROMPT)
        pc = int(why.rsplit("0x", 1)[1], 16)
        assert pc >= 0xffffffff80000000, why
        k.go(r"go\r?\n")
        assert len(re.findall(r"Entering kdb", m.output(0)[start:])) == 1
    m.expect_not(BAD)


def test_entry_line_after_gdb_gives_kdb_back(machine):
    """gdb packets at the kdb prompt hand the line to gdb; a raw `$3#33`
    gives it back and kdb prints its entry line again (Linux's kdb_stub)."""
    m = boot_kdb(machine)
    k = Kdb(m)
    k.mark()
    m.send(0, b"$?#3f")
    k.wait(r"\$[ST]05")
    k.mark()
    m.send(0, b"+$3#33")
    e = k.wait(ENTRY)
    assert e.group(3) == "Keyboard Entry", e.group(0)
    k.wait(PROMPT)
    assert "setup_arch" in k.cmd("bt")
