/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gdb_scripts.S - kernel.elf's .debug_gdb_scripts section: gdb loads the
 * gdb helpers (scripts/gdb/ekdb-gdb.py) by itself for anyone who loads
 * build/kernel.elf, as Linux's vmlinux does with vmlinux-gdb.py, once the
 * file is in gdb's auto-load safe path:
 *
 *	add-auto-load-safe-path /path/to/ekdb/build/kernel.elf
 *
 * The entry is an inline Python script (gdb's SECTION_SCRIPT_ID_PYTHON_TEXT,
 * 4: a name line, the script, a NUL) that finds the helpers next to the
 * ELF (kernel.elf in build/, the helpers in ../scripts/gdb/), else in the
 * directory gdb runs in.  Not loaded into memory (no "a" flag); the ESP's
 * copy of the kernel is stripped of it (--strip-debug).
 */
	.pushsection .debug_gdb_scripts, "MS", @progbits, 1
	.byte 4
	.ascii "ekdb-gdb-helpers\n"
	.ascii "import os, gdb\n"
	.ascii "_o = gdb.current_objfile()\n"
	.ascii "_d = [os.path.join(os.path.dirname(os.path.realpath(_o.filename)), '..', 'scripts', 'gdb'),\n"
	.ascii "      os.path.join(os.getcwd(), 'scripts', 'gdb')]\n"
	.ascii "_f = [os.path.join(d, 'ekdb-gdb.py') for d in _d if os.path.isfile(os.path.join(d, 'ekdb-gdb.py'))]\n"
	.ascii "if _f:\n"
	.ascii "    gdb.execute('source ' + os.path.normpath(_f[0]))\n"
	.ascii "else:\n"
	.ascii "    gdb.write('ekdb: gdb helpers (scripts/gdb/ekdb-gdb.py) not found next to %s\\n' % _o.filename, gdb.STDERR)\n"
	.byte 0
	.popsection
