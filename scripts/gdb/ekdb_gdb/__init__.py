# SPDX-License-Identifier: GPL-2.0
"""ekdb's gdb helpers: Linux's lx-* commands over the reference kernel's
data structures (kernel-glue/), and ekdb's own views of the debugger.

Everything is read through gdb's symbols (relocated by gdb: KASLR is
followed through qOffsets) and the target's memory, with DWARF types, never
through the debugger's monitor commands: the helpers show what is in
memory, not what the debugger says about itself.  docs/gdb-helpers.md."""

from ekdb_gdb import dmesg, tasks, cpus, modules, debugger, refused  # noqa: F401
