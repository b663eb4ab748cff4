# SPDX-License-Identifier: GPL-2.0
"""A breakpoint the debugger refuses (its own code and data, the kernel's
jump window), with real gdb 13 (issue 21).  The stub answers Z with
`E.<nn>.<reason>`: gdb shows the reason for `hbreak` ("Remote failure
reply: ..."); for `break` (Z0) gdb 13 prints only "Cannot access memory",
so the gdb helpers name the reason when the breakpoint is set and delete
it, as kdb's `bp` refuses at once.  Either way `continue` goes on once the
breakpoint is gone.  Bad inputs: a software and a hardware breakpoint in
the debugger's code, one in the jump window, a watchpoint on the
debugger's data; good input next to them (mm_init) is not touched."""

import re

from gdb_boot import (boot_to_kgdbwait, cont_expect_error, cont_to_stop, frames,
                      stop_func)
from conftest import KERNEL_ELF

AUTOLOAD = ("-iex", f"add-auto-load-safe-path {KERNEL_ELF}")
OWN = (r"in the debugger's own code or data \(or code it runs while the machine is "
       r"stopped\): the debugger does not break or watch itself")
JUMP = r"in the kernel's jump window \(_start to the debugger's takeover"


def addr(g, expr):
    return int(re.search(r"0x([0-9a-f]+)", g.cmd(f"p/x (unsigned long)&{expr}")).group(1), 16)


def test_refused_breakpoints_say_why_and_continue_goes_on(machine, gdb):
    m = boot_to_kgdbwait(machine)
    g = gdb(args=AUTOLOAD)
    g.cmd("set remote noack-packet off")
    g.connect(m.socket_path(1))

    # -- with the helpers: the reason when the breakpoint is set, and it is gone
    for cli, why, where in (("break gdb_session_run", OWN, "gdb_session_run"),
                            ("hbreak dbg_bp_set", OWN, "dbg_bp_set"),
                            ("break _start", JUMP, "_start"),
                            ("watch roundup_active", OWN, "roundup_active")):
        out = g.cmd(cli)
        assert re.search(rf"ekdb: breakpoint \d+ at 0x[0-9a-f]+ \({where}\): {why}.*; "
                         r"the stub refuses it, as kdb's bp does", out), f"{cli}:\n{out}"
        out = g.cmd("info breakpoints")
        assert "No breakpoints or watchpoints." in out, f"{cli}: not deleted:\n{out}"
    out = g.cmd("break mm_init")                  # ordinary kernel code: not a word
    assert "ekdb:" not in out, out
    st = cont_to_stop(g)
    assert stop_func(st) == "mm_init", st
    g.cmd("delete")

    # -- without the helpers (a plain gdb): the stub's own answer
    g.cmd("python gdb.events.breakpoint_created.disconnect(gdb._ekdb_refused_handler)")
    out = g.cmd(f"maint packet Z0,{addr(g, 'gdb_session_run'):x},1")
    assert re.search(r'received: "E\.01\.' + OWN, out), out
    out = g.cmd(f"maint packet Z1,{addr(g, '_start'):x},1")
    assert re.search(r'received: "E\.c8\.' + JUMP, out), out
    out = g.cmd(f"maint packet Z2,{addr(g, 'roundup_active'):x},4")
    assert re.search(r'received: "E\.01\.' + OWN, out), out
    # hbreak: gdb 13 shows the reason
    g.cmd("hbreak kgdb_breakpoint")
    cont_expect_error(g, r"Cannot insert hardware breakpoint \d+:\s*Remote failure reply: "
                      + OWN)
    g.cmd("delete")
    # break: gdb 13 says only "Cannot access memory"; the kernel stays stopped,
    # the session works, and once deleted `continue` goes on
    g.cmd("break dbg_bp_set")
    cont_expect_error(g, r"Cannot insert breakpoint \d+")
    assert frames(g.cmd("bt"))[0] == "mm_init"
    g.cmd("delete")
    g.cmd("break rest_init")
    st = cont_to_stop(g)
    assert stop_func(st) == "rest_init", st
