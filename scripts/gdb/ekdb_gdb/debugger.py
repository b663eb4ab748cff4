# SPDX-License-Identifier: GPL-2.0
"""ekdb's own views, read from the debugger's data in memory (not through
monitor commands): the breakpoint table (core/bp.c), the transports and
the handoff (core/transport.c, core/late/), the early storage (the
__ekdb_early region, early/storage.c and core/bp.c's early_bps)."""

import gdb

from ekdb_gdb import utils

LIFETIMES = {1: "loader", 2: "early", 3: "full"}
BP_TYPES = {"EKDB_BP_SW": "sw", "EKDB_BP_HW": "hw", "EKDB_BP_WRITE": "write",
            "EKDB_BP_READ": "read", "EKDB_BP_ACCESS": "access"}
KINDS = {"EKDB_TRANSPORT_SERIAL": "serial", "EKDB_TRANSPORT_KBD": "kbd+screen",
         "EKDB_TRANSPORT_DBGP": "usb-dbgp"}


def early_region():
    start = utils.addr_of("__ekdb_early_start")
    end = utils.addr_of("__ekdb_early_end")
    return start, end


def late_state():
    return utils.load(utils.var("late"), "the full core's state (late)")


def early_state():
    """(word, sentence) for the early storage's lifetime."""
    late = late_state()
    if not bool(late["early_released"]):
        if bool(late["done"]):
            return "in use", "in use: the handoff ran but kept it (out of memory at the handoff?)"
        return "in use", "in use: the early lifetime (the handoff has not run yet)"
    if bool(late["unmap_early"]):
        return "unmapped", ("released at the handoff: poisoned (0x6b) and unmapped "
                            "(ekdb.debug_early=unmap: any use faults)")
    return "released", "released at the handoff: poisoned (0x6b) and given to the page allocator"


def owners(mask):
    names = [n for bit, n in ((1, "gdb"), (2, "kdb")) if mask & bit]
    return "+".join(names) or "-"


