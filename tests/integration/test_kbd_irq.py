# SPDX-License-Identifier: GPL-2.0
"""The interrupt-driven PS/2 keyboard (kernel-glue/drivers/i8042_kbd.c):
keys typed through QMP reach the kernel's console shell exactly once,
Alt+SysRq+g enters kdb, keys held across kdb do not stick, the early
polled reader's state (caps lock) is taken over at the handoff, and a
machine without a keyboard controller boots with a clear message."""

import re
import time

from kdb_session import BAD, BOOT_COMPLETE
from qemu import BOOT_TIMEOUT
from test_kdb_screen import Screen, at_prompt, last_line, rows_after

SERIAL = "earlyprintk=serial,ttyS0,115200"
SHELL = r"ekdb:/# "
KBD_UP = r"kbd: i8042 keyboard \(config 0x[0-9a-f]+\), irq 1"


def key_event(q, key, down):
    q.execute("input-send-event", events=[
        {"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": key}}}])
    time.sleep(0.05)


def shell_stat(m, sc):
    start = len(m.output(0))
    sc.type("stat")
    sc.keys("ret")
    mt = m.wait_for(r"console input: (\d+) bytes, (\d+) dropped", timeout=60)
    m.wait_for(SHELL, timeout=30)
    return int(mt.group(1)), int(mt.group(2)), m.output(0)[start:]


