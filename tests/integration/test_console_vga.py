# SPDX-License-Identifier: GPL-2.0
"""earlyprintk=vga / efi: the boot log on the GOP framebuffer, read back from
QMP screendumps with the console's own font (screen.py).  Screens are saved
as PNG in the test's tmp dir (vga-*.png)."""

import re

import pytest

from qemu import BOOT_TIMEOUT
from screen import grab, wait_screen

SERIAL = "earlyprintk=serial,ttyS0,115200"
BAD = r"Oops|Kernel panic|ekdb loader: error"
DONE = r"boot complete: \d+ CPUs online"


def kernel_lines(m):
    return [l.rstrip("\r") for l in m.output(0).split("\n")]


def screen_block(s):
    """The screen's rows from the first to the last non-blank one."""
    rows = [s.row(r) for r in range(s.rows)]
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    return rows


def assert_block_in(block, lines):
    """block must be a contiguous run of lines (the serial log)."""
    n = len(block)
    assert n > 0
    for i in range(len(lines) - n + 1):
        if lines[i:i + n] == block:
            return i
    raise AssertionError("screen is not a run of the serial log:\n" + "\n".join(block))


@pytest.mark.parametrize("word", ["vga", "efi"])
def test_boot_log_on_screen(machine, tmp_path, word):
    # nomodeset: this is the early console's screen (the kms driver's is test_kms.py);
    # kconsole=off: no shell prompt scrolling the screen while it is read
    m = machine(cmdline=f"{SERIAL} earlyprintk={word} nomodeset kconsole=off")
    m.wait_for(r"earlyprintk: screen console on the (\d+)x(\d+) \w+ framebuffer, "
               r"(\d+)x(\d+) cells", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"kconsole: off", timeout=60, fail_on=BAD)     # the last line printed
    # stable: the same text twice (a grab can catch the last scroll half done:
    # a row half moved, a line twice; seen once in a clean check)
    s = wait_screen(m.qmp(), tmp_path / f"vga-{word}-boot",
                    lambda s: s.find("kconsole: off") is not None, stable=True)
    assert (s.cols, s.rows) == (160, 50), s.text()
    # the boot log scrolled (it is longer than 50 rows): the screen is its tail
    block = screen_block(s)
    assert len(block) >= s.rows - 2
    assert_block_in(block, kernel_lines(m))
    # the cursor is drawn at the start of the row after the last line
    last = max(r for r in range(s.rows) if s.row(r))
    assert s.cursor == (0, last + 1), (s.cursor, last)


def test_command_line_visible_before_scrolling(machine, tmp_path):
    """A short log (loglevel=6) fits the screen: the first lines are still there."""
    m = machine(cmdline=f"{SERIAL} earlyprintk=vga loglevel=6")
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    s = wait_screen(m.qmp(), tmp_path / "vga-short",
                    lambda s: s.find("boot complete:") is not None)
    r, c = s.find("Command line: ")
    assert c == 0
    assert s.row(r) == f"Command line: {SERIAL} earlyprintk=vga loglevel=6"
    assert s.row(0).startswith("ekdb reference kernel")
    assert s.find("boot complete:")[0] > r


def test_screen_only_console(machine, tmp_path):
    """earlyprintk=vga alone: no serial console, the screen has the log."""
    m = machine(cmdline="earlyprintk=vga")
    s = wait_screen(m.qmp(), tmp_path / "vga-only",
                    lambda s: s.find("boot complete:") is not None, timeout=BOOT_TIMEOUT)
    assert s.find("boot complete: 1 CPUs online") is not None, s.text()
    assert "Command line:" not in m.output(0)   # the serial line only had the firmware


