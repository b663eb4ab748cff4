# SPDX-License-Identifier: GPL-2.0
"""ekdb's kdb on Linux's screen and keyboard (issue 34, docs/linux.md).

`ekdb.ekgdboc=kbd ekdb.kgdbwait`: kdb in Linux's setup_arch() on the UEFI
GOP framebuffer (the glue reads it from Linux's screen_info,
linux/glue/io.c), typed on the PS/2 keyboard through QMP send-key, the
screen read back with screen.py.  The serial console is on only for the
failure reports and to see the boot end.  Screens are saved as PNG in the
test's tmp dir (kdbscreen-*.png).
"""

import re

from kdb_session import BAD
from qemu import BOOT_TIMEOUT
from test_kdb_screen import Screen, at_prompt, rows_after
from test_linux import CONSOLE, INIT, LINUX_BAD, boot, linux_kernel  # noqa: F401 (fixture)

ON_SCREEN = f"{CONSOLE} ekdb.ekgdboc=kbd ekdb.kgdbwait"
FFFD = "\ufffd"


def names(rows):
    """Function names of a kdb bt read off the screen."""
    return [m.group(1) for ln in rows for m in
            [re.search(r"(?:RIP: [0-9a-f]{4}:| (?:\? )?)(\w+)\+0x[0-9a-f]+/0x[0-9a-f]+$", ln)]
            if m]


def test_kdb_on_the_screen_in_setup_arch(bare_machine, linux_kernel, tmp_path):  # noqa: F811
    """kdb at kgdbwait in setup_arch() on the GOP screen, typed on the
    keyboard; bt names setup_arch and start_kernel; a breakpoint planted
    there on a function that runs after the early initcalls stops on the
    same screen, in Linux's kdb after the handoff (the framebuffer
    memremap()ed by then); go boots on to the shell with the screen left
    as kdb drew it (the config has no fbcon: nothing of Linux's draws on
    it)."""
    m = boot(bare_machine, linux_kernel, ON_SCREEN)
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

    # a breakpoint where Linux starts /init: it fires after early_initcall()
    # and after the handoff (dbg_late_init()): Linux's kdb stops there, on
    # ekdb's screen (console ekdbfb), typed on the same keyboard (I/O driver
    # ekdb); Linux's kdb writes to every console, the serial one too
    sc.bp_go("kernel_execve")
    out0 = m.output(0)
    assert "Linux's kdb on ekdb's screen (console ekdbfb)" in out0, out0[-3000:]
    m.wait_for(r"Entering kdb \(current=0x[0-9a-f]+, pid 1\) on processor 0 due to Breakpoint",
               timeout=60)
    sc.cmd("set LINES 100", "lines-linux")      # Linux's kdb has its own env
    s, out = sc.cmd("bt", "bp-bt")
    fn = names(out)
    # Linux's own bt of the current task: its kdb frames, then the stop
    assert any(re.match(r"RIP: [0-9a-f]{4}:kernel_execve\+0x0/", ln) for ln in out), out
    assert "kernel_init" in fn and "kdb_main_loop" in fn, out
    sc.cmd("bc 0", "bc")
    sc.type("go")
    sc.keys("ret")
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|Entering kdb")
    m.send(0, b"echo ekdb-$((6*7))\n")
    m.wait_for(r"ekdb-42", timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    # the screen: kdb's last lines as it left them, every cell a glyph
    s = sc.wait("after-boot", lambda s: s.find("kdb> go") is not None)
    assert FFFD not in s.text(), s.text()
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
