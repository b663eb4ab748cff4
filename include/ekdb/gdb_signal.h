/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gdb_signal.h - the signal numbers a stop reports to gdb (gdb's own
 * numbering, include/gdb/signals.def: the same on every target).
 */
#ifndef EKDB_GDB_SIGNAL_H
#define EKDB_GDB_SIGNAL_H

#define GDB_SIGINT	2
#define GDB_SIGILL	4
#define GDB_SIGTRAP	5
#define GDB_SIGFPE	8
#define GDB_SIGBUS	10
#define GDB_SIGSEGV	11

#endif
