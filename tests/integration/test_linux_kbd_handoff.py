# SPDX-License-Identifier: GPL-2.0
"""The keyboard's state goes to Linux's kdb when kgdboc takes ekdb's line
(issue 34, docs/linux.md "Handoff", linux/glue/kbd.c, linux/patches/0015).

`ekdb.ekgdboc=kbd ekdb.kgdbwait`: ekdb's kdb in setup_arch() on the screen,
typed on the PS/2 keyboard (QMP send-key; input-send-event to hold a key).
After the handoff Linux's kdb reads the keyboard through ekdb's kgdb I/O
driver until kgdboc=kbd replaces it; from then on through Linux's
kdb_keyboard, which must go on with ekdb's Caps Lock and held Shift.
Linux's kdb writes to every console, the serial one too, where its echo of
what was typed is read (`Unknown kdb command: 'XYZ'`).

Bad and odd inputs: `kgdboc=ttyS9` (no such device) leaves ekdb's driver in
place and the keyboard works through it; Caps Lock off with a Shift held
down across the switch (uppercase until it is released, then lowercase);
Caps Lock turned off again in Linux's kdb; a machine with a USB keyboard
and no PS/2 controller (Linux's kdb has no USB keyboard driver: it reads
the keyboard through ekdb's xHCI driver).
"""

from kdb_session import PROMPT
from qemu import BOOT_TIMEOUT
from test_kdb_screen import Screen, at_prompt
from test_linux import CONSOLE, INIT, LINUX_BAD, boot, linux_kernel  # noqa: F401 (fixture)
from test_linux_handoff import LINUX_ENTRY

ON_SCREEN = f"{CONSOLE} ekdb.ekgdboc=kbd ekdb.kgdbwait"
REPLACED = r"KGDB: Replacing I/O driver ekdb with kgdboc"


def shift(sc, down):
    """Press or release the left Shift alone (send-key presses and releases)."""
    sc.q.execute("input-send-event", {"events": [
        {"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": "shift"}}}]})


def ekdb_prompt(m, tmp_path):
    m.wait_for(r"kgdb: Waiting for connection", timeout=BOOT_TIMEOUT,
               fail_on=LINUX_BAD + "|" + INIT)
    sc = Screen(m, tmp_path)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    return sc


def sysrq_g(m):
    """From the shell on ttyS0: Linux's kdb (its prompt on ttyS0 too)."""
    m.send(0, b"echo g > /proc/sysrq-trigger\n")
    m.wait_for(r"sysrq: DEBUG\s+" + LINUX_ENTRY, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD)


def typed(m, sc, keys, want):
    """Type keys (plain key names, no shift added), Enter: Linux's kdb says
    which command it read, on ttyS0."""
    for k in keys:
        sc.keys(k)
    sc.keys("ret")
    got = m.wait_for(r"Unknown kdb command: '([^'\r\n]*)'", timeout=60, fail_on=LINUX_BAD)
    assert got.group(1) == want, m.output(0)[-2000:]
    m.wait_for(PROMPT, timeout=60, fail_on=LINUX_BAD)


