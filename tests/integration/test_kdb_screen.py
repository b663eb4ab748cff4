# SPDX-License-Identifier: GPL-2.0
"""kdb on the screen, typed on the PS/2 keyboard (issue 5, docs/console.md).

`earlyprintk=vga ekgdboc=kbd kgdbwait`: the boot log and the kdb prompt on
the GOP framebuffer, keys sent through QMP send-key one at a time, the
screen read back with screen.py.  The serial console is on too, only for
the failure reports and to wait for the end of boot.  PNGs of key moments
are left in the test's tmp dir (kdbscreen-*.png); with
EKDB_UPDATE_SCREENSHOTS=1 the first test writes
docs/kdb-framebuffer-kgdbwait.png (kdb at kgdbwait after `bt`).
"""

import os
import re
import shutil
import time

from kdb_session import BAD, BOOT_COMPLETE, ENTRY, PROMPT, Kdb, clean
from qemu import BOOT_TIMEOUT, REPO
from screen import wait_screen

SERIAL = "earlyprintk=serial,ttyS0,115200"
ON_SCREEN = f"{SERIAL} earlyprintk=vga ekgdboc=kbd kgdbwait"
BOTH = f"{SERIAL} earlyprintk=vga ekgdboc=kbd,ttyS0 kgdbwait"
SCREENSHOT = os.path.join(REPO, "docs", "kdb-framebuffer-kgdbwait.png")
KEY_DELAY = 0.05


def last_line(s):
    rows = [r for r in s.text().splitlines() if r.strip()]
    return rows[-1] if rows else ""


def at_prompt(s):
    return re.fullmatch(r"\[\d+\]kdb>", last_line(s).rstrip()) is not None


def rows_after(s, text):
    """The screen rows after the last row containing text."""
    rows = s.text().splitlines()
    idx = [i for i, r in enumerate(rows) if text in r]
    assert idx, f"{text!r} not on the screen:\n{s.text()}"
    return rows[idx[-1] + 1:]


class Screen:
    """Typing on the keyboard, reading the screen."""

    def __init__(self, m, tmp_path, tables=None):
        """tables: the font the screen is read with (screen.py; ekdb's by default)."""
        self.m, self.q, self.dir, self.n = m, m.qmp(), tmp_path, 0
        self.tables = tables

    def keys(self, *names):
        for k in names:
            self.q.send_key(k)
            time.sleep(KEY_DELAY)

    def type(self, text):
        self.q.type_text(text, delay=KEY_DELAY)

    def wait(self, name, pred, timeout=60):
        self.n += 1
        return wait_screen(self.q, self.dir / f"kdbscreen-{self.n:02d}-{name}", pred,
                           timeout=timeout, tables=self.tables)

    def cmd(self, line, name, pred=lambda s: True, timeout=60):
        """Type line + Enter; wait until the echoed line is followed by a
        prompt and pred(screen) holds; return (screen, rows after the line)."""
        self.type(line)
        self.keys("ret")
        want = f"kdb> {line}"
        s = self.wait(name, lambda s: s.find(want) is not None and at_prompt(s)
                      and rows_after(s, want) and pred(s), timeout)
        return s, rows_after(s, want)[:-1]

    def bp_go(self, func, timeout=BOOT_TIMEOUT):
        """bp func, go: the screen of the breakpoint's stop, at the prompt."""
        s, out = self.cmd(f"bp {func}", "bp")
        assert any("BP #0" in ln and func in ln for ln in out), out
        self.type("go")
        self.keys("ret")
        return self.wait("bp-hit", lambda s: at_prompt(s) and
                         s.find("due to Breakpoint @") is not None, timeout=timeout)


