/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_reenter.c - host tests of "the machine never hangs because of the
 * debugger" (core/entry.c, core/reenter.c):
 *  - arm last: the breakpoints go back in after the display's leave hook
 *    and the transports' post_exception hooks, as the very last act;
 *  - a breakpoint or watchpoint of ours that fires on the CPU holding the
 *    debugger (from a hook) is removed with a warning naming it, and the
 *    stop goes on;
 *  - anything else there (not ours, a fault, panic()) makes the debugger
 *    give up: off, every breakpoint out, the held CPUs and the master role
 *    released, the kernel told (warning + panic).
 *  - issue 33: the same in code the debugger runs while the kernel runs
 *    (a driver op in the tick's break-in poll, a kgdbcon packet): recovered,
 *    never a stop, the warning printed once the poll is done; hardware
 *    breakpoints as well as int3; the recovery counter back at zero after
 *    every way out (one test walks them all).
 *
 * Everything around the two files is faked and logged as one line of
 * events ("leave", "post", "install", "release", ...) the tests read.  A
 * trap "inside the debugger" is a call of the trap entry made by a fake
 * hook with the same CPU running.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>
#include "../../core/debug_core.h"
#include <asm/cpu_state.h>
#include <asm/debug_trap.h>
#include <asm/hw_breakpoint.h>
#include <asm/sstep.h>
#include <ekdb/ekdb.h>
#include <ekdb/gdb_signal.h>

/* ------------------------------------------------------------ the fakes */

struct dbg_cpu dbg_cpus[NR_CPUS];
static unsigned fake_cpu;
static char events[512];

static void ev(const char *e)
{
	if (strlen(events) + strlen(e) + 2 > sizeof(events))
		return;		/* full: a test resets it between scenes */
	strcat(events, e);
	strcat(events, " ");
}

/* The table: entry 0 a software breakpoint (the outer stop's), 1 a software
 * breakpoint in a hook, 2 a write watchpoint in slot 0, 3 a hardware
 * breakpoint (slot 1) in a hook or driver op. */
#define BP_ADDR		0xffffffff81001000ull
#define HOOK_BP_ADDR	0xffffffff81002000ull
#define WATCH_ADDR	0xffffffff81400008ull
#define HOOK_HW_ADDR	0xffffffff81007000ull
#define NBPS		4
static struct dbg_bp table[NBPS];
static int dropped = -1;
static bool break_insn_at_pc;		/* a compiled-in int3 (not ours) */

static void table_reset(void)
{
	memset(table, 0, sizeof(table));
	table[0] = (struct dbg_bp){ .used = true, .enabled = true, .type = EKDB_BP_SW,
				    .owner = DBG_OWNER_KDB, .slot = -1, .len = 1, .addr = BP_ADDR };
	table[1] = (struct dbg_bp){ .used = true, .enabled = true, .type = EKDB_BP_SW,
				    .owner = DBG_OWNER_KDB, .slot = -1, .len = 1,
				    .addr = HOOK_BP_ADDR };
	table[2] = (struct dbg_bp){ .used = true, .enabled = true, .type = EKDB_BP_WRITE,
				    .owner = DBG_OWNER_KDB, .slot = 0, .len = 8,
				    .addr = WATCH_ADDR };
	table[3] = (struct dbg_bp){ .used = true, .enabled = true, .type = EKDB_BP_HW,
				    .owner = DBG_OWNER_GDB, .slot = 1, .len = 1,
				    .addr = HOOK_HW_ADDR };
	dropped = -1;
}

unsigned dbg_this_cpu(void) { return fake_cpu; }
unsigned dbg_roundup_cpus(unsigned self) { ev("roundup"); return 0; }
void dbg_release_cpus(unsigned self) { ev("release"); }
/* While the master holds itself (another CPU steps alone), a fake may run. */
static void (*on_hold)(unsigned self);
static unsigned roundup_wants_mask;	/* CPUs a round-up in progress wants parked */

void dbg_cpu_hold(unsigned self, struct pt_regs *regs, bool trapped)
{
	void (*fn)(unsigned) = on_hold;

	ev("hold");
	on_hold = NULL;
	if (fn)
		fn(self);
}

bool dbg_roundup_wants(unsigned self) { return roundup_wants_mask & (1u << self); }

static unsigned deferred_parks;

void dbg_console_park_deferred(unsigned self)
{
	dbg_cpus[self].park_deferred = false;
	deferred_parks++;
	ev("park");
}
void dbg_target_select_cpu(unsigned cpu) { }
void dbg_transports_pre(void) { ev("pre"); }
bool dbg_transports_poll_lock(void) { return true; }
void dbg_transports_poll_unlock(void) { }
static void poll_op(void);	/* a driver op the poll runs (below) */
int dbg_transports_poll_break(void)
{
	ev("poll");
	poll_op();
	return EKDB_BREAK_NONE;
}
void dbg_bp_remove_owner(enum dbg_bp_owner owner) { }
void dbg_bp_hit(int index) { }
void dbg_bp_install_all(u64 skip) { ev("install"); }
void dbg_bp_uninstall_all(void) { ev("uninstall"); }
void dbg_bp_all_off(void) { ev("all_off"); }

int dbg_bp_find_sw(u64 addr)
{
	for (int i = 0; i < NBPS; i++)
		if (table[i].used && table[i].type == EKDB_BP_SW && table[i].addr == addr)
			return i;
	return -1;
}

int dbg_bp_find_slot(unsigned slot)
{
	for (int i = 0; i < NBPS; i++)
		if (table[i].used && table[i].slot == (s8)slot)
			return i;
	return -1;
}

const struct dbg_bp *dbg_bp_get(int index)
{
	return index >= 0 && index < NBPS && table[index].used ? &table[index] : NULL;
}

int dbg_bp_drop_reentered(int index)
{
	if (!dbg_bp_get(index))
		return -1;
	table[index].used = false;
	dropped = index;
	ev("drop");
	return 0;
}

static char warned[512];
static char panicked[128];
static bool trap_in_warn;	/* the warning's own code hits a breakpoint of ours */
static bool nested_result = true;

void dbg_kernel_warn(const char *msg)
{
	strncat(warned, msg, sizeof(warned) - strlen(warned) - 1);
	ev("warn");
	if (trap_in_warn) {
		struct pt_regs r = { .rip = BP_ADDR + 1 };

		trap_in_warn = false;
		nested_result = dbg_trap_swbreak(&r, BP_ADDR);
	}
}

void dbg_kernel_panic(const char *msg)
{
	snprintf(panicked, sizeof(panicked), "%s", msg);
	ev("panic");
}

void arch_dbg_traps_init(void) { }
void arch_dbg_resume_no_rehit(struct pt_regs *regs) { }
bool arch_dbg_break_insn_at(u64 addr) { return break_insn_at_pc; }
bool arch_dbg_park_trap_at(u64 addr) { return false; }
int arch_dbg_fault_signal(unsigned vector) { return GDB_SIGSEGV; }
void arch_hw_bp_disarm(void) { }
void arch_hw_bp_load(void) { ev("hw_load"); }
void arch_dbg_step_prepare(struct pt_regs *regs, struct arch_dbg_step *st) { }
void arch_dbg_step_finish(struct pt_regs *regs, struct arch_dbg_step *st) { }
void arch_dbg_step_cancel(struct pt_regs *regs, struct arch_dbg_step *st) { }
void arch_dbg_state_capture(struct arch_dbg_state *st, const struct pt_regs *regs) { }
void arch_dbg_state_writeback(const struct arch_dbg_state *st, struct pt_regs *regs) { }

/* What a hook (or a driver op) does while it runs in the debugger's path. */
enum hook_trap { TRAP_NONE, TRAP_HOOK_BP, TRAP_WATCH, TRAP_HW_BP, TRAP_NOT_OURS, TRAP_FAULT,
		 TRAP_PANIC };
static enum hook_trap leave_trap, poll_trap;
static bool trap_result;
static struct pt_regs hook_regs;

static void trap_now(enum hook_trap t)
{
	memset(&hook_regs, 0, sizeof(hook_regs));
	switch (t) {
	case TRAP_HOOK_BP:
		hook_regs.rip = HOOK_BP_ADDR + 1;	/* past the int3 */
		trap_result = dbg_trap_swbreak(&hook_regs, HOOK_BP_ADDR);
		break;
	case TRAP_WATCH:
		hook_regs.rip = 0xffffffff81003004ull;	/* after the store */
		trap_result = dbg_trap_debug(&hook_regs, 0, false);
		break;
	case TRAP_HW_BP:
		hook_regs.rip = HOOK_HW_ADDR;		/* a fault: before the instruction */
		trap_result = dbg_trap_debug(&hook_regs, 1, false);
		break;
	case TRAP_NOT_OURS:
		hook_regs.rip = 0xffffffff81005001ull;
		break_insn_at_pc = true;
		trap_result = dbg_trap_swbreak(&hook_regs, 0xffffffff81005000ull);
		break_insn_at_pc = false;
		break;
	case TRAP_FAULT:
		hook_regs.rip = 0xffffffff81006000ull;
		hook_regs.vector = 14;
		trap_result = ekdb_handle_die("page fault", &hook_regs);
		break;
	case TRAP_PANIC:
		ekdb_panic("hook panicked");
		trap_result = true;
		break;
	default:
		break;
	}
}

static void trap_in_hook(void)
{
	enum hook_trap t = leave_trap;

	leave_trap = TRAP_NONE;
	trap_now(t);
}

static void poll_op(void)
{
	enum hook_trap t = poll_trap;

	poll_trap = TRAP_NONE;
	trap_now(t);
}

void dbg_transports_post(void) { ev("post"); }
void dbg_display_enter(void) { ev("enter"); }
void dbg_display_leave(void)
{
	ev("leave");
	trap_in_hook();
}

static unsigned nstops;
static struct ekdb_resume next_resume;	/* what the user answers (reset to continue) */

static struct ekdb_resume fake_run(const struct ekdb_stop *stop, bool announce)
{
	struct ekdb_resume r = next_resume;

	nstops++;
	ev("run");
	next_resume = (struct ekdb_resume){ .action = EKDB_RESUME_CONTINUE };
	return r;
}

static const struct dbg_frontend fake_frontend = { .name = "fake", .run = fake_run };

/* ------------------------------------------------------------ helpers */

static int setup(void **state)
{
	memset(events, 0, sizeof(events));
	memset(warned, 0, sizeof(warned));
	memset(panicked, 0, sizeof(panicked));
	memset(dbg_cpus, 0, sizeof(dbg_cpus));
	table_reset();
	nstops = 0;
	fake_cpu = 0;
	leave_trap = poll_trap = TRAP_NONE;
	trap_result = false;
	on_hold = NULL;
	roundup_wants_mask = 0;
	next_resume = (struct ekdb_resume){ .action = EKDB_RESUME_CONTINUE };
	dbg_core_init(&fake_frontend);
	return 0;
}

/* CPU 0 stops at the table's entry 0 and the user types go. */
static bool stop_at_bp(void)
{
	struct pt_regs regs = { .rip = BP_ADDR + 1 };

	return dbg_trap_swbreak(&regs, BP_ADDR);
}

static const char *after(const char *s, const char *what)
{
	const char *p = strstr(s, what);

	return p ? p + strlen(what) : NULL;
}

/* ------------------------------------------------------------ the tests */

/* Arm last: install comes after both hooks, and nothing but the release follows. */
static void test_breakpoints_armed_after_every_hook(void **state)
{
	assert_true(stop_at_bp());
	assert_int_equal(nstops, 1);
	print_message("events: %s\n", events);
	assert_non_null(strstr(events, "run post leave install release "));
}

/* A breakpoint of ours hit in the leave hook: removed, named, the stop goes on. */
static void test_breakpoint_hit_in_hook_removed_with_warning(void **state)
{
	char want[160];

	leave_trap = TRAP_HOOK_BP;
	assert_true(stop_at_bp());
	assert_true(trap_result);			/* consumed: the hook goes on */
	assert_int_equal(hook_regs.rip, HOOK_BP_ADDR);	/* re-runs the original byte */
	assert_int_equal(dropped, 1);
	assert_int_equal(nstops, 1);			/* not reported as a stop */
	snprintf(want, sizeof(want), "ekdb: breakpoint #1 at 0x%llx (",
		 (unsigned long long)HOOK_BP_ADDR);
	assert_non_null(strstr(warned, want));
	assert_non_null(strstr(warned, ") hit inside the debugger: removed\n"));
	assert_true(ekdb_enabled());
	assert_null(strstr(events, "panic"));
	assert_non_null(strstr(events, "leave drop warn install release"));
	/* the master role was released: the next stop on this CPU is a real one */
	assert_true(stop_at_bp());
	assert_int_equal(nstops, 2);
}

/* A watchpoint of ours hit in a hook: disarmed (dropped), named with its size. */
static void test_watchpoint_hit_in_hook_removed_with_warning(void **state)
{
	leave_trap = TRAP_WATCH;
	assert_true(stop_at_bp());
	assert_true(trap_result);
	assert_int_equal(dropped, 2);
	assert_int_equal(nstops, 1);
	assert_non_null(strstr(warned, "ekdb: write watchpoint #2 at 0xffffffff81400008 ("));
	assert_non_null(strstr(warned, ", 8 bytes) hit inside the debugger by "));
	assert_non_null(strstr(warned, ": removed\n"));
	assert_true(ekdb_enabled());
}

/* Not ours (a compiled-in int3): the debugger gives up, releases all, panics. */
static void test_trap_not_ours_gives_up_and_panics(void **state)
{
	leave_trap = TRAP_NOT_OURS;
	assert_true(stop_at_bp());
	assert_false(trap_result);			/* the kernel's default: it dies */
	assert_false(ekdb_enabled());
	assert_int_equal(dropped, -1);
	assert_non_null(strstr(warned, "ekdb: a break instruction that is not a breakpoint at "));
	assert_non_null(strstr(warned, "inside the debugger on CPU 0: cannot recover; "
				       "the debugger is off\n"));
	assert_string_equal(panicked, "ekdb: recursive entry to the debugger");
	/* breakpoints out, CPUs released, then the kernel told; nothing armed after */
	assert_non_null(strstr(events, "leave all_off release warn panic "));
	assert_null(strstr(after(events, "panic "), "install"));
	/* the master role is free again: a new session can enter */
	dbg_core_init(&fake_frontend);
	assert_true(stop_at_bp());
	assert_int_equal(nstops, 2);
}

/* An oops on the master CPU: the debugger gives up and the oops goes on
 * (no panic from us: die() prints and halts that CPU), the others released. */
static void test_fault_on_master_releases_it(void **state)
{
	leave_trap = TRAP_FAULT;
	assert_true(stop_at_bp());
	assert_false(trap_result);			/* die() goes on with its oops */
	assert_false(ekdb_enabled());
	assert_non_null(strstr(warned, "ekdb: a fault at "));
	assert_non_null(strstr(events, "all_off release warn"));
	assert_null(strstr(events, "panic"));
	dbg_core_init(&fake_frontend);
	assert_true(stop_at_bp());
	assert_int_equal(nstops, 2);
}

/* panic() called inside the debugger: it gives up before panic halts the CPU. */
static void test_panic_on_master_releases_it(void **state)
{
	leave_trap = TRAP_PANIC;
	assert_true(stop_at_bp());
	assert_false(ekdb_enabled());
	assert_non_null(strstr(warned, "ekdb: a panic at "));
	assert_non_null(strstr(events, "all_off release warn"));
	dbg_core_init(&fake_frontend);
	assert_true(stop_at_bp());
	assert_int_equal(nstops, 2);
}

/* A trap while recovering from one (the warning itself hits a breakpoint): give up. */
static void test_nested_reentry_gives_up(void **state)
{
	leave_trap = TRAP_HOOK_BP;
	trap_in_warn = true;
	assert_true(stop_at_bp());
	assert_false(nested_result);		/* the nested trap: not recovered */
	assert_int_equal(dropped, 1);		/* only the first one was removed */
	assert_false(ekdb_enabled());
	assert_string_equal(panicked, "ekdb: recursive entry to the debugger");
	assert_non_null(strstr(warned, "ekdb: a breakpoint at "));
	assert_null(strstr(after(events, "panic "), "install"));
}

/*
 * Issue 19: CPU 0 stops; the user continues CPU 1 alone (gdb's vCont;c:2),
 * and CPU 1 sits on a breakpoint, so it steps over it first while CPU 0
 * joins the held ones.  Meanwhile CPU 2, which the round-up missed, hits a
 * breakpoint: it must not become the master (and start a stop of its own,
 * and release everyone) while CPU 1 steps with the breakpoint out.  It
 * waits, parked by the round-up in progress, and re-runs its breakpoint
 * later.  Once CPU 1's step is done (the breakpoint back), the master role
 * is free again.
 */
static bool missed_cpu_result;

static void missed_cpu_hits_bp(unsigned self)
{
	struct pt_regs r = { .rip = HOOK_BP_ADDR + 1 };

	fake_cpu = 2;
	roundup_wants_mask = 1u << 2;		/* the round-up in progress wants it */
	missed_cpu_result = dbg_trap_swbreak(&r, HOOK_BP_ADDR);
	roundup_wants_mask = 0;
	fake_cpu = self;
}

static void test_step_over_on_another_cpu_keeps_the_master_role(void **state)
{
	struct pt_regs step_regs = { .rip = BP_ADDR };

	dbg_cpus[1] = (struct dbg_cpu){ .online = true, .stopped = true };
	dbg_cpus[1].state.rip = BP_ADDR;		/* CPU 1 sits on breakpoint 0 */
	dbg_cpus[2].online = true;
	next_resume = (struct ekdb_resume){ .action = EKDB_RESUME_CONTINUE, .thread = 2,
					    .only = true };
	on_hold = missed_cpu_hits_bp;
	assert_true(stop_at_bp());
	assert_true(dbg_cpus[1].go);			/* CPU 1 let go to step over */
	assert_true(dbg_cpus[1].stepping_over);
	assert_true(missed_cpu_result);			/* CPU 2: resumed to re-run it */
	assert_int_equal(nstops, 1);			/* no stop of CPU 2 meanwhile */
	assert_null(strstr(after(events, "hold "), "run"));
	/* CPU 1's step is done: the breakpoint goes back, the master role is free */
	fake_cpu = 1;
	assert_true(dbg_trap_debug(&step_regs, -1, true));
	assert_false(dbg_cpus[1].stepping_over);
	assert_non_null(strstr(after(events, "hold "), "install"));
	fake_cpu = 2;
	dbg_cpus[2].stopped = false;
	{
		struct pt_regs r = { .rip = HOOK_BP_ADDR + 1 };

		assert_true(dbg_trap_swbreak(&r, HOOK_BP_ADDR));
	}
	assert_int_equal(nstops, 2);			/* now CPU 2's stop is a real one */
}

/*
 * kgdbcon from a running CPU (issue 19): nothing is sent while a CPU holds
 * the debugger (gdb is in a session); a packet begun is marked on its CPU
 * (a round-up NMI then defers the park) and a deferred park happens at the
 * packet's end.
 */
static bool console_begin_in_session;

static struct ekdb_resume run_console_check(const struct ekdb_stop *stop, bool announce)
{
	unsigned self = fake_cpu;

	fake_cpu = 1;					/* another CPU printks meanwhile */
	console_begin_in_session = dbg_console_begin();
	fake_cpu = self;
	return (struct ekdb_resume){ .action = EKDB_RESUME_CONTINUE };
}

static void test_kgdbcon_packets_never_cut(void **state)
{
	static const struct dbg_frontend fe = { .name = "console", .run = run_console_check };

	dbg_core_init(&fe);
	fake_cpu = 1;
	assert_true(dbg_console_begin());		/* nobody in the debugger */
	assert_true(dbg_cpus[1].console_pkt);
	dbg_cpus[1].park_deferred = true;		/* a round-up came mid-packet */
	dbg_console_end();
	assert_false(dbg_cpus[1].console_pkt);
	assert_int_equal(deferred_parks, 1);		/* parked once the packet was whole */
	assert_true(dbg_console_begin());
	dbg_console_end();
	fake_cpu = 0;
	console_begin_in_session = true;
	assert_true(stop_at_bp());
	assert_false(console_begin_in_session);		/* refused during the stop */
	assert_false(dbg_cpus[1].console_pkt);
	fake_cpu = 1;
	assert_true(dbg_console_begin());		/* and allowed after it */
	dbg_console_end();
	dbg_core_init(&fake_frontend);
}

/* issue 33: a hardware breakpoint of ours hit in a hook: removed, named, the stop goes on. */
static void test_hw_breakpoint_hit_in_hook_removed_with_warning(void **state)
{
	char want[160];

	leave_trap = TRAP_HW_BP;
	assert_true(stop_at_bp());
	assert_true(trap_result);			/* consumed: the hook goes on */
	assert_int_equal(hook_regs.rip, HOOK_HW_ADDR);	/* runs the instruction it stopped */
	assert_int_equal(dropped, 3);
	assert_int_equal(nstops, 1);
	snprintf(want, sizeof(want), "ekdb: hardware breakpoint #3 at 0x%llx (",
		 (unsigned long long)HOOK_HW_ADDR);
	assert_non_null(strstr(warned, want));
	assert_non_null(strstr(warned, ") hit inside the debugger: removed\n"));
	assert_true(ekdb_enabled());
	assert_non_null(strstr(events, "leave drop warn install release"));
}

/* The tick polls the transports; a driver op traps (@t).  Returns the poll's answer. */
static bool poll_with_trap(enum hook_trap t)
{
	struct pt_regs regs = { .rip = 0xffffffff81008000ull };

	poll_trap = t;
	return ekdb_poll_break(&regs);
}

/*
 * issue 33: a breakpoint of ours hit by a driver op in the tick's poll (the
 * EHCI late driver's late_read): removed, never a stop (the driver is
 * half-way through a transaction on the line a stop would use), the
 * warning printed once the poll is done, the machine runs on.
 */
static void test_breakpoint_hit_in_poll_recovered_without_a_stop(void **state)
{
	char want[160];

	assert_false(poll_with_trap(TRAP_HOOK_BP));
	assert_true(trap_result);			/* the driver op goes on */
	assert_int_equal(hook_regs.rip, HOOK_BP_ADDR);	/* re-runs the original byte */
	assert_int_equal(dropped, 1);
	assert_int_equal(nstops, 0);			/* no stop, no round-up */
	assert_null(strstr(events, "run"));
	assert_null(strstr(events, "roundup"));
	snprintf(want, sizeof(want), "ekdb: breakpoint #1 at 0x%llx (",
		 (unsigned long long)HOOK_BP_ADDR);
	assert_non_null(strstr(warned, want));
	assert_non_null(strstr(warned, ") hit inside the debugger: removed\n"));
	/* printed after the driver op, not inside it */
	assert_non_null(strstr(events, "poll drop warn "));
	assert_false(dbg_cpus[0].polling);
	assert_true(ekdb_enabled());
	/* the master role was given back: a real stop on this CPU still works */
	assert_true(stop_at_bp());
	assert_int_equal(nstops, 1);
}

/* issue 33: a hardware breakpoint hit by a driver op in the poll: the same. */
static void test_hw_breakpoint_hit_in_poll_recovered(void **state)
{
	assert_false(poll_with_trap(TRAP_HW_BP));
	assert_true(trap_result);
	assert_int_equal(dropped, 3);
	assert_int_equal(nstops, 0);
	assert_non_null(strstr(warned, "ekdb: hardware breakpoint #3 at 0xffffffff81007000 ("));
	assert_non_null(strstr(events, "poll drop warn "));
	assert_true(ekdb_enabled());
}

/* issue 33: a watchpoint on a driver's state written by its poll: removed, named. */
static void test_watchpoint_hit_in_poll_recovered(void **state)
{
	assert_false(poll_with_trap(TRAP_WATCH));
	assert_true(trap_result);
	assert_int_equal(dropped, 2);
	assert_int_equal(nstops, 0);
	assert_non_null(strstr(warned, "ekdb: write watchpoint #2 at 0xffffffff81400008 ("));
	assert_non_null(strstr(warned, ", 8 bytes) hit inside the debugger by "));
	assert_true(ekdb_enabled());
}

/* A trap in the poll that is not ours: the debugger gives up, never stops. */
static void test_trap_not_ours_in_poll_gives_up(void **state)
{
	assert_false(poll_with_trap(TRAP_NOT_OURS));
	assert_false(trap_result);
	assert_false(ekdb_enabled());
	assert_int_equal(nstops, 0);
	assert_int_equal(dropped, -1);
	assert_non_null(strstr(warned, "ekdb: a break instruction that is not a breakpoint at "));
	assert_string_equal(panicked, "ekdb: recursive entry to the debugger");
	assert_non_null(strstr(events, "poll all_off release warn panic "));
	assert_false(dbg_cpus[0].polling);
	/* the master role is free: a new session can enter */
	dbg_core_init(&fake_frontend);
	assert_true(stop_at_bp());
	assert_int_equal(nstops, 1);
}

/* issue 33: a breakpoint hit inside a kgdbcon packet (a transport op sending 'O'). */
static void test_breakpoint_hit_in_kgdbcon_packet_recovered(void **state)
{
	struct pt_regs regs = { .rip = 0xffffffff81008000ull };

	fake_cpu = 1;
	assert_true(dbg_console_begin());
	trap_now(TRAP_HW_BP);
	dbg_console_end();
	assert_true(trap_result);
	assert_int_equal(dropped, 3);
	assert_int_equal(nstops, 0);
	assert_string_equal(warned, "");		/* not inside the packet */
	fake_cpu = 0;
	assert_false(ekdb_poll_break(&regs));		/* the next tick prints it */
	assert_non_null(strstr(warned, "ekdb: hardware breakpoint #3 at "));
	assert_true(ekdb_enabled());
}

/*
 * issue 33: the recovery counter is back at zero after every way out of a
 * recovery (recovered, not ours, nested, a fault, in the poll), walked in
 * one test: each step is followed by a recovery that must succeed (a
 * counter left behind makes it look nested: the debugger would give up).
 */
static void scene_reset(void)
{
	memset(events, 0, sizeof(events));
	memset(warned, 0, sizeof(warned));
	table_reset();
}

static void recover_once_more(void)
{
	scene_reset();
	dbg_core_init(&fake_frontend);
	memset(warned, 0, sizeof(warned));
	leave_trap = TRAP_HOOK_BP;
	assert_true(stop_at_bp());
	assert_true(trap_result);
	assert_int_equal(dropped, 1);
	assert_true(ekdb_enabled());
	assert_non_null(strstr(warned, "hit inside the debugger: removed"));
}

static void test_recovery_counter_returns_to_zero(void **state)
{
	static const enum hook_trap ways[] = { TRAP_HOOK_BP, TRAP_HW_BP, TRAP_WATCH, TRAP_NOT_OURS,
					       TRAP_FAULT };

	for (unsigned i = 0; i < sizeof(ways) / sizeof(ways[0]); i++) {
		scene_reset();
		dbg_core_init(&fake_frontend);
		leave_trap = ways[i];
		(void)stop_at_bp();
		recover_once_more();
		scene_reset();
		dbg_core_init(&fake_frontend);
		(void)poll_with_trap(ways[i]);
		recover_once_more();
	}
	/* nested: the warning itself traps, the debugger gives up */
	scene_reset();
	dbg_core_init(&fake_frontend);
	leave_trap = TRAP_HOOK_BP;
	trap_in_warn = true;
	assert_true(stop_at_bp());
	assert_false(nested_result);
	assert_false(ekdb_enabled());
	recover_once_more();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_breakpoints_armed_after_every_hook, setup),
		cmocka_unit_test_setup(test_breakpoint_hit_in_hook_removed_with_warning, setup),
		cmocka_unit_test_setup(test_watchpoint_hit_in_hook_removed_with_warning, setup),
		cmocka_unit_test_setup(test_trap_not_ours_gives_up_and_panics, setup),
		cmocka_unit_test_setup(test_fault_on_master_releases_it, setup),
		cmocka_unit_test_setup(test_panic_on_master_releases_it, setup),
		cmocka_unit_test_setup(test_nested_reentry_gives_up, setup),
		cmocka_unit_test_setup(test_step_over_on_another_cpu_keeps_the_master_role, setup),
		cmocka_unit_test_setup(test_kgdbcon_packets_never_cut, setup),
		cmocka_unit_test_setup(test_hw_breakpoint_hit_in_hook_removed_with_warning, setup),
		cmocka_unit_test_setup(test_breakpoint_hit_in_poll_recovered_without_a_stop, setup),
		cmocka_unit_test_setup(test_hw_breakpoint_hit_in_poll_recovered, setup),
		cmocka_unit_test_setup(test_watchpoint_hit_in_poll_recovered, setup),
		cmocka_unit_test_setup(test_trap_not_ours_in_poll_gives_up, setup),
		cmocka_unit_test_setup(test_breakpoint_hit_in_kgdbcon_packet_recovered, setup),
		cmocka_unit_test_setup(test_recovery_counter_returns_to_zero, setup),
	};

	if (getenv("CMOCKA_TEST_FILTER"))	/* one test alone (a planted bug shown by it) */
		cmocka_set_test_filter(getenv("CMOCKA_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