def test_backspace_cr_tab_rendering(machine, tmp_path):
    """test_kbd draws "xxxxxxxxxxxxx\\rbs-test: abcd\\b\\bXY" and "tab:\\tT|" on
    the screen; then times out after 1 s with no key typed."""
    m = machine(cmdline=f"{SERIAL} earlyprintk=vga test_kbd=1 nomodeset")
    m.wait_for(r"kbdtest: ready", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"kbdtest: done", timeout=60, fail_on=BAD)
    m.wait_for(DONE, timeout=60, fail_on=BAD)
    s = grab(m.qmp(), tmp_path / "vga-bs")
    r, c = s.find("bs-test:")
    assert c == 0 and s.row(r) == "bs-test: abXY", s.text()
    r, c = s.find("tab:")
    assert s.row(r) == "tab:    T|", s.text()
    assert s.lines[r][8] == "T"
    # the grid agreed (logged by the kernel from its own cell grid)
    assert "kbdtest: grid 'bs-test: abXY'" in m.output(0)


def test_long_output_scrolls(machine, tmp_path):
    """fbbench writes 16 KiB of 79-char lines straight to the screen and then
    full-width rows, each the alphabet shifted by one from the row above:
    after all the scrolling they must still form that chain, and the log
    lines printed after them sit right below, in serial order."""
    # kconsole=off: no shell prompt racing the screendump
    m = machine(cmdline=f"{SERIAL} earlyprintk=vga test_fbbench=16 nomodeset kconsole=off")
    m.wait_for(r"fbbench: (\d+) chars/s, scroll (\d+) us", timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"kconsole: off", timeout=60, fail_on=BAD)     # the last line printed
    s = wait_screen(m.qmp(), tmp_path / "vga-scroll",
                    lambda s: s.find("kconsole: off") is not None, stable=True)
    def alphabet(k):
        return "".join(chr(ord("A") + (i + k) % 26) for i in range(s.cols))
    rows = [s.row(r) for r in range(s.rows)]
    # the bench's full-width rows: each the alphabet from the letter after
    # the row above's (a torn or repeated row breaks the chain)
    n_full = 0
    while n_full < len(rows) and len(rows[n_full]) == s.cols:
        n_full += 1
    assert n_full > 0, s.text()
    k0 = ord(rows[0][0]) - ord("A")
    for r in range(n_full):
        assert rows[r] == alphabet(k0 + r), f"row {r}:\n{s.text()}"
    block = rows[n_full:]
    while block and not block[-1]:
        block.pop()
    while block and not block[0]:
        block.pop(0)
    assert_block_in(block, kernel_lines(m))
    assert any(r.startswith("fbbench: ") for r in block), s.text()


def test_no_framebuffer_message_on_serial(machine):
    """--no-gop: no framebuffer handed over; earlyprintk=vga says so on the
    serial console and the boot goes on."""
    m = machine(cmdline=f"{SERIAL} earlyprintk=vga", no_gop=True)
    m.wait_for(r"earlyprintk: vga: the loader handed over no framebuffer", timeout=BOOT_TIMEOUT,
               fail_on=BAD)
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.expect_not(r"Malformed early option 'earlyprintk")


def test_vga_before_serial_replays(machine):
    """earlyprintk=vga first on a machine without a screen, serial second:
    the serial console's replay carries the message."""
    m = machine(cmdline=f"earlyprintk=vga {SERIAL}", no_gop=True)
    m.wait_for(r"earlyprintk: vga: the loader handed over no framebuffer", timeout=BOOT_TIMEOUT,
               fail_on=BAD)
    m.wait_for(DONE, timeout=BOOT_TIMEOUT, fail_on=BAD)


def test_fbbench_report_format(machine):
    m = machine(cmdline=f"{SERIAL} test_fbbench=8")
    m.wait_for(r"fbbench: screen \d+x\d+ \w+, \d+x\d+ cells", timeout=BOOT_TIMEOUT, fail_on=BAD)
    r = m.wait_for(r"fbbench: (\d+) chars/s, scroll (\d+) us", timeout=60, fail_on=BAD)
    assert int(r.group(1)) > 0
    assert re.search(r"fbbench: kdb-style \d+ chars in \d+ us: \d+ chars/s", m.output(0))
