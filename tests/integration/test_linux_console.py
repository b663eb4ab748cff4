# SPDX-License-Identifier: GPL-2.0
"""ekdb's kdb on Linux's screen and keyboard (issue 34, docs/linux.md).

`ekdb.ekgdboc=kbd ekdb.kgdbwait`: kdb in Linux's setup_arch() on the UEFI
GOP framebuffer (the glue reads it from Linux's screen_info,
linux/glue/io.c), typed on the PS/2 keyboard through QMP send-key, the
screen read back with screen.py.  The serial console is on only for the
failure reports and to see the boot end.  Screens are saved as PNG in the
test's tmp dir (kdbscreen-*.png).
"""

import os
import re

from kdb_session import BAD
from qemu import BOOT_TIMEOUT
from screen import c_font_tables
from test_kdb_screen import Screen, at_prompt, rows_after
from test_linux import CONSOLE, INIT, LINUX_BAD, VMLINUX, boot, linux_kernel  # noqa: F401

ON_SCREEN = f"{CONSOLE} ekdb.ekgdboc=kbd ekdb.kgdbwait"
# the VT console too (printk and Linux's kdb on fbcon); ttyS0 last stays /dev/console
ON_SCREEN_TTY0 = f"console=tty0 {ON_SCREEN}"
FFFD = "\ufffd"
FBCON_HAS_IT = r"ekdb: fbcon has the screen: Linux's kdb shows there through the VT console"
ENTER_BP = r"Entering kdb \(current=0x[0-9a-f]+, pid 1\) on processor 0 due to Breakpoint"


def linux_font():
    """fbcon's font: lib/fonts/font_8x16.c of the source the kernel was
    built from (the build cache: .../VERSION/out/KEY/vmlinux)."""
    ver = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(VMLINUX))))
    return c_font_tables(os.path.join(ver, "pristine", "lib", "fonts", "font_8x16.c"))


def clean_rows(s, first):
    """The rows from the last one containing @first to the end: each cell a
    glyph of the font the screen was read with."""
    rows = s.text().splitlines()
    idx = [i for i, r in enumerate(rows) if first in r]
    assert idx, f"{first!r} not on the screen:\n{s.text()}"
    return rows[idx[-1]:]


def names(rows):
    """Function names of a kdb bt read off the screen."""
    return [m.group(1) for ln in rows for m in
            [re.search(r"(?:RIP: [0-9a-f]{4}:| (?:\? )?)(\w+)\+0x[0-9a-f]+/0x[0-9a-f]+$", ln)]
            if m]


