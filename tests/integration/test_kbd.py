# SPDX-License-Identifier: GPL-2.0
"""The PS/2 keyboard, polled (io/kbd), typed on through QMP send-key.

Until kdb is wired to ekgdboc=kbd, the kernel's test_kbd=SECONDS self-test
(kernel-glue/kbdtest.c) runs a small line editor on the keyboard transport
and echoes on the screen: each byte received is reported raw on ttyS0
("kbdtest: key 0x.."), the finished line in the log ("kbdtest: line '...'").
Screens are saved as PNG in the test's tmp dir (kbd-*.png); with
EKDB_UPDATE_DOCS=1 the typing test also refreshes docs/console-kbdtest.png."""

import os
import re
import shutil
import time

from qemu import BOOT_TIMEOUT, REPO
from screen import grab, wait_screen

SERIAL = "earlyprintk=serial,ttyS0,115200"
BAD = r"Oops|Kernel panic|ekdb loader: error"
DONE = r"boot complete: \d+ CPUs online"


def start_kbdtest(machine, extra="", seconds=120):
    m = machine(cmdline=f"{SERIAL} earlyprintk=vga test_kbd={seconds} {extra}".strip())
    m.wait_for(r"kbdtest: ready", timeout=BOOT_TIMEOUT, fail_on=BAD)
    return m, m.qmp()


def keys_seen(m):
    return [int(x, 16) for x in re.findall(r"kbdtest: key 0x([0-9a-f]{2})", m.output(0))]


def wait_keys(m, n, timeout=30):
    deadline = time.monotonic() + timeout
    while len(keys_seen(m)) < n and time.monotonic() < deadline:
        time.sleep(0.1)
    return keys_seen(m)


def test_typing_reaches_kernel_and_screen(machine, tmp_path):
    m, q = start_kbdtest(machine)
    q.type_text("echo Hello, World! 42")
    s = wait_screen(q, tmp_path / "kbd-typed",
                    lambda s: s.find("kbdtest> echo Hello, World! 42") is not None)
    r, c = s.find("kbdtest> ")
    assert s.cursor == (c + len("kbdtest> echo Hello, World! 42"), r)
    if os.environ.get("EKDB_UPDATE_DOCS") == "1":
        shutil.copy(tmp_path / "kbd-typed.png", os.path.join(REPO, "docs", "console-kbdtest.png"))
    q.send_key("ret")
    m.wait_for(r"kbdtest: line 'echo Hello, World! 42'", timeout=30, fail_on=BAD)
    m.wait_for(DONE, timeout=60, fail_on=BAD)
    # the raw bytes: ASCII, Enter as '\r', and nothing for the releases
    assert keys_seen(m) == [ord(ch) for ch in "echo Hello, World! 42"] + [0x0d]


def test_editing_keys_backspace_arrows_home_end_delete(machine, tmp_path):
    m, q = start_kbdtest(machine)
    q.type_text("mdd setup_arch")
    for _ in range(len(" setup_arch")):
        q.send_key("left")
    q.send_key("backspace")                      # "md setup_arch"
    q.send_key("end")
    q.type_text("+8")
    q.send_key("home")
    q.send_key("delete")
    q.type_text("M")                             # "Md setup_arch+8"
    q.send_key("right")
    q.send_key("backspace")
    q.type_text("d")
    grab(q, tmp_path / "kbd-edited")
    q.send_key("ret")
    m.wait_for(r"kbdtest: line 'Md setup_arch\+8'", timeout=30, fail_on=BAD)
    seen = bytes(keys_seen(m))
    assert b"\x1b[D" in seen and b"\x1b[1~" in seen and b"\x1b[4~" in seen
    assert b"\x1b[3~" in seen and b"\x1b[C" in seen and b"\x08" in seen
    # the screen may lag the serial line (one grab caught the line half drawn)
    wait_screen(q, tmp_path / "kbd-edited-done",
                lambda s: s.find("kbdtest> Md setup_arch+8") is not None, timeout=30)


def test_up_down_arrows_and_keypad_enter(machine):
    m, q = start_kbdtest(machine)
    q.send_key("up")
    q.send_key("down")
    q.type_text("x")
    q.send_key("kp_enter")
    m.wait_for(r"kbdtest: line 'x'", timeout=30, fail_on=BAD)
    assert bytes(keys_seen(m)) == b"\x1b[A\x1b[Bx\r"