def kgdboc_took_it(m, says):
    """kgdboc replaced ekdb's I/O driver, ekdb said what the keyboard does
    now (regex @says), Linux came up; then sysrq-g."""
    m.wait_for(REPLACED, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|Entering kdb")
    m.wait_for(r"ekdb: I/O driver ekdb replaced: " + says, timeout=60, fail_on=LINUX_BAD)
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|Entering kdb")
    sysrq_g(m)


def go_on(m, sc, n):
    """go in Linux's kdb, typed on the keyboard: the shell runs on."""
    sc.type("go")
    sc.keys("ret")
    shell_alive(m, n)


def shell_alive(m, n):
    m.send(0, f"echo ekdb-$(({n}*7))\n".encode())
    m.wait_for(rf"ekdb-{n * 7}", timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|Entering kdb")


def test_caps_lock_goes_to_linux_kdb(bare_machine, linux_kernel, tmp_path):  # noqa: F811
    """Caps Lock turned on in ekdb's kdb in setup_arch(); kgdboc=kbd on the
    command line replaces ekdb's I/O driver at its initcall; sysrq-g:
    Linux's kdb (kdb_keyboard) reads the PS/2 keyboard with Caps Lock on;
    turned off there, lowercase again; go, the shell runs on."""
    m = boot(bare_machine, linux_kernel, f"{ON_SCREEN} kgdboc=kbd")
    sc = ekdb_prompt(m, tmp_path)
    sc.type("go")
    sc.keys("caps_lock")
    sc.keys("x")                    # ekdb's own decoder: Caps Lock on
    sc.wait("caps-on", lambda s: s.find("kdb> goX") is not None)
    sc.keys("backspace", "ret")     # "go"
    kgdboc_took_it(m, r"Linux's kdb reads the PS/2 keyboard with Caps Lock on\r?\n")
    typed(m, sc, "xyz", "XYZ")
    sc.keys("caps_lock")            # off again, in Linux's kdb
    typed(m, sc, "xyz", "xyz")
    go_on(m, sc, 6)


def test_held_shift_and_a_kgdboc_naming_no_device(bare_machine, linux_kernel, tmp_path):  # noqa: F811
    """Caps Lock off, Shift held down from ekdb's kdb on.  kgdboc=ttyS9
    names no device: ekdb's I/O driver stays, and Linux's kdb reads the
    keyboard through it (Shift still held).  Then kbd written to kgdboc's
    parameter replaces ekdb's driver at run time: Linux's kdb_keyboard goes
    on with Shift held (uppercase) until it is released (lowercase)."""
    m = boot(bare_machine, linux_kernel, f"{ON_SCREEN} kgdboc=ttyS9")
    sc = ekdb_prompt(m, tmp_path)
    sc.type("go")
    shift(sc, True)                 # held across the boot
    sc.keys("ret")
    m.wait_for(INIT, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|Entering kdb")
    assert "Replacing I/O driver" not in m.output(0)
    # Linux's kdb through ekdb's I/O driver
    sysrq_g(m)
    sc.keys("q")
    shift(sc, False)
    typed(m, sc, "q", "Qq")
    sc.type("go")
    shift(sc, True)                 # held again, as ekdb's decoder sees it
    sc.keys("ret")
    shell_alive(m, 6)
    assert "Replacing I/O driver" not in m.output(0)
    # kgdboc=kbd at run time
    m.send(0, b"echo kbd > /sys/module/kgdboc/parameters/kgdboc\n")
    m.wait_for(REPLACED, timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|Entering kdb")
    m.wait_for(r"ekdb: I/O driver ekdb replaced: Linux's kdb reads the PS/2 keyboard "
               r"with Caps Lock off, Shift held\r?\n", timeout=60, fail_on=LINUX_BAD)
    sysrq_g(m)
    sc.keys("q")
    shift(sc, False)
    typed(m, sc, "q", "Qq")
    go_on(m, sc, 7)


def test_usb_keyboard_after_kgdboc_kbd(bare_machine, linux_kernel, tmp_path):  # noqa: F811
    """No PS/2 controller, a usb-kbd on a qemu-xhci: kgdboc=kbd replaces
    ekdb's I/O driver, and Linux's kdb, which has no USB keyboard driver,
    goes on reading the USB keyboard through ekdb's (a kdb poll function):
    sysrq-g, letters typed, go."""
    bz, initrd = linux_kernel
    m = bare_machine(cmdline=f"{ON_SCREEN} kgdboc=kbd", linux=bz, initrd=initrd,
                     no_ps2=True, usb_kbd=["qemu-xhci"])
    m.wait_for(r"kgdb: ekgdboc=kbd: 1 USB keyboard, output on the screen",
               timeout=BOOT_TIMEOUT, fail_on=LINUX_BAD + "|" + INIT)
    sc = ekdb_prompt(m, tmp_path)
    sc.type("go")
    sc.keys("ret")
    kgdboc_took_it(m, r"Linux's kdb has no USB keyboard driver: it reads 1 USB keyboard "
                   r"through ekdb's")
    typed(m, sc, "xyz", "xyz")
    go_on(m, sc, 6)
