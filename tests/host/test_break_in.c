/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_break_in.c - host tests of the break-in path of the stop code
 * (core/entry.c): a user's interrupt (gdb's Ctrl-C, kdb's Ctrl-C, sysrq-g)
 * that arrives while another CPU holds the debugger for a moment without
 * stopping the machine for the user is kept and stops at the next poll, not
 * lost; one that arrives while the user is already looking at a stop is
 * answered by that stop; a gdb packet's '$' is kept the same way (its
 * driver keeps the byte and the packet behind it for the debugger).
 *
 * Everything around entry.c is faked: the "CPU" running is fake_cpu, the
 * breakpoint table is one entry the test controls, and the front end
 * records the stops it is asked to report.  An "interrupt on the other
 * CPU" is a call of ekdb_break_in() with fake_cpu switched, made from the
 * moment in the stop path the test wants (inside the breakpoint table
 * lookup that finds a removed breakpoint, or inside the front end).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
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
static int fake_poll = EKDB_BREAK_NONE;	/* what the polled transports see */

static struct dbg_bp fake_bp;		/* entry 0 of the table */
static bool fake_bp_present;
static int lookups_before_removal;	/* dbg_bp_get calls until the bp "goes" */

/* what another CPU's interrupt does when the table lookup runs */
static int irq_reason = EKDB_BREAK_NONE;
static bool irq_result;
static bool irq_fired;

static struct pt_regs other_cpu_regs;

static void other_cpu_interrupt(void)
{
	unsigned self = fake_cpu;

	if (irq_reason == EKDB_BREAK_NONE || irq_fired)
		return;
	irq_fired = true;
	fake_cpu = 1;
	irq_result = ekdb_break_in(&other_cpu_regs, irq_reason);
	fake_cpu = self;
}

unsigned dbg_this_cpu(void) { return fake_cpu; }
unsigned dbg_roundup_cpus(unsigned self) { return 0; }
void dbg_release_cpus(unsigned self) { }
void dbg_cpu_hold(unsigned self, struct pt_regs *regs, bool trapped) { }
bool dbg_roundup_wants(unsigned self) { return false; }
void dbg_console_park_deferred(unsigned self) { }
void dbg_target_select_cpu(unsigned cpu) { }
void dbg_display_enter(void) { }
void dbg_display_leave(void) { }
void dbg_transports_pre(void) { }
void dbg_transports_post(void) { }
bool dbg_transports_poll_lock(void) { return true; }
void dbg_transports_poll_unlock(void) { }
int dbg_transports_poll_break(void)
{
	int r = fake_poll;

	fake_poll = EKDB_BREAK_NONE;	/* a polled byte is consumed */
	return r;
}

void dbg_bp_remove_owner(enum dbg_bp_owner owner) { }
void dbg_bp_hit(int index) { }
void dbg_bp_install_all(u64 skip) { }
void dbg_bp_uninstall_all(void) { }
int dbg_bp_find_slot(unsigned slot) { return -1; }
int dbg_bp_find_sw(u64 addr)
{
	return fake_bp_present && fake_bp.addr == addr ? 0 : -1;
}

const struct dbg_bp *dbg_bp_get(int index)
{
	if (index != 0 || !fake_bp_present)
		return NULL;
	if (lookups_before_removal > 0 && --lookups_before_removal == 0) {
		/* the session this CPU waited for deleted it; meanwhile the
		 * other CPU, released, takes an interrupt */
		fake_bp_present = false;
		other_cpu_interrupt();
		return NULL;
	}
	return &fake_bp;
}

/* the re-entry path (core/reenter.c, tested by test_reenter) is not taken here */
bool dbg_reenter_recover(const struct pt_regs *regs, const struct ekdb_stop *stop, bool running)
{
	return false;
}
void dbg_reenter_flush(void) { }
const char *dbg_stop_what(const struct ekdb_stop *stop) { return "?"; }
void dbg_bp_all_off(void) { }
void dbg_kernel_warn(const char *msg) { }
void dbg_kernel_panic(const char *msg) { }
int ekdb_snprintf(char *buf, size_t size, const char *fmt, ...) { return 0; }

