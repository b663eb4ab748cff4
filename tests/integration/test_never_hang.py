# SPDX-License-Identifier: GPL-2.0
"""issue 19, "the machine must never hang because of the debugger": the
session of the issue on 2 CPUs with the kms display hooks
(`kgdboc=kms,ttyS0`).  kdb on ttyS0, Ctrl-C after boot.

- A write watchpoint on the kms hooks' own state (`stats+8`, the leave
  hook's timing, written by kms_debug_leave() on every `go`): the
  breakpoints are armed after the hooks ran, so it never fires inside the
  debugger; `go` and a second Ctrl-C find a working machine with the
  watchpoint still in `bl`, and no re-entry warning.  (Armed before the
  leave hook, it fired inside the debugger: the CPU oopsed holding the
  debugger and the other CPU waited for ever; with re-entry recovery
  alone, it is removed with a warning.)
- `bp dispi_save` (a helper of the leave hook) is refused: the stop path's
  kernel code is __ekdb_nobp (test_stop_path.py checks all of it)."""

import re

from kdb_session import BAD, BOOT_COMPLETE, CTRL_C, ENTRY, PROMPT, Kdb
from qemu import BOOT_TIMEOUT

CMDLINE = ("earlyprintk=serial,ttyS0,115200 earlyprintk=vga ekgdboc=ttyS0 "
           "kgdboc=kms,ttyS0")
REENTRY = r"hit inside the debugger|inside the debugger on CPU|Oops|Kernel panic"
SHELL = r"ekdb:/# "


def go_and_break_in_again(k):
    """go; the console shell answers an Enter (the machine runs), and a
    second Ctrl-C stops it again.  A hang answers neither."""
    k.go(r"go\r?\n", timeout=60)
    k.mark()
    k.enter()
    k.wait(SHELL, timeout=BOOT_TIMEOUT, fail_on=f"{BAD}|{REENTRY}")
    k.mark()
    k.key(CTRL_C)
    k.wait(ENTRY, timeout=BOOT_TIMEOUT, fail_on=f"{BAD}|{REENTRY}")
    k.wait(PROMPT)


def boot_and_break_in(machine):
    m = machine(cmdline=CMDLINE, smp=2, ports=("unix",))
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    m.wait_for(r"kms: bochs-drm .*\(kgdboc kms\)", from_start=True)
    k = Kdb(m)
    k.mark()
    k.key(CTRL_C)
    k.wait(ENTRY, timeout=BOOT_TIMEOUT)
    k.wait(PROMPT)
    return m, k


def test_watchpoint_on_kms_hook_state_survives_go(machine):
    m, k = boot_and_break_in(machine)
    out = k.cmd("bph stats+8 dataw 8")
    assert re.search(r"Data Write BP #(\d+)", out), out
    num = re.search(r"BP #(\d+)", out).group(1)
    # go: the leave hook writes stats.leave_cycles on its way out
    go_and_break_in_again(k)
    bl = k.cmd("bl")
    assert re.search(rf"BP #{num} at 0x[0-9a-f]+ \(stats\+0x8\)", bl), bl
    assert re.search(r"is enabled", bl), bl
    k.cmd(f"bc {num}")
    k.go(r"go\r?\n", timeout=60)
    m.expect_not(REENTRY)


def test_bp_on_kms_leave_helper_refused(machine):
    m, k = boot_and_break_in(machine)
    out = k.cmd("bp dispi_save")
    assert "the debugger cannot stop there" in out, out
    assert "BP #" not in k.cmd("bl")
    go_and_break_in_again(k)
    k.go(r"go\r?\n", timeout=60)
    m.expect_not(REENTRY)
