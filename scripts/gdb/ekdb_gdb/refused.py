# SPDX-License-Identifier: GPL-2.0
"""A breakpoint the debugger refuses, said when gdb sets it (issue 21).

The stub refuses a breakpoint or watchpoint in the debugger's own code and
data and in the kernel's jump window (core/bp.c, dbg_bp_set), answering
`E.<nn>.<reason>`.  gdb 13 shows that reason for `hbreak`/`watch`, but for
a software breakpoint (`break`, Z0) it prints only "Cannot insert breakpoint
N. Cannot access memory at address ..." on every `continue` until the
breakpoint is deleted.  kdb's `bp` refuses at once with the reason; so do
these helpers: when a breakpoint is created on a live kernel, each location
the stub would refuse is named with the reason, and the breakpoint is
deleted (or, if only some of its locations are refused, those are disabled),
so `continue` goes on.

The ranges are read from the kernel (the debugger's section symbols and
core/bp.c's jump window and released part of the bss), as dbg_addr_is_debugger()
and dbg_addr_in_jump_window() see them; the stub stays the authority."""

import gdb

from ekdb_gdb import utils

DEBUGGER = ("in the debugger's own code or data (or code it runs while the machine "
            "is stopped): the debugger does not break or watch itself")
JUMP_WINDOW = ("in the kernel's jump window (_start to the debugger's takeover, before "
               "any debug vector): a breakpoint there cannot fire")

TYPES = {gdb.BP_BREAKPOINT, gdb.BP_HARDWARE_BREAKPOINT, gdb.BP_WATCHPOINT,
         gdb.BP_HARDWARE_WATCHPOINT, gdb.BP_READ_WATCHPOINT, gdb.BP_ACCESS_WATCHPOINT}


def refused_ranges():
    """[(start, end, reason)], the jump window first (as dbg_bp_set checks)."""
    def v(name):
        return int(utils.var(name, "core/bp.c"))

    out = []
    jw = (v("jump_window_start"), v("jump_window_end"))
    if jw[1] > jw[0]:
        out.append((jw[0], jw[1], JUMP_WINDOW))
    nobp = (v("nobp_start"), v("nobp_end"))
    if nobp[1] > nobp[0]:
        out.append((nobp[0], nobp[1], DEBUGGER))
    for sec in ("text", "data"):
        out.append((utils.addr_of(f"__ekdb_{sec}_start"), utils.addr_of(f"__ekdb_{sec}_end"),
                    DEBUGGER))
    bss = (utils.addr_of("__ekdb_bss_start"), utils.addr_of("__ekdb_bss_end"))
    rel = (v("released_start"), v("released_end"))
    if rel[1] > rel[0]:         # the early storage given back at the handoff
        out += [(bss[0], rel[0], DEBUGGER), (rel[1], bss[1], DEBUGGER)]
    else:
        out.append((bss[0], bss[1], DEBUGGER))
    return out


def refusal(addr, length, ranges):
    for start, end, why in ranges:
        if addr < end and addr + length > start:
            return why
    return None


def _length(bp):
    if bp.type in (gdb.BP_BREAKPOINT, gdb.BP_HARDWARE_BREAKPOINT):
        return 1
    try:
        return max(gdb.parse_and_eval(bp.expression).type.sizeof, 1)
    except gdb.error:
        return 1


def on_created(bp):
    if bp.type not in TYPES or not bp.is_valid():
        return
    if gdb.selected_inferior().pid == 0:
        return                  # no kernel yet: nothing to read, no stub to refuse
    try:
        locs = [loc for loc in bp.locations if loc.address is not None]
        ranges = refused_ranges()
    except (gdb.error, utils.Error, AttributeError, RuntimeError):
        return                  # running, or not ekdb's kernel: the stub still refuses
    length = _length(bp)
    bad = [(loc, refusal(int(loc.address), length, ranges)) for loc in locs]
    bad = [(loc, why) for loc, why in bad if why]
    if not bad:
        return
    for loc, why in bad:
        addr = int(loc.address)
        name = utils.symbolize(addr) or f"0x{addr:x}"
        gdb.write(f"ekdb: breakpoint {bp.number} at 0x{addr:x} ({name}): {why}; the stub "
                  f"refuses it, as kdb's bp does\n", gdb.STDERR)
    if len(bad) == len(locs):
        num = bp.number

        def delete():
            if bp.is_valid():
                bp.delete()
                gdb.write(f"ekdb: breakpoint {num} deleted (`continue` would fail on it)\n",
                          gdb.STDERR)
        gdb.post_event(delete)
    else:
        for loc, _ in bad:
            loc.enabled = False
        gdb.write(f"ekdb: those locations of breakpoint {bp.number} are disabled\n",
                  gdb.STDERR)


# Sourced again (ekdb-gdb.py reloads the package): one handler, the new one.
_old = getattr(gdb, "_ekdb_refused_handler", None)
if _old is not None:
    gdb.events.breakpoint_created.disconnect(_old)
gdb._ekdb_refused_handler = on_created
gdb.events.breakpoint_created.connect(on_created)
