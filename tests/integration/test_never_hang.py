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


# issue 33: a watchpoint hit by a driver op in the tick's break-in poll
POLL_RECOVERED = (r"ekdb: write watchpoint #\d+ at 0x[0-9a-f]+ \(ld\+0x[0-9a-f]+/0x[0-9a-f]+, 8 bytes\) hit "
                  r"inside the debugger by dbgp_chan_getc\+0x[0-9a-f]+/0x[0-9a-f]+: removed")


def test_watchpoint_hit_in_poll_recovered(machine):
    """The USB debug port with kgdbdbgp=0,1: the running kernel's tick
    polls the port every second (the late driver's ops: dbgp_chan_getc).
    A write watchpoint on the poll's own state (ld.chan.poll_at, which
    every poll writes) fires inside that poll, a hardware trap in code the
    debugger runs while the kernel runs: it is removed with a warning
    naming it and the poll goes on; no stop is reported in the middle of
    the port's transaction (it used to be, on a line whose driver was
    half-way through a transaction: the issue's hang).  Ctrl-C on the port
    then stops the machine and the session works."""
    from gdb_boot import WAITING
    from gdbdriver import gdb_batch
    from rsp import Rsp, frame
    from test_stop_path import KERNEL_ELF, moved, symbols

    out = gdb_batch(KERNEL_ELF, ["p/x &'ehci_dbgp.c'::ld.chan.poll_at"])
    poll_at = int(re.search(r"= (0x[0-9a-f]+)", out).group(1), 16)
    addr, funcs = symbols()
    m = machine(cmdline="earlyprintk=serial,ttyS0,115200 kgdbdbgp=0,1 kgdbwait", smp=2,
                ports=("unix",), dbgp=True)
    m.wait_for(WAITING, timeout=BOOT_TIMEOUT)
    addr, _ = moved(m, addr, funcs)
    poll_at += m.kaslr_offset()
    r = Rsp(m.dbgp_path)
    r.send_raw(b"+")
    assert "PacketSize" in r.ask("qSupported:swbreak+;hwbreak+")
    r.send_raw(frame("c"))
    m.wait_for(BOOT_COMPLETE, timeout=BOOT_TIMEOUT, fail_on=BAD)
    r.send_raw(b"\x03")
    stop, _ = r.read_reply(timeout=240)
    assert stop.startswith("T02"), stop
    assert r.ask(f"Z2,{poll_at:x},8") == "OK"
    r.send_raw(frame("c"))
    m.wait_for(POLL_RECOVERED, timeout=BOOT_TIMEOUT, fail_on=f"{BAD}|cannot recover")
    # the machine runs on and the port still serves: Ctrl-C stops it
    r.send_raw(b"\x03")
    stop, _ = r.read_reply(timeout=240)
    assert stop.startswith("T02"), f"a stop in the poll was reported: {stop}"
    assert r.u64(addr["jiffies"]) > 0
    assert r.ask("D") == "OK"
    m.expect_not(r"Oops|Kernel panic|inside the debugger on CPU")