def test_typed_keys_reach_the_shell_exactly_once(machine, tmp_path):
    m = machine(cmdline=SERIAL)
    m.wait_for(KBD_UP, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    sc = Screen(m, tmp_path)
    start = len(m.output(0))
    sc.type("echo Hello, World 42!")
    sc.keys("ret")
    m.wait_for(r"\nHello, World 42!\r?\n", timeout=60)
    m.wait_for(SHELL, timeout=30)
    seen = m.output(0)[start:]
    assert seen.count("echo Hello, World 42!") == 1, seen     # echoed once
    assert seen.count("Hello, World 42!") == 2, seen          # echo + its output
    n, dropped, _ = shell_stat(m, sc)
    assert (n, dropped) == (len("echo Hello, World 42!") + 1 + len("stat") + 1, 0)


def test_sysrq_g_and_keys_held_across_kdb(machine, tmp_path):
    """Shift and Q held down, then Alt+SysRq+g: kdb on the screen.  Q and
    Shift are let go while kdb runs (kdb reads the releases).  After `go`
    the shell got "Q" exactly once, nothing repeats, Shift does not stick
    and the next keys are not taken for sysrq keys; nothing typed to kdb
    reached the shell."""
    m = machine(cmdline=f"{SERIAL} kgdboc=kms,kbd")
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    sc = Screen(m, tmp_path)
    q = m.qmp()
    start = len(m.output(0))
    key_event(q, "shift", True)
    key_event(q, "q", True)
    m.wait_for(r"Q", timeout=30)
    sc.keys("alt-sysrq-g")
    s = sc.wait("kdb", at_prompt, timeout=60)
    assert s.find("due to Keyboard Entry") is not None, s.text()
    key_event(q, "q", False)
    key_event(q, "shift", False)
    s, out = sc.cmd("kbd", "kbd-cmd")
    assert re.search(r"shift 0 ctrl 0 alt 0 caps 0", out[0]), out
    sc.type("go")
    sc.keys("ret")
    # kdb has left when the console's screen (the shell's prompt) is back:
    # keys typed from now on go to the shell (no sleep to guess when)
    sc.wait("shell", lambda s: not at_prompt(s) and s.find("ekdb:/# Q") is not None,
            timeout=60)
    sc.type(" x")
    sc.keys("ret")
    m.wait_for(r"Q: command not found", timeout=60)
    m.wait_for(SHELL, timeout=30)
    seen = m.output(0)[start:]
    # "Q" echoed once (a printk may land between it and " x"), the line ran once
    assert seen.count("Q") == 2 and seen.count("Q: command not found") == 1, seen
    assert re.search(r" x\r?\n", seen) and " X" not in seen, seen   # Shift did not stick
    assert "kbd" not in seen.replace("kbd:", "") and "go" not in seen, seen
    n, dropped, _ = shell_stat(m, sc)
    assert (n, dropped) == (len("Q x") + 1 + len("stat") + 1, 0), (n, seen)


def test_caps_lock_kept_across_the_keyboard_handoff(machine, tmp_path):
    """ekgdboc=kbd kgdbwait: caps lock turned on in the early debugger is on
    in the interrupt-driven driver that takes the keyboard over."""
    m = machine(cmdline=f"{SERIAL} earlyprintk=vga ekgdboc=kbd kgdbwait")
    sc = Screen(m, tmp_path)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    sc.cmd("bp kthreads_start", "bp")               # runs right after the keyboard driver
    sc.keys("caps_lock")
    sc.keys("shift-g", "shift-o", "ret")            # "go" with caps lock on
    m.wait_for(r"kgdb: Registered I/O driver kgdboc \(kbd\)|kbd -> kbd", timeout=BOOT_TIMEOUT,
               fail_on=BAD)
    s = sc.wait("after-handoff", lambda s: s.width == 1024 and at_prompt(s)
                and s.find("Instruction(i) breakpoint #0 at") is not None, timeout=120)
    assert re.search(KBD_UP + r", kgdboc kbd", m.output(0)), m.output(0)
    sc.type("kbd")
    s = sc.wait("caps", lambda s: last_line(s).rstrip().endswith("kdb> KBD"))
    sc.keys("backspace", "backspace", "backspace")
    # Shift inverts caps lock: "kbd"; the driver's state and the LEDs it set
    sc.keys("shift-k", "shift-b", "shift-d", "ret")
    s = sc.wait("kbd-caps", lambda s: at_prompt(s) and s.find("kbd: i8042 irq 1") is not None)
    out = rows_after(s, "kdb> kbd")
    assert re.search(r"caps 1 num 0 scroll 0 leds 0x4", out[0]), out
    sc.keys("caps_lock")
    s, out = sc.cmd("kbd", "kbd-cmd")
    # caps lock was on in the late driver (typed KBD) and is off now; the LEDs follow
    assert re.search(r"caps 0 num 0 scroll 0 leds 0x0", out[0]), out
    sc.type("go")
    sc.keys("ret")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_shift_held_through_the_keyboard_handoff(machine, tmp_path):
    """ekgdboc=kbd kgdbwait: Shift pressed in the early debugger and held
    (no release) while `go` runs the handoff is still down in the
    interrupt-driven driver that takes the keyboard over: letters typed at
    the next stop are capitals, and the driver reports shift 1 until the
    release comes (issue 19, planted bug 4: the late keyboard dropped the
    handed-over Shift state, so the same keys typed "kbd")."""
    m = machine(cmdline=f"{SERIAL} earlyprintk=vga ekgdboc=kbd kgdbwait")
    sc = Screen(m, tmp_path)
    q = m.qmp()
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    sc.cmd("bp kthreads_start", "bp")               # runs right after the keyboard driver
    sc.type("go")
    key_event(q, "shift", True)                     # down, and no up until after the handoff
    sc.keys("ret")                                  # Shift+Enter is Enter
    m.wait_for(r"kgdb: Registered I/O driver kgdboc \(kbd\)|kbd -> kbd", timeout=BOOT_TIMEOUT,
               fail_on=BAD)
    s = sc.wait("after-handoff", lambda s: s.width == 1024 and at_prompt(s)
                and s.find("Instruction(i) breakpoint #0 at") is not None, timeout=120)
    assert re.search(KBD_UP + r", kgdboc kbd", m.output(0)), m.output(0)
    sc.keys("k", "b", "d")                          # Shift still held
    s = sc.wait("shift", lambda s: last_line(s).rstrip().endswith("kdb> KBD"))
    key_event(q, "shift", False)
    sc.keys("backspace", "backspace", "backspace")
    s, out = sc.cmd("kbd", "kbd-cmd")
    assert re.search(r"shift 0 ctrl 0 alt 0 caps 0", out[0]), out     # the release seen too
    sc.type("go")
    sc.keys("ret")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_kgdboc_kbd_without_a_keyboard_controller(machine):
    m = machine(cmdline=f"{SERIAL} kgdboc=kbd", extra=("-machine", "i8042=off"))
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    assert "kbd: kgdboc=kbd: no PS/2 keyboard controller (port 0x64 reads 0xff): " \
           "USB keyboards only" in m.output(0), m.output(0)
    # no xHCI controller either: the USB keyboard driver says there is no keyboard at all
    assert "kbd: the debugger's kbd: no keyboard: no PS/2 keyboard controller (port 0x64 " \
           "reads 0xff) and no USB keyboard\n" in m.output(0).replace("\r", ""), m.output(0)


def test_kgdboc_kms_without_std_vga(machine):
    m = machine(cmdline=f"{SERIAL} kgdboc=kms,kbd", no_gop=True)
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    out = m.output(0)
    assert "kms: kgdboc=kms: no std VGA (PCI 1234:1111) on this machine: the debugger has " \
           "no kms screen" in out, out
    assert re.search(KBD_UP + r", kgdboc kbd", out), out
