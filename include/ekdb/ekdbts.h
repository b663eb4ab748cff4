/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ekdbts.h - the debugger's in-kernel self-test (Linux's kgdbts), asked
 * for with ekdbts= on the command line.  A scripted "gdb" (a transport
 * that feeds packets and checks the replies, selftest/ekdbts.c) drives the
 * real debug core and gdbstub through breakpoints, watchpoints, single
 * steps, a stop on every CPU, Ctrl-C and the early->late handoff, and
 * prints one line per test and "ekdbts: N passed, M failed".
 *
 * The kernel provides what the tests stop in (struct ekdbts_host): code
 * and data of its own text and data, where breakpoints are allowed (the
 * debugger's own range refuses them), and a way to run code on every CPU.
 *
 *  ekdbts_init()      in setup_arch(), right after ekdb_early_init():
 *                     the ekdbts line becomes the debugger's line; with
 *                     the E form the early tests run here, and a handoff
 *                     test is armed.  Static storage only.
 *  ekdbts_run_late()  from a kernel thread once every CPU is up (and the
 *                     tick runs): the tests of the running kernel.
 */
#ifndef EKDB_EKDBTS_H
#define EKDB_EKDBTS_H

#include <ekdb/types.h>

struct ekdbts_host {
	/* an ordinary function (kernel text): breakpoints and steps go here */
	void (*brk)(void);
	volatile unsigned long *brk_calls;	/* how often brk() ran */
	/* spins until *@spin_done is set: the single-step stress walks it */
	void (*spin)(void);
	volatile u64 *spin_done;
	/* the watched variable, and code that writes / reads it */
	volatile u64 *watch;
	void (*write)(u64 v);
	u64 (*read)(void);
	/* called once after the handoff: the early-armed test stops there */
	void (*handoff_sw)(void);
	void (*handoff_hw)(void);
	/*
	 * on_all_cpus - run @fn(cpu index, number of CPUs) on every online
	 * CPU at about the same moment and wait for all of them (bounded).
	 * Returns how many CPUs ran it (late only).
	 */
	unsigned (*on_all_cpus)(void (*fn)(unsigned idx, unsigned n));
	/* a millisecond clock for bounded waits and the stress rate (late only) */
	u64 (*now_ms)(void);
	/* let others run while waiting (late only) */
	void (*relax)(void);
};

void ekdbts_init(const struct ekdbts_host *host);
void ekdbts_run_late(void);

#endif
