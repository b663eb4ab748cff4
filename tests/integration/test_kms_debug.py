# SPDX-License-Identifier: GPL-2.0
"""The debugger on a screen the kms driver owns (kernel-glue/drivers/
kms_debug.c): while test_fbdraw's thread draws a moving pattern on the
kernel's page, Alt+SysRq+g shows kdb (on the debugger's page) and `go`
gives the screen back exactly.  Keys through QMP; screens from
screendumps (screen.py, qmp.read_ppm)."""

import os
import re
import shutil
import time

import pytest

from kdb_session import BAD, Kdb
from qemu import BOOT_TIMEOUT, REPO, SCALE
from qmp import read_ppm
from test_kdb_screen import Screen, at_prompt

SERIAL = "earlyprintk=serial,ttyS0,115200"
SHELL = r"ekdb:/# "
FBDRAW_UP = r"fbdraw: drawing on the kms screen, a frame every (\d+) ms"
SCREENSHOT = os.path.join(REPO, "docs", "kdb-kms-sysrq.png")
COLORS = [0x800000, 0x008000, 0x000080, 0x808000, 0x800080, 0x008080, 0xc06000, 0x404040]


def dump(qmp, base):
    qmp.screendump(str(base) + ".ppm")
    return read_ppm(str(base) + ".ppm")


def rgb(c):
    return bytes(((c >> 16) & 255, (c >> 8) & 255, c & 255))


def frame_of(img):
    """The frame number fbdraw wrote into the top row (bit i: block at x=16i)."""
    w, h, data = img
    n = 0
    for bit in range(32):
        off = (8 * w + 16 * bit + 8) * 3
        if data[off:off + 3] == b"\xff\xff\xff":
            n |= 1 << bit
    return n


