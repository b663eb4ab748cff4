# SPDX-License-Identifier: GPL-2.0
"""The kms display driver (kernel-glue/drivers/bochs_kms.c) and the screen's
late life (docs/console.md): QEMU's std VGA taken over after the
debugger's handoff, its own mode, the console moved onto it with the early
screen's text kept, the debugger shown on it (kms_debug.c).  Keys through
QMP, screens read back from screendumps (screen.py); PNGs of the key
moments are left in the test's tmp dir (kdbscreen-*.png)."""

import re

from kdb_session import BAD, BOOT_COMPLETE
from qemu import BOOT_TIMEOUT
from screen import wait_screen
from test_kdb_screen import Screen, at_prompt, last_line

SERIAL = "earlyprintk=serial,ttyS0,115200"
KMS_UP = r"kms: bochs-drm .*: (\d+)x(\d+)x32 at 0x[0-9a-f]+, debugger page at line \d+"


def test_console_moved_with_its_text(machine, tmp_path):
    """The boot log drawn on the GOP framebuffer (1280x800, 160x50 cells) is
    on the kms screen (1024x768, 128x48) after the switch, in order."""
    # kconsole=off: no shell prompt scrolling the screen while it is read
    m = machine(cmdline=f"{SERIAL} earlyprintk=vga kconsole=off")
    m.wait_for(KMS_UP, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"kconsole: off", timeout=BOOT_TIMEOUT, fail_on=BAD)     # the last line
    out = m.output(0)
    assert re.search(r"kms: console moved to 1024x768: 128 cells x 48 rows, \d+ rows of "
                     r"the early screen kept", out), out
    s = wait_screen(m.qmp(), tmp_path / "kms-boot", lambda s: s.find("kconsole: off"))
    assert (s.width, s.height, s.cols, s.rows) == (1024, 768, 128, 48)
    rows = [r for r in s.text().splitlines()]
    log = [ln.rstrip("\r") for ln in out.split("\n")]
    # lines printed before the switch (only the early console drew them) ...
    early = s.find("framebuffer: 1280x800 BGRX8")
    assert early is not None, s.text()
    # ... and after it, below them, in the serial log's order
    assert s.find("kms: bochs-drm")[0] > early[0]
    assert s.find("boot complete:")[0] > s.find("kms: bochs-drm")[0]
    i = log.index(rows[0])
    assert log[i:i + len(rows) - 1] == rows[:-1], s.text()


def test_video_mode(machine, tmp_path):
    m = machine(cmdline=f"{SERIAL} video=800x600")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    assert re.search(KMS_UP, m.output(0)).groups() == ("800", "600")
    s = wait_screen(m.qmp(), tmp_path / "kms-800", lambda s: s.find("boot complete:"))
    assert (s.width, s.height, s.cols, s.rows) == (800, 600, 100, 37)
    # no early screen console: the kms console replays the log
    assert s.find("boot complete:") and s.find("kms: bochs-drm")


def test_video_nonsense(machine, tmp_path):
    """Bad video= values: a clear message, the default mode, the boot goes on."""
    m = machine(cmdline=f"{SERIAL} video=banana video=1023x768 video=99999x5")
    # only the last video= counts (cmdline_get): a range error
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    out = m.output(0)
    assert re.search(r"kms: video=99999x5: unsupported \(320x200\.\.2560x1600, width a "
                     r"multiple of 8, 32 bpp\); using 1024x768", out), out
    assert re.search(KMS_UP, out).groups() == ("1024", "768")
    for bad, why in (("banana", "not a mode"), ("1024x768-16", "unsupported"),
                     ("4000x4000", "unsupported")):
        m2 = machine(cmdline=f"{SERIAL} video={bad}")
        m2.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
        o2 = m2.output(0)
        assert re.search(rf"kms: video={re.escape(bad)}: {why}.*; using 1024x768", o2), o2
        assert re.search(KMS_UP, o2).groups() == ("1024", "768")
        m2.kill()


def test_nomodeset_and_no_std_vga(machine):
    m = machine(cmdline=f"{SERIAL} earlyprintk=vga nomodeset")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    assert "kms: nomodeset: the firmware's framebuffer stays" in m.output(0)
    assert "kms: bochs-drm" not in m.output(0)