void arch_dbg_traps_init(void) { }
void arch_dbg_resume_no_rehit(struct pt_regs *regs) { }
bool arch_dbg_break_insn_at(u64 addr) { return false; }
bool arch_dbg_park_trap_at(u64 addr) { return false; }
int arch_dbg_fault_signal(unsigned vector) { return GDB_SIGSEGV; }
void arch_hw_bp_disarm(void) { }
void arch_hw_bp_load(void) { }
void arch_dbg_step_prepare(struct pt_regs *regs, struct arch_dbg_step *st) { }
void arch_dbg_step_finish(struct pt_regs *regs, struct arch_dbg_step *st) { }
void arch_dbg_step_cancel(struct pt_regs *regs, struct arch_dbg_step *st) { }
void arch_dbg_state_capture(struct arch_dbg_state *st, const struct pt_regs *regs) { }
void arch_dbg_state_writeback(const struct arch_dbg_state *st, struct pt_regs *regs) { }

/* The front end: records each stop it reports, and may run the other CPU's
 * interrupt while the user looks at the stop. */
static struct ekdb_stop stops[8];
static unsigned nstops;
static bool irq_during_session;

static struct ekdb_resume fake_run(const struct ekdb_stop *stop, bool announce)
{
	struct ekdb_resume r = { .action = EKDB_RESUME_CONTINUE };

	if (nstops < 8)
		stops[nstops] = *stop;
	nstops++;
	if (irq_during_session)
		other_cpu_interrupt();
	return r;
}

static const struct dbg_frontend fake_frontend = { .name = "fake", .run = fake_run };

/* ------------------------------------------------------------ the tests */

#define BP_ADDR 0xffffffff81001000ull

static int setup(void **state)
{
	memset(stops, 0, sizeof(stops));
	nstops = 0;
	fake_cpu = 0;
	fake_poll = EKDB_BREAK_NONE;
	irq_reason = EKDB_BREAK_NONE;
	irq_fired = irq_result = irq_during_session = false;
	fake_bp = (struct dbg_bp){ .type = EKDB_BP_SW, .enabled = true, .addr = BP_ADDR };
	fake_bp_present = false;
	lookups_before_removal = 0;
	/* nothing kept from an earlier test: a quiet poll drains it */
	(void)ekdb_poll_break(&other_cpu_regs);
	nstops = 0;
	return 0;
}

/* Before dbg_core_init: every request is refused, nothing is kept. */
static void test_off_refuses(void **state)
{
	struct pt_regs regs = { .rip = 0x1000 };

	assert_false(ekdb_break_in(&regs, EKDB_BREAK_CTRLC));
	assert_false(ekdb_poll_break(&regs));
	dbg_core_init(&fake_frontend);
	assert_false(ekdb_poll_break(&regs));
	assert_int_equal(nstops, 0);
}

/*
 * CPU 0 hits the breakpoint at BP_ADDR, which the user deletes while it
 * waits; it holds the debugger just long enough to see that and re-runs the
 * instruction, with no stop reported.  In that moment CPU 1 takes an
 * interrupt of @reason (irq_result: what ekdb_break_in answered it).
 */
static void stale_rerun_with_interrupt(int reason, struct pt_regs *regs)
{
	regs->rip = BP_ADDR + 1;
	fake_bp_present = true;
	lookups_before_removal = 2;	/* found by the trap, gone by the stale check */
	irq_reason = reason;
	assert_true(dbg_trap_swbreak(regs, BP_ADDR));
	assert_true(irq_fired);
	assert_int_equal(nstops, 0);		/* the stale hit reported nothing */
	assert_int_equal(regs->rip, BP_ADDR);	/* re-runs the original instruction */
}

