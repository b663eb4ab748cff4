# SPDX-License-Identifier: GPL-2.0
"""ekdb-gdb.py - load ekdb's gdb helpers (lx-dmesg, lx-ps, lx-cpus, lx-lsmod,
$lx_current(), $lx_per_cpu(), ekdb-breakpoints, ekdb-transports, ekdb-early)
into gdb.  Like Linux's vmlinux-gdb.py: kernel.elf names this file's loader
in its .debug_gdb_scripts section (scripts/gdb/gdb_scripts.S), so gdb loads
it by itself once the ELF's directory is in the auto-load safe path:

    add-auto-load-safe-path /path/to/ekdb/build/kernel.elf

`make debug` does that for you; `source scripts/gdb/ekdb-gdb.py` works too.
See docs/gdb-helpers.md."""

import os
import sys

import gdb

_here = os.path.dirname(os.path.abspath(__file__))
if _here not in sys.path:
    sys.path.insert(0, _here)

# Sourced again (a second kernel.elf, or by hand after an edit): reload.
for _name in sorted(n for n in sys.modules if n == "ekdb_gdb" or n.startswith("ekdb_gdb.")):
    del sys.modules[_name]

try:
    import ekdb_gdb  # noqa: F401  (registers the commands and functions)
except Exception as e:      # never leave gdb half set up without a word
    gdb.write(f"ekdb-gdb.py: the gdb helpers could not be loaded: {e}\n", gdb.STDERR)