def render(n, w=1024, h=768):
    """fbdraw.c's frame n, as the screendump's RGB bytes."""
    rows = []
    top = b"".join(rgb(0xffffff if (x // 16 < 32 and (n >> (x // 16)) & 1) else
                       (0x000040 if x // 16 < 32 else 0)) for x in range(w))
    rows += [top] * 16
    pal = [rgb(c) for c in COLORS]
    for y in range(16, h):
        rows.append(b"".join(pal[((x + y + 8 * n) // 32) % 8] for x in range(w)))
    return b"".join(rows)


def stable_dump(qmp, base):
    """Two screendumps in a row that agree: not torn by a frame being drawn."""
    prev = dump(qmp, f"{base}-a")
    for i in range(20):
        cur = dump(qmp, f"{base}-{i}")
        if cur == prev:
            return cur
        prev = cur
    raise AssertionError("the screen never stood still between two screendumps")


def wait_new_frame(qmp, tmp_path, timeout=60):
    """Wait until fbdraw draws a frame (a clean frame whose number differs
    from the first clean one seen): the event, not a guess of its time."""
    deadline = time.monotonic() + timeout * SCALE
    first = None
    i = 0
    while time.monotonic() < deadline:
        img = dump(qmp, tmp_path / f"wait-{i}")
        i += 1
        n = frame_of(img)
        if img[2] == render(n):
            if first is None:
                first = n
            elif n != first:
                return n
    raise AssertionError(f"fbdraw drew no new frame within {timeout} s (first clean frame: {first})")


@pytest.mark.parametrize("when", ["boot", "run-time"])
def test_sysrq_g_over_the_pattern_and_back(machine, tmp_path, when):
    """kgdboc=kms,kbd at boot, or written at run time on the serial shell
    (echo kms,kbd > /sys/module/kgdboc/parameters/kgdboc, issue 21): the
    same.  fbdraw owns page 0, so kdb is visible only on its own page, and
    after `go` the pattern is back with no kdb text on it."""
    kgdboc = "kgdboc=kms,kbd " if when == "boot" else ""
    m = machine(cmdline=f"{SERIAL} {kgdboc}test_fbdraw=1000", ports=("unix",))
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(FBDRAW_UP, timeout=30, fail_on=BAD, from_start=True)
    if when == "run-time":
        k = Kdb(m)
        k.mark()
        k.type("echo kms,kbd > /sys/module/kgdboc/parameters/kgdboc")
        k.enter()
        k.wait(r"kgdb: Registered I/O driver kgdboc \(kms,kbd\)", fail_on=BAD + "|write error")
    q = m.qmp()
    wait_new_frame(q, tmp_path)
    # Just after fbdraw drew a frame (it sleeps 1 s between frames) the
    # machine stands still (QMP stop) while the screen is taken, then
    # Alt+SysRq+g follows at once: the screen at the debugger's entry is
    # almost always this one.
    q.execute("stop")
    before = stable_dump(q, tmp_path / "before")
    q.execute("cont")
    sc = Screen(m, tmp_path)
    sc.keys("alt-sysrq-g")
    n0 = frame_of(before)
    assert before[2] == render(n0), "the pattern on the screen is not fbdraw's frame"
    s = sc.wait("kdb", at_prompt, timeout=60)
    assert (s.width, s.height) == (1024, 768)
    assert s.find("due to Keyboard Entry") is not None, s.text()
    assert s.find("fbdraw: drawing on the kms screen") is not None   # the console's log
    if os.environ.get("EKDB_UPDATE_SCREENSHOTS") == "1" and when == "boot":
        shutil.copy(sc.dir / f"kdbscreen-{sc.n:02d}-kdb.png", SCREENSHOT)
    sc.type("go")
    sc.keys("ret")
    # until the debugger's page is gone (it never decodes as a clean frame)
    deadline = time.monotonic() + 60 * SCALE
    while True:
        after = dump(q, tmp_path / "after")
        n1 = frame_of(after)
        if after[2] == render(n1):
            break
        if time.monotonic() > deadline:       # fail loudly, never go on with a kdb page
            raise AssertionError("60 s after go the screen is still not a clean fbdraw "
                                 "frame: the debugger's page was not given back")
        time.sleep(0.2)
    # Page 0 was never touched while kdb showed: the screen after leave is
    # the one before entry, unless fbdraw drew its next frame after `go`
    # (then it is exactly that frame: no kdb text left behind).
    if n1 == n0:
        assert after == before, "the screen after go differs from the one before entry"
        outcome = "identical"
    else:
        assert n1 > n0, (n0, n1)
        assert after[2] == render(n1), "the screen after go is not a clean pattern frame"
        outcome = "next frame"
    print(f"after leave: {outcome} (frames {n0} -> {n1})")
    assert "Oops" not in m.output(0)


def test_kgdboc_kms_kbd_serial(machine, tmp_path):
    """kgdboc=kms,kbd,ttyS0: kdb on the screen and on the serial line at
    once; `kms` reports the hooks' timings (make bench reads the same)."""
    m = machine(cmdline=f"{SERIAL} kgdboc=kms,kbd,ttyS0 test_fbdraw=200")
    m.wait_for(SHELL, timeout=BOOT_TIMEOUT, fail_on=BAD)
    out = m.output(0)
    assert re.search(r"kms: bochs-drm .*\(kgdboc kms\)", out), out
    assert re.search(r"kbd: i8042 keyboard \(config 0x[0-9a-f]+\), irq 1, kgdboc kbd", out), out
    sc = Screen(m, tmp_path)
    sc.keys("alt-sysrq-g")
    m.wait_for(r"\[0\]kdb> ", timeout=60)
    sc.wait("kdb", at_prompt, timeout=60)
    sc.type("kms")
    sc.keys("ret")
    sc.wait("kms", lambda s: s.find("kms: 1024x768x32") is not None and at_prompt(s))
    ser = m.wait_for(r"enters (\d+), last enter (\d+) us \(scanout flip\), last leave (\d+) us",
                     timeout=30)
    assert int(ser.group(1)) == 1
    sc.type("go")
    sc.keys("ret")
    m.wait_for(r"kdb> go", timeout=30)