def test_shift_caps_lock_ctrl_c(machine, tmp_path):
    m, q = start_kbdtest(machine)
    q.send_key("caps_lock")
    q.type_text("abc1")                          # caps: ABC1
    q.send_key(["shift", "a"])                   # shift undoes caps on letters: a
    q.send_key("caps_lock")
    q.type_text("d")
    q.send_key(["shift_r", "e"])                 # the right shift: E
    q.send_key(["shift_r", "1"])                 # !
    q.send_key(["shift", "slash"])               # ?
    wait_keys(m, 9)
    q.send_key(["ctrl", "c"])
    m.wait_for(r"kbdtest: interrupted 'ABC1adE!\?'", timeout=30, fail_on=BAD)
    assert keys_seen(m)[-1] == 0x03
    wait_screen(q, tmp_path / "kbd-ctrlc",
                lambda s: s.find("kbdtest> ABC1adE!?^C") is not None, timeout=30)


def test_tab_and_escape_bytes(machine):
    m, q = start_kbdtest(machine)
    q.send_key("tab")
    q.send_key("esc")
    q.send_key("x")                              # ESC x: dropped as a broken sequence
    q.type_text("ok")
    q.send_key("ret")
    m.wait_for(r"kbdtest: line 'ok'", timeout=30, fail_on=BAD)
    assert keys_seen(m)[:3] == [0x09, 0x1b, ord("x")]


def test_mouse_movement_is_ignored(machine):
    """QMP input-send-event moves the PS/2 mouse: its bytes (AUXDATA) must
    not turn into keys.  QEMU's mouse sends nothing until a driver enables
    it, so test_kbd_mouse makes the kernel do what a mouse driver does
    (aux port on, data reporting on) first; the mouse's own ACK (0xfa, an
    AUXDATA byte) is proof.  With the AUXDATA filter in kbd_feed() removed,
    the packets (0x09 0x05 0xfb ... = keys '8', '4', ...) become keys here."""
    m, q = start_kbdtest(machine, extra="test_kbd_mouse")
    m.wait_for(r"kbdtest: mouse on \(ack 0xfa\)", from_start=True, timeout=5, fail_on=BAD)
    for dx in (5, -7, 30):
        q.execute("input-send-event", {"events": [
            {"type": "rel", "data": {"axis": "x", "value": dx}},
            {"type": "rel", "data": {"axis": "y", "value": -dx}}]})
        q.execute("input-send-event", {"events": [
            {"type": "btn", "data": {"button": "left", "down": True}}]})
        q.execute("input-send-event", {"events": [
            {"type": "btn", "data": {"button": "left", "down": False}}]})
    q.type_text("k")
    q.send_key("ret")
    m.wait_for(r"kbdtest: line 'k'", timeout=30, fail_on=BAD)
    assert keys_seen(m) == [ord("k"), 0x0d]


def test_ekgdboc_kbd_registers(machine):
    m = machine(cmdline=f"{SERIAL} earlyprintk=vga ekgdboc=kbd")
    m.wait_for(r"kgdb: ekgdboc=kbd: i8042 keyboard \(config 0x[0-9a-f]{2}\), output on the screen",
               timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"kgdb: Registered I/O driver ekgdboc \(kbd\)", timeout=30, fail_on=BAD)
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.expect_not(r"Malformed early option 'ekgdboc")


def test_ekgdboc_kbd_and_serial(machine):
    m = machine(cmdline=f"{SERIAL} earlyprintk=vga ekgdboc=kbd,ttyS1",
                ports=("unix", "socket"))
    m.wait_for(r"kgdb: Registered I/O driver ekgdboc \(kbd,ttyS1\)", timeout=BOOT_TIMEOUT,
               fail_on=BAD)
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_ekgdboc_kbd_bad_option(machine):
    m = machine(cmdline=f"{SERIAL} ekgdboc=kbdx")
    m.wait_for(r"Malformed early option 'ekgdboc=kbdx'", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_ekgdboc_kbd_without_screen(machine):
    """--no-gop: the keyboard transport still comes up (input only) and says so."""
    m = machine(cmdline=f"{SERIAL} ekgdboc=kbd", no_gop=True)
    m.wait_for(r"kgdb: ekgdboc=kbd: no screen to draw on", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"no output side \(no screen\)", timeout=30, fail_on=BAD)
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)