class EkdbBreakpoints(gdb.Command):
    """The debugger's breakpoint table (core/bp.c), shared by gdb and kdb.

Usage: ekdb-breakpoints
One line per entry: number (kdb's bl number), type, address, length,
enabled, hardware slot, owner (gdb, kdb or both), the lifetime it was
planted in (loader: the UEFI loader's debugger, handed over to the kernel;
early: the kernel before the handoff; full: after it) and hits.  While the
machine is stopped no breakpoint is in memory (the debugger takes them out)."""

    def __init__(self):
        super().__init__("ekdb-breakpoints", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        utils.no_args("ekdb-breakpoints", arg)
        utils.need_target("ekdb-breakpoints")
        bps = utils.var("bps", "core/bp.c")
        cap = int(utils.var("bp_cap", "core/bp.c"))
        base = int(bps)
        start, end = early_region()
        early_bps = utils.var("early_bps", "core/bp.c")
        if base == int(early_bps.address):
            where = f"the early storage (early_bps, {early_state()[0]})"
        else:
            where = "memory the full core allocated"
        esize = bps.type.target().sizeof
        raw = utils.read(base, cap * esize, "the breakpoint table")
        ftype = bps.type.target()
        has_planted = any(f.name == "planted" for f in ftype.fields())
        rows = []
        for i in range(cap):
            if not raw[i * esize]:          # .used is the first member
                continue
            b = gdb.Value(raw[i * esize:(i + 1) * esize], ftype)
            btype = BP_TYPES.get(str(b["type"]), str(b["type"]))
            addr = int(b["addr"])
            slot = int(b["slot"])
            life = LIFETIMES.get(int(b["planted"]), "?") if has_planted else "?"
            rows.append(f"{i:>4}  {btype:<6}  0x{addr:016x}  {utils.symbolize(addr) or '-':<28} "
                        f"{int(b['len']):>3}  {'yes' if bool(b['enabled']) else 'no':<7}  "
                        f"{('DR%d' % slot) if slot >= 0 else '-':<4}  "
                        f"{owners(int(b['owner'])):<7}  {life:<7}  {int(b['hits']):>4}")
        gdb.write(f"breakpoint table: {len(rows)} used of {cap} entries at 0x{base:016x}, "
                  f"in {where}\n")
        if not rows:
            gdb.write("no breakpoints\n")
            return
        gdb.write(" Num  Type    Address             Where                        Len  "
                  "Enabled  Slot  Owner    Planted  Hits\n")
        gdb.write("\n".join(rows) + "\n")


def driver_of(t):
    """Where a transport's code lives: the early polled driver (io/)
    or the running kernel's (the function behind its getc)."""
    fn = int(t["getc"])
    sym, _ = utils.function_of(fn) if fn else (None, None)
    if sym is None or sym.symtab is None:
        return "?", utils.symbolize(fn) or "-"
    path = sym.symtab.filename
    life = "early" if path.startswith(("io/", "early/")) else "kernel"
    return life, f"{sym.name} ({path})"


def transports():
    tab = utils.var("transports", "core/transport.c")
    n = tab.type.sizeof // tab.type.target().sizeof
    for i in range(n):
        p = tab[i]
        if int(p):
            yield i, utils.load(p.dereference(), f"transport {i}")


class EkdbTransports(gdb.Command):
    """The debugger's transports (core/transport.c) and the handoff (core/late/).

Usage: ekdb-transports
One line per registered transport: name (what kgdboc= names), kind, irq
(0: polled), whether it is a screen console, and whose driver carries it:
the early polled one (io/) or the running kernel's.  Then the handoff:
whether it ran, the drivers waiting for it, what moved to whom."""

    def __init__(self):
        super().__init__("ekdb-transports", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        utils.no_args("ekdb-transports", arg)
        utils.need_target("ekdb-transports")
        rows = []
        for i, t in transports():
            life, drv = driver_of(t)
            try:
                name = t["name"].string() if int(t["name"]) else "?"
            except gdb.MemoryError:
                name = "?"
            kind = KINDS.get(str(t["kind"]), str(t["kind"]))
            irq = int(t["irq"])
            rows.append(f"{i:>2}  {name:<7} {kind:<11} {irq if irq else 'polled':>6}  "
                        f"{'yes' if bool(t['is_console']) else 'no':<7}  {life:<6}  {drv}")
        gdb.write(f"transports: {len(rows)} registered\n")
        if rows:
            gdb.write(" #  name    kind           irq  console  driver  (getc)\n")
            gdb.write("\n".join(rows) + "\n")
        late = late_state()
        if not bool(late["done"]):
            gdb.write("handoff: not yet (the early debugger runs on static storage)\n")
        elif bool(late["off"]):
            gdb.write("handoff: ran; the debugger is off\n")
        else:
            gdb.write(f"handoff: done; early storage {early_state()[0]}; "
                      f"breakpoint table grown {int(late['bp_tables_grown'])} time(s)\n")
        pending = utils.var("pending", "core/late/takeover.c")
        waiting = []
        for k in range(pending.type.sizeof // pending.type.target().sizeof):
            p = pending[k]
            if int(p):
                waiting.append(utils.load(p.dereference(), "a pending transport")["name"].string())
        if waiting:
            gdb.write(f"drivers waiting for the handoff: {', '.join(waiting)}\n")
        moved = utils.var("moved", "core/late/takeover.c")
        n = int(utils.var("moved_len", "core/late/takeover.c"))
        if n:
            text = utils.read(int(moved.address), n, "the handoff's move list").decode(
                errors="replace")
            gdb.write(f"moved (last takeover): {text}\n")
        elif bool(late["done"]):
            gdb.write("moved: nothing yet (the early transports are still polled)\n")


def region_objects(start, end):
    """(address, name, size) of each symbol in [start, end), from gdb's
    symbols (`info symbol`), sizes from DWARF."""
    out, addr = [], start
    while addr < end:
        try:
            s = gdb.execute(f"info symbol 0x{addr:x}", to_string=True).strip()
        except gdb.error:
            break
        name = s.split(" in section ")[0]
        if " + " in name or s.startswith("No symbol") or name.startswith("__ekdb_early"):
            addr += 8
            continue
        size = 8
        for sym in gdb.lookup_static_symbols(name) + [gdb.lookup_global_symbol(name)]:
            if sym is not None and sym.is_variable and int(sym.value().address) == addr:
                size = sym.type.sizeof
                path = sym.symtab.filename if sym.symtab else "?"
                out.append((addr, name, size, path))
                break
        addr += max(size, 8)
    return out


class EkdbEarly(gdb.Command):
    """The early debugger's storage (kernel.lds: __ekdb_early_start..end).

Usage: ekdb-early
Where it is, its size, whether the handoff released it (poisoned and
given to the page allocator, or unmapped with ekdb.debug_early=unmap),
and the objects in it (the early breakpoint table, the early gdb and kdb
sessions and their buffers)."""

    def __init__(self):
        super().__init__("ekdb-early", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        utils.no_args("ekdb-early", arg)
        utils.need_target("ekdb-early")
        start, end = early_region()
        state, why = early_state()
        gdb.write(f"early storage: 0x{start:016x}-0x{end:016x}, {end - start} bytes "
                  f"({(end - start) // 1024} KiB), section .bss.ekdb_early\n")
        gdb.write(f"state: {why}\n")
        objs = region_objects(start, end)
        if objs:
            gdb.write("objects" + (" (no longer used: their contents are poison)"
                                   if state != "in use" else "") + ":\n")
            for a, name, size, path in objs:
                gdb.write(f"  0x{a:016x}  {name:<24} {size:>6}  {path}\n")


EkdbBreakpoints()
EkdbTransports()
EkdbEarly()
