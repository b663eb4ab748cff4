# SPDX-License-Identifier: GPL-2.0
"""lx-lsmod: the reference kernel's modules.  It loads none: its "modules"
are the built-in subsystems kdb's lsmod lists (kernel-glue/debug_glue.c's
subsystems[]: name and entry point; the size is the entry function's)."""

import gdb

from ekdb_gdb import utils


def module_list():
    """(name, entry address, size) of each built-in subsystem."""
    table = utils.var("subsystems", "kernel-glue/debug_glue.c")
    n = table.type.sizeof // table.type.target().sizeof
    for i in range(n):
        e = utils.load(table[i], "subsystems[]")
        addr = int(e["entry"])
        sym, block = utils.function_of(addr)
        size = block.end - block.start if block is not None else 0
        try:
            name = e["name"].string()
        except gdb.MemoryError:
            name = "?"
        yield name, addr, size


class LxLsmod(gdb.Command):
    """List the kernel's modules (built-in subsystems: kdb's lsmod rows).

Usage: lx-lsmod
Columns as Linux's lx-lsmod: address (the entry function), name, size
(the entry function's, from DWARF), users (always 0: nothing unloads)."""

    def __init__(self):
        super().__init__("lx-lsmod", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        utils.no_args("lx-lsmod", arg)
        utils.need_target("lx-lsmod")
        gdb.write("Address            Module                  Size  Used by\n")
        for name, addr, size in module_list():
            gdb.write(f"0x{addr:016x} {name:<19} {size:>8}  0\n")


LxLsmod()