def test_early_screen_session_handed_over(machine, tmp_path):
    """earlyprintk=vga ekgdboc=kbd kgdbwait: kdb on the GOP framebuffer, `bp
    sched_init`, caps lock on, `go`; the kms driver takes the screen at the
    handoff and the breakpoint fires on the new screen, with the text typed
    before the switch still on it and caps lock still on."""
    m = machine(cmdline=f"{SERIAL} earlyprintk=vga ekgdboc=kbd kgdbwait")
    sc = Screen(m, tmp_path)
    s = sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    assert (s.width, s.height) == (1280, 800)
    s, out = sc.cmd("bp sched_init", "bp")
    assert any("sched_init" in ln for ln in out), out
    sc.keys("caps_lock")
    sc.keys("shift-g", "shift-o", "ret")        # "go" with caps lock on
    s = sc.wait("after-handoff", lambda s: s.width == 1024 and at_prompt(s), timeout=120)
    assert (s.width, s.height, s.cols, s.rows) == (1024, 768, 128, 48)
    assert s.find("kdb> bp sched_init") is not None, s.text()   # from the GOP screen
    assert s.find("kdb> go") is not None, s.text()
    # the breakpoint planted on the GOP screen fired on the kms one
    assert re.search(r"Instruction\(i\) breakpoint #0 at 0x[0-9a-f]+", s.text()), s.text()
    assert s.find("due to Breakpoint @ 0x") is not None, s.text()
    assert m.wait_for(KMS_UP, timeout=5)
    # caps lock is still on: typed lower case comes out upper case
    sc.type("md")
    s = sc.wait("caps", lambda s: last_line(s).rstrip().endswith("kdb> MD"))
    sc.keys("backspace", "backspace", "caps_lock")
    s, out = sc.cmd("bl", "bl")
    assert any("sched_init" in ln for ln in out), out
    sc.type("go")
    sc.keys("ret")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    # the kernel's screen (page 0) again, with the log
    s = wait_screen(m.qmp(), tmp_path / "kms-after-go", lambda s: s.find("boot complete:"))
    assert (s.width, s.height) == (1024, 768)


def after_call(func, callee):
    """Link address of the instruction after `call <callee>` in func."""
    import subprocess
    from test_kdb_serial import KERNEL_ELF
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", KERNEL_ELF],
                         capture_output=True, text=True, check=True).stdout
    body = out.split(f"<{func}>:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    for i, ln in enumerate(body):
        if re.search(rf"call\s+\w+ <{callee}>", ln):
            return int(body[i + 1].split(":")[0], 16)
    raise AssertionError(f"no call to {callee} in {func}")


def test_breakpoint_inside_the_modeset(machine, tmp_path):
    """kdb on the screen from inside the kms driver's modeset.  The DISPI
    register writers run in the display hooks too, so they refuse
    breakpoints (issue 19: `bp dispi_save` used to hang every CPU); the
    modeset itself does not: right after it loaded the new mode's registers
    (the frame buffer not cleared yet) kdb is visible (the display hook puts
    the early console's mode up), and `go` lets the modeset finish: the kms
    mode with the boot log."""
    m = machine(cmdline=f"{SERIAL} earlyprintk=vga ekgdboc=kbd kgdbwait")
    sc = Screen(m, tmp_path)
    sc.wait("kgdbwait", at_prompt, timeout=BOOT_TIMEOUT)
    s, out = sc.cmd("bp dispi_write", "bp-refused")
    assert "cannot stop there" in " ".join(out), out
    loaded = after_call("bochs_kms_modeset", "dispi_load") + m.kaslr_offset()
    sc.cmd(f"bp 0x{loaded:x}", "bp")
    sc.type("go")
    sc.keys("ret")
    # the stop: the new mode's registers loaded, the frame buffer not yet
    # cleared; kdb on its screen in the early console's mode
    s = sc.wait("modeset", lambda s: at_prompt(s) and s.text().count("Entering kdb") >= 2,
                timeout=120)
    assert (s.width, s.height) == (1280, 800), (s.width, s.height)
    assert f"due to Breakpoint @ 0x{loaded:x}" in s.text(), s.text()
    s, out = sc.cmd("bt", "bt")
    assert any("bochs_kms_modeset" in ln for ln in out), out
    sc.cmd("bc 0", "bc")
    sc.type("go")
    sc.keys("ret")
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    assert re.search(KMS_UP, m.output(0)).groups() == ("1024", "768")
    s = wait_screen(m.qmp(), tmp_path / "kms-modeset-done",
                    lambda s: s.find("boot complete:") is not None)
    assert (s.width, s.height) == (1024, 768)
