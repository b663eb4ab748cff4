/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ekdb.h - what the kernel calls to host the debugger.
 *
 *  ekdb_early_init()   in setup_arch(), right after parse_early_param():
 *                      brings up the transport named by ekgdboc=, takes
 *                      the debug vectors (#DB, #BP), stops if kgdbwait.
 *  ekdb_handle_die()   from the oops path before printing: the debugger
 *                      stops there first when it is enabled.
 *  ekdb_poll_break()   from a periodic tick: a Ctrl-C on a transport
 *                      breaks into the debugger.
 *  ekdb_cpu_online()   from SMP bring-up: the CPU becomes a thread.
 *  ekdb_set_roundup_fn() from SMP bring-up: how to send the round-up NMI.
 *  kgdb_breakpoint()   stop right here (kgdbwait, sysrq-g).
 */
#ifndef EKDB_EKDB_H
#define EKDB_EKDB_H

#include <ekdb/types.h>

struct x86_regs;

void ekdb_early_init(void);
bool ekdb_enabled(void);
bool ekdb_handle_die(const char *what, struct x86_regs *regs);
bool ekdb_poll_break(struct x86_regs *regs);
void ekdb_cpu_online(unsigned cpu);
void ekdb_set_cpu_id_fn(unsigned (*fn)(void));
/* ekdb_set_roundup_fn - how to NMI every other CPU (the debugger stops them all). */
void ekdb_set_roundup_fn(bool (*fn)(void));
void kgdb_breakpoint(void);

#endif