def test_kdb_on_the_screen_in_setup_arch(bare_machine, linux_kernel, tmp_path):  # noqa: F811
    """kdb at kgdbwait in setup_arch() on the GOP screen, typed on the
    keyboard; bt names setup_arch and start_kernel.  After the handoff,
    before fbcon (driver_init), Linux's kdb stops on the same screen drawn
    by ekdb (console ekdbfb, the framebuffer memremap()ed by then).  Then
    efifb and fbcon take the screen: ekdbfb steps aside and Linux's kdb
    shows in fbcon's font through the VT console (console=tty0), at a
    breakpoint (kernel_execve) and at Alt+SysRq+g typed on the keyboard,
    with kdb's COLUMNS from the VT (con_debug_enter(), as kgdboc=kms)."""
    m = boot(bare_machine, linux_kernel, ON_SCREEN_TTY0)
    m.wait_for(r"kgdb: Waiting for connection", timeout=BOOT_TIMEOUT,
               fail_on=LINUX_BAD + "|" + INIT)
    out = m.output(0)
    assert "kgdb: ekgdboc=kbd: i8042 keyboard" in out and "output on the screen" in out, out
    sc = Screen(m, tmp_path)
    s = sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    assert s.find("Entering kdb (current=") and s.find("due to Keyboard Entry"), s.text()
    assert "Entering kdb" not in m.output(0)            # kdb is on the screen only

    sc.cmd("set LINES 100", "lines")                 # no pager for bt
    s, out = sc.cmd("bt", "bt")
    fn = names(out)
    assert "setup_arch" in fn and "start_kernel" in fn, out
    assert fn.index("setup_arch") < fn.index("start_kernel"), out
    # init_task's comm from the port's task_get: swapper until sched_init()
    assert any(re.match(r"CPU: 0 PID: 0 Comm: swapper Not tainted 6\.1\.\d+ ", ln)
               for ln in out), out

    # a Linux symbol by name (kallsyms), typed with a Backspace on the way
    sc.type("mdd")
    sc.keys("backspace")
    sc.type(" start_kernel 1")
    sc.keys("ret")
    s = sc.wait("md", lambda s: s.find("kdb> md start_kernel 1") is not None and at_prompt(s))
    assert re.match(r"0xffffffff[0-9a-f]{8} ", rows_after(s, "kdb> md start_kernel 1")[0]), s.text()

    # after early_initcall() and the handoff (dbg_late_init()), before the
    # device initcalls: Linux's kdb on ekdb's screen (console ekdbfb),
    # typed on the same keyboard (I/O driver ekdb); Linux's kdb writes to
    # every console, the serial one too
    sc.bp_go("driver_init")
    out0 = m.output(0)
    assert "Linux's kdb on ekdb's screen (console ekdbfb)" in out0, out0[-3000:]
    m.wait_for(ENTER_BP, timeout=60)
    sc.cmd("set LINES 100", "lines-linux")      # Linux's kdb has its own env
    s, out = sc.cmd("bt", "bp-bt")
    fn = names(out)
    # Linux's own bt of the current task: its kdb frames, then the stop
    assert any(re.match(r"RIP: [0-9a-f]{4}:driver_init\+0x0/", ln) for ln in out), out
    assert "kernel_init" in fn and "kdb_main_loop" in fn, out
    sc.cmd("bc 0", "bc")
    s, out = sc.cmd("bp kernel_execve", "bp-execve")
    assert any("BP #0" in ln and "kernel_execve" in ln for ln in out), out

    # efifb and fbcon come up in the device initcalls: the screen is theirs
    sc.type("go")
    sc.keys("ret")
    m.wait_for(FBCON_HAS_IT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    m.wait_for(ENTER_BP, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    fb = Screen(m, tmp_path, tables=linux_font())
    s = fb.wait("fbcon-bp", lambda s: at_prompt(s) and s.find("due to Breakpoint @") is not None)
    # fbcon's screen: the boot log through tty0 above kdb, all in its font
    assert s.find("ekdb: fbcon has the screen") is not None, s.text()
    rows = clean_rows(s, "Entering kdb (current=")
    assert not any(FFFD in r for r in rows), s.text()
    assert any(re.search(r"due to Breakpoint @ 0x[0-9a-f]+", r) for r in rows), s.text()
    # con_debug_enter(): COLUMNS from the VT's size (set by nobody before)
    s, _ = fb.cmd("env", "fbcon-env")
    m.wait_for(r"COLUMNS=\d+", timeout=60)
    assert re.search(rf"COLUMNS={s.cols}\b", m.output(0)), (s.cols, m.output(0)[-2000:])
    s, out = fb.cmd("bt", "fbcon-bt")
    assert "kernel_init" in names(out), out
    fb.cmd("bc 0", "fbcon-bc")
    fb.type("go")
    fb.keys("ret")
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|Entering kdb")
    m.send(0, b"echo ekdb-$((6*7))\n")
    m.wait_for(r"ekdb-42", timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)

    # Alt+SysRq+g on the keyboard, in the running system: Linux's kdb on fbcon
    fb.keys("alt-sysrq-g")
    m.wait_for(r"Entering kdb \(current=0x[0-9a-f]+, pid \d+\) on processor \d+ due to",
               timeout=60, fail_on=LINUX_BAD)
    s = fb.wait("fbcon-sysrq", lambda s: at_prompt(s) and s.find("Entering kdb") is not None)
    assert not any(FFFD in r for r in clean_rows(s, "Entering kdb (current=")), s.text()
    fb.type("go")
    fb.keys("ret")
    m.send(0, b"echo ekdb-$((6*8))\n")
    m.wait_for(r"ekdb-48", timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    assert re.search(BAD, m.output(0)) is None


def test_kdb_on_a_usb_keyboard(bare_machine, linux_kernel, tmp_path):  # noqa: F811
    """No PS/2 controller (q35 i8042=off), a usb-kbd on a qemu-xhci: ekdb's
    polled xHCI keyboard driver reaches the controller through map_io's
    fixmap slots; kdb at kgdbwait on the screen, bt typed on the USB
    keyboard, go boots on."""
    bz, initrd = linux_kernel
    m = bare_machine(cmdline=ON_SCREEN, linux=bz, initrd=initrd, no_ps2=True,
                     usb_kbd=["qemu-xhci"])
    m.wait_for(r"kbd: xHCI [0-9a-f:.]+ port \d+: USB keyboard 0627:0001",
               timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    m.wait_for(r"kgdb: ekgdboc=kbd: 1 USB keyboard, output on the screen", timeout=60,
               fail_on=LINUX_BAD + "|" + INIT)
    sc = Screen(m, tmp_path)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    sc.cmd("set LINES 100", "lines")
    s, out = sc.cmd("bt", "bt")
    fn = names(out)
    assert "setup_arch" in fn and "start_kernel" in fn, out
    sc.type("go")
    sc.keys("ret")
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|Entering kdb")
    # console=ttyS0 only: fbcon took the screen, kdb cannot reach it: said
    assert re.search(r"ekdb: fbcon has the screen and ekdbfb steps aside, but tty0 is not "
                     r"a console: Linux's kdb is not on the screen \(add console=tty0\)",
                     m.output(0)), m.output(0)[-3000:]