/* The plain case: a Ctrl-C on an idle debugger stops at once with SIGINT. */
static void test_idle_ctrlc_stops(void **state)
{
	struct pt_regs regs = { .rip = 0x2000 };

	assert_true(ekdb_break_in(&regs, EKDB_BREAK_CTRLC));
	assert_int_equal(nstops, 1);
	assert_int_equal(stops[0].reason, EKDB_STOP_INTERRUPT);
	assert_int_equal(stops[0].signal, GDB_SIGINT);
	fake_poll = EKDB_BREAK_CTRLC;	/* and from a polled transport */
	assert_true(ekdb_poll_break(&regs));
	assert_int_equal(nstops, 2);
	assert_false(ekdb_poll_break(&regs));	/* consumed */
	assert_int_equal(nstops, 2);
}

/* A Ctrl-C taken during a stale re-run is kept (not handed to the console)
 * and stops at the next tick's poll, once. */
static void test_ctrlc_during_stale_rerun_is_kept(void **state)
{
	struct pt_regs regs;

	stale_rerun_with_interrupt(EKDB_BREAK_CTRLC, &regs);
	assert_true(irq_result);		/* taken, not given to the console */
	assert_true(ekdb_poll_break(&regs));
	assert_int_equal(nstops, 1);
	assert_int_equal(stops[0].reason, EKDB_STOP_INTERRUPT);
	assert_int_equal(stops[0].signal, GDB_SIGINT);
	assert_false(ekdb_poll_break(&regs));	/* kept once, stopped once */
	assert_int_equal(nstops, 1);
}

/* sysrq-g kept the same way stops as kdb's "due to Keyboard Entry". */
static void test_sysrq_during_stale_rerun_is_kept(void **state)
{
	struct pt_regs regs;

	stale_rerun_with_interrupt(EKDB_BREAK_SYSRQ, &regs);
	assert_true(irq_result);
	assert_true(ekdb_poll_break(&regs));
	assert_int_equal(nstops, 1);
	assert_int_equal(stops[0].reason, EKDB_STOP_SYSRQ);
	assert_int_equal(stops[0].signal, GDB_SIGTRAP);
}

/* A gdb packet's '$' while the debugger is busy is kept as well (issue 19:
 * its driver gave it to the console shell): the next tick's poll stops. */
static void test_gdb_packet_while_busy_is_kept(void **state)
{
	struct pt_regs regs;

	stale_rerun_with_interrupt(EKDB_BREAK_GDB, &regs);
	assert_true(irq_result);		/* taken: the driver keeps the '$' */
	assert_true(ekdb_poll_break(&regs));
	assert_int_equal(nstops, 1);
	assert_int_equal(stops[0].reason, EKDB_STOP_INTERRUPT);
	assert_false(ekdb_poll_break(&regs));	/* kept once, stopped once */
	assert_int_equal(nstops, 1);
}

/*
 * A Ctrl-C that comes while the user is looking at a stop (from a CPU the
 * round-up missed) is answered by that stop: continuing does not stop again.
 */
static void test_ctrlc_during_session_answered_by_it(void **state)
{
	struct pt_regs regs = { .rip = 0x3000 };

	irq_reason = EKDB_BREAK_CTRLC;
	irq_during_session = true;
	assert_true(ekdb_break_in(&regs, EKDB_BREAK_SYSRQ));
	assert_true(irq_fired);
	assert_true(irq_result);
	assert_int_equal(nstops, 1);
	assert_false(ekdb_poll_break(&regs));
	assert_int_equal(nstops, 1);
}

/* A request of no reason is refused and keeps nothing. */
static void test_no_reason_refused(void **state)
{
	struct pt_regs regs = { .rip = 0x4000 };

	assert_false(ekdb_break_in(&regs, EKDB_BREAK_NONE));
	assert_false(ekdb_poll_break(&regs));
	assert_int_equal(nstops, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_off_refuses, setup),
		cmocka_unit_test_setup(test_idle_ctrlc_stops, setup),
		cmocka_unit_test_setup(test_ctrlc_during_stale_rerun_is_kept, setup),
		cmocka_unit_test_setup(test_sysrq_during_stale_rerun_is_kept, setup),
		cmocka_unit_test_setup(test_gdb_packet_while_busy_is_kept, setup),
		cmocka_unit_test_setup(test_ctrlc_during_session_answered_by_it, setup),
		cmocka_unit_test_setup(test_no_reason_refused, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