def test_kdb_on_the_screen(machine, tmp_path):
    m = machine(cmdline=ON_SCREEN)
    m.wait_for(r"kgdb: Waiting for connection", timeout=BOOT_TIMEOUT, fail_on=BAD)
    sc = Screen(m, tmp_path)
    s = sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    assert s.find("Entering kdb (current=") and s.find("due to Keyboard Entry"), s.text()
    assert s.find("ekdb reference kernel") is not None      # the boot log above it
    assert s.cursor == (len("[0]kdb> "), [i for i, ln in enumerate(s.lines)
                                          if ln.startswith("[0]kdb>")][-1]), s.cursor

    # -- bt: the screenshot of kdb at kgdbwait
    s, out = sc.cmd("bt", "bt")
    assert "Call Trace:" in out and any("kgdb_breakpoint" in ln for ln in out), out
    # Linux 6.x's layout: the task marker and the stopped frame's RIP line
    assert any(ln.strip() == "<TASK>" for ln in out), out
    assert any(re.match(r"RIP: [0-9a-f]{4}:kgdb_breakpoint\+0x1/0x", ln) for ln in out), out
    assert any(re.match(r"CPU: 0 PID: 0 Comm: swapper/0 Not tainted ", ln) for ln in out), out
    assert any("setup_arch" in ln for ln in out) and any("start_kernel" in ln for ln in out)
    if os.environ.get("EKDB_UPDATE_SCREENSHOTS") == "1":
        shutil.copy(sc.dir / f"kdbscreen-{sc.n:02d}-bt.png", SCREENSHOT)

    # -- help through the pager (LINES=24): more>, space for the rest
    sc.type("help")
    sc.keys("ret")
    s = sc.wait("help-more", lambda s: last_line(s).startswith("more>"))
    assert s.find("Display Memory Contents") is not None
    # Linux's table (kill, per_cpu on two lines) may take a third page: a
    # space for each more>, the next page told apart by the screen changing
    for page in range(2, 5):
        prev = s.text()
        sc.keys("spc")
        s = sc.wait(f"help-page{page}", lambda s: s.text() != prev and
                    (last_line(s).startswith("more>") or at_prompt(s)))
        if not last_line(s).startswith("more>"):
            break
    assert at_prompt(s) and s.find("dumpcpu") is not None, s.text()

    # -- md setup_arch
    s, out = sc.cmd("md setup_arch", "md")
    assert len(out) == 8 and all(re.match(r"0xffffffff[0-9a-f]{8} ", ln) for ln in out), out
    addr = out[0].split()[0]

    # -- a mistyped word corrected with Backspace, then with Left + insert
    sc.type("mdd")
    sc.keys("backspace")
    sc.type(" setup_arch 1")
    sc.keys("ret")
    s = sc.wait("backspace", lambda s: s.find("kdb> md setup_arch 1") is not None and at_prompt(s))
    out = rows_after(s, "kdb> md setup_arch 1")
    assert out[0].startswith(addr + " "), out
    sc.type("md setp_arch 2")
    sc.keys(*["left"] * len("p_arch 2"))
    sc.type("u")
    sc.keys("ret")
    s = sc.wait("left-arrow", lambda s: s.find("kdb> md setup_arch 2") is not None and at_prompt(s))
    out = rows_after(s, "kdb> md setup_arch 2")
    assert len(out) == 3 and out[0].startswith(addr + " "), out

    # -- history: Up brings the last line back
    sc.keys("up")
    s = sc.wait("up-arrow", lambda s: last_line(s).rstrip() == "[0]kdb> md setup_arch 2")
    sc.keys("ctrl-u")
    # -- Tab completes a symbol
    sc.type("md acpi_boot_t")
    sc.keys("tab")
    s = sc.wait("tab", lambda s: last_line(s).rstrip() == "[0]kdb> md acpi_boot_table_init")
    sc.type(" 1")
    sc.keys("ret")
    s = sc.wait("tab-done", lambda s: at_prompt(s) and s.find("kdb> md acpi_boot_table_init 1"))
    assert re.match(r"0xffffffff[0-9a-f]{8} ", rows_after(s, "kdb> md acpi_boot_table_init 1")[0])

    # -- long output scrolls (no pager: LINES 100); a dmesg page with the pager
    sc.cmd("set LINES 100", "lines100")
    sc.type("md setup_arch 60")
    sc.keys("ret")
    final = f"0x{int(addr, 16) + 59 * 16:016x} "
    s = sc.wait("scroll", lambda s: at_prompt(s) and s.find(final) is not None, timeout=90)
    assert s.find("kdb> md setup_arch 60") is None             # scrolled off the top
    rows = [r for r in s.text().splitlines() if r.strip()]
    assert len(rows) >= s.rows - 1, len(rows)                  # the screen is full
    addrs = [int(r.split()[0], 16) for r in rows[:-1]]
    assert all(b - a == 16 for a, b in zip(addrs, addrs[1:])), rows   # rows intact, in order
    sc.cmd("set LINES 6", "lines6")
    sc.type("dmesg")
    sc.keys("ret")
    s = sc.wait("dmesg-more", lambda s: last_line(s).startswith("more>"))
    page = rows_after(s, "kdb> dmesg")
    assert 3 <= len(page) - 1 <= 6 and "ekdb reference kernel" in page[0], page
    sc.keys("q")
    s = sc.wait("dmesg-q", at_prompt)
    assert "Waiting for connection" not in "\n".join(rows_after(s, "kdb> dmesg")), s.text()
    sc.cmd("set LINES 24", "lines24")

    # -- bp on a later setup_arch step, go: the breakpoint's prompt on the screen
    s = sc.bp_go("acpi_boot_table_init")
    assert s.find("Instruction(i) breakpoint #0 at") is not None, s.text()
    assert "Entering kdb" not in m.output(0)              # kdb is on the screen only
    s, out = sc.cmd("bt", "bp-bt")
    assert any("acpi_boot_table_init+0x0" in ln for ln in out), out

    # -- go to the end of boot
    sc.type("go")
    sc.keys("ret")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    sc.wait("boot-complete", lambda s: s.find("boot complete:") is not None)


def test_kdb_on_screen_and_serial_at_once(machine, tmp_path):
    """ekgdboc=kbd,ttyS0: one session on both; a command typed on the
    serial line shows on the screen too, one typed on the keyboard shows
    on the serial line."""
    m = machine(cmdline=BOTH)
    m.wait_for(ENTRY, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(PROMPT, timeout=BOOT_TIMEOUT, fail_on=BAD)
    sc = Screen(m, tmp_path)
    sc.wait("both-kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    k = Kdb(m)
    ps = k.cmd("ps")
    assert "*swapper/0" in ps
    s = sc.wait("both-serial-ps", lambda s: s.find("kdb> ps") is not None and at_prompt(s))
    assert any("*swapper/0" in r for r in rows_after(s, "kdb> ps")), s.text()

    start = k.mark()
    sc.type("summary")
    sc.keys("ret")
    k.wait(r"load avg   \d+\.\d\d \d+\.\d\d \d+\.\d\d")
    k.wait(PROMPT)
    serial = clean(k.since(start))
    assert "summary" in serial and re.search(r"^sysname\s+ekdb$", serial, re.M), serial
    assert re.search(r"^date       20\d\d-\d\d-\d\d \d\d:\d\d:\d\d tz_minuteswest 0$", serial, re.M), serial
    s = sc.wait("both-kbd-summary", lambda s: s.find("kdb> summary") is not None and at_prompt(s))
    assert any(re.match(r"sysname\s+ekdb", r) for r in rows_after(s, "kdb> summary")), s.text()

    # go typed on the serial line resumes both
    k.go(BOOT_COMPLETE)
    sc.wait("both-boot-complete", lambda s: s.find("boot complete:") is not None)
