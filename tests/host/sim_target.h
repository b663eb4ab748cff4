/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_target.h - a simulated struct ekdb_target for host tests (gdbstub,
 * kdb): memory regions with unmapped holes between them, one x86 register
 * file per thread, a software breakpoint table, 4 hardware slots, a
 * "debugger-owned" address range where breakpoints are refused, threads,
 * and an optional monitor command hook.
 *
 * Memory map (sim_target_init):
 *   0x1000-0x2fff        RAM (bytes i & 0xff at 0x1000 + i)
 *   0x3000-0xffff        hole
 *   0x10000-0x10fff      RAM, zero
 *   0xffffffff81000000   "kernel text", 0x2000 bytes;
 *   0xffffffff81001000-0xffffffff810010ff is debugger-owned (bp_set and
 *                        mem_write: EPERM, as the debugger's code, data and bss)
 *   0xfffffffffffff000   the last page of the address space, RAM (0xa5)
 *
 * mem_read/mem_write stop at 2^64 as a guard, and count the requests
 * whose range would have wrapped (wrap_asks): the code under test must
 * refuse those itself, before it asks.
 */
#ifndef TESTS_SIM_TARGET_H
#define TESTS_SIM_TARGET_H

#include <ekdb/target.h>
#include <ekdb/port.h>
#include <asm/regs.h>

#define SIM_MAX_THREADS		8
#define SIM_MAX_SW_BPS		16
#define SIM_HW_SLOTS		4
#define SIM_MAX_REGIONS		4

#define SIM_RAM0_BASE		0x1000ull
#define SIM_RAM0_SIZE		0x2000ull
#define SIM_RAM1_BASE		0x10000ull
#define SIM_RAM1_SIZE		0x1000ull
#define SIM_TEXT_BASE		0xffffffff81000000ull
#define SIM_TEXT_SIZE		0x2000ull
#define SIM_DBG_BASE		0xffffffff81001000ull
#define SIM_DBG_SIZE		0x100ull
#define SIM_TOP_BASE		0xfffffffffffff000ull
#define SIM_TOP_SIZE		0x1000ull

struct sim_region {
	u64 base, size;
	u8 *data;
};

struct sim_bp {
	bool used;
	bool disabled;			/* kdb bd */
	bool by_kdb;			/* planted through bp_add */
	enum ekdb_bp_type type;
	u64 addr;
	unsigned len;
};

struct sim_target {
	struct ekdb_target t;		/* hand &s->t to the code under test */
	struct ekdb_target_ops ops;	/* a copy tests may edit (NULL an op) */
	struct sim_region regions[SIM_MAX_REGIONS];
	unsigned nregions;
	u8 ram0[SIM_RAM0_SIZE], ram1[SIM_RAM1_SIZE], text[SIM_TEXT_SIZE], top[SIM_TOP_SIZE];
	unsigned wrap_asks;		/* mem_read/mem_write asked for a range past 2^64 */
	struct arch_dbg_state regs[SIM_MAX_THREADS];
	int nthreads;
	int selected;			/* index into regs[] */
	int current;			/* index of the thread that stopped */
	struct sim_bp sw[SIM_MAX_SW_BPS];
	struct sim_bp hw[SIM_HW_SLOTS];
	unsigned monitor_calls;
	char last_monitor[256];

	/* the simulated kernel's services (sim_port.c): a copy tests may edit (NULL one) */
	struct ekdb_stopped_ops host;
	/* their state */
	const char *log;		/* printk buffer text for log_read */
	size_t log_len;
	int ntasks;			/* entries of sim_tasks used */
	unsigned reboots;		/* reboot op calls */
	char last_sysrq;		/* key given to the sysrq op */
	int last_signal, last_signal_pid;	/* task_signal op */
	u64 bp_hits[SIM_MAX_SW_BPS + SIM_HW_SLOTS];
};

/*
 * Symbols of the sim target (sym_* ops): start_kernel, setup_arch,
 * setup_boot_params, mm_init in "text"; jiffies, init_task in RAM0;
 * many_00..many_39 in RAM1 (for completion limits).
 */
#define SIM_SYM_START_KERNEL	(SIM_TEXT_BASE + 0x000)
#define SIM_SYM_SETUP_ARCH	(SIM_TEXT_BASE + 0x100)
#define SIM_SYM_MM_INIT		(SIM_TEXT_BASE + 0x400)
#define SIM_SYM_JIFFIES		(SIM_RAM0_BASE + 0x100)
/* Breakpoint table index of hardware slot n (bp_get numbering). */
#define SIM_HW_INDEX(n)		(SIM_MAX_SW_BPS + (n))
/* Frame-pointer chain written by sim_target_setup_frames() in RAM1. */
#define SIM_FRAME_BASE		0x10800ull
/*
 * The sleeping sim task's saved rsp: a context switch's frame as the
 * reference kernel's __switch_to_asm leaves it (six callee-saved registers,
 * rbp = SIM_FRAME_BASE, then the return address = its saved rip).
 */
#define SIM_SLEEP_SP		(SIM_FRAME_BASE - 0x80)
#define SIM_SLEEP_IP		(SIM_TEXT_BASE + 0x420)

/** sim_target_init - fresh target with @nthreads threads (ids 1..n) and known register values. */
void sim_target_init(struct sim_target *s, int nthreads);
/** sim_target_bp_count - number of set breakpoints of @type. */
int sim_target_bp_count(const struct sim_target *s, enum ekdb_bp_type type);
/**
 * sim_target_setup_frames - write a 3-deep frame-pointer chain at
 * SIM_FRAME_BASE (return addresses into mm_init, setup_arch,
 * start_kernel) and point thread 1's rbp (and the sleeping sim task's
 * saved rbp) at it; the sleeping task's switch frame at SIM_SLEEP_SP.
 */
void sim_target_setup_frames(struct sim_target *s);
/** sim_target_mem - pointer to simulated memory at @addr, NULL in a hole. */
u8 *sim_target_mem(struct sim_target *s, u64 addr);

/* The sim's `monitor` interpreter (a gdb_monitor_fn, @sim: its struct sim_target). */
int sim_monitor(void *sim, const char *cmd,
		void (*out)(void *arg, const char *s, size_t len), void *arg);

#endif
