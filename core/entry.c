/* SPDX-License-Identifier: GPL-2.0 */
/*
 * entry.c - the debugger's way in and out: #DB and #BP handlers, the
 * oops hook, the break-in poll, and the one stop path they share
 * (exception -> stop -> front end loop -> resume).  Works from early boot
 * with static storage, and is the same code later on.
 */
#include "debug_core.h"
#include <asm/cpu_state.h>
#include <asm/debugreg.h>
#include <asm/desc.h>
#include <asm/fixup.h>
#include <asm/processor.h>
#include <ekdb/ekdb.h>
#include <ekdb/string.h>

/* gdb signal numbers */
#define GDB_SIGINT	2
#define GDB_SIGILL	4
#define GDB_SIGTRAP	5
#define GDB_SIGFPE	8
#define GDB_SIGBUS	10
#define GDB_SIGSEGV	11

static const struct dbg_frontend *frontend;
static bool dbg_enabled;
static volatile int dbg_master = -1;	/* CPU inside the debugger, -1 if none */
unsigned dbg_cpus_missing;		/* CPUs the last round-up could not stop */
static const char *volatile pending_panic;	/* ekdb_panic() on its way in */

bool ekdb_enabled(void)
{
	return dbg_enabled;
}

/**
 * kgdb_breakpoint - stop in the debugger right here (kgdbwait, sysrq-g).
 * A compiled-in int3: the #BP handler sees no planted breakpoint at it
 * and reports a plain SIGTRAP stop; resuming goes on after it.
 */
__noinline void kgdb_breakpoint(void)
{
	__asm__ __volatile__("int3" ::: "memory");
}

static void take_master(unsigned cpu)
{
	int expected = -1;

	while (!__atomic_compare_exchange_n(&dbg_master, &expected, (int)cpu, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		expected = -1;
		cpu_relax();
	}
}

static void release_master(void)
{
	__atomic_store_n(&dbg_master, -1, __ATOMIC_RELEASE);
}

/* Put breakpoints back and arm stepping as the front end asked. */
static void resume_cpu(struct dbg_cpu *c, struct x86_regs *regs, const struct ekdb_resume *r)
{
	if (r->set_pc)
		regs->rip = r->pc;
	c->user_step = r->action == EKDB_RESUME_STEP;
	if (r->action == EKDB_RESUME_DETACH || r->action == EKDB_RESUME_KILL)
		dbg_bp_remove_owner(DBG_OWNER_GDB);
	if (c->user_step) {
		/* step the real instruction, not an int3 planted on it */
		x86_sstep_prepare(regs, &c->step);
		dbg_bp_install_all(regs->rip);
	} else if (dbg_bp_find_sw(regs->rip) >= 0) {
		/* continuing from a breakpoint: step over it, then re-insert it */
		c->stepping_over = true;
		x86_sstep_prepare(regs, &c->step);
		dbg_bp_install_all(regs->rip);
	} else {
		dbg_bp_install_all(0);
	}
	regs->rflags |= X86_EFLAGS_RF;	/* do not re-hit an execute breakpoint at pc */
}

/*
 * dbg_enter - the stop path.  Returns true when the trap was consumed
 * (execution resumes from @regs), false when the debugger is not there
 * (or faulted itself) and the caller's default applies.
 */
static bool dbg_enter(struct x86_regs *regs, struct ekdb_stop *stop)
{
	unsigned cpu = dbg_this_cpu();
	struct dbg_cpu *c = &dbg_cpus[cpu];
	struct ekdb_resume r;

	if (!dbg_enabled || !frontend)
		return false;
	if (dbg_master == (int)cpu)
		return false;	/* a fault inside the debugger itself: let it oops */
	take_master(cpu);
	dbg_cpus_missing = dbg_roundup_cpus(cpu);	/* the whole machine stops */
	dbg_bp_uninstall_all();
	c->online = true;
	c->regs = regs;
	x86_state_capture(&c->state, regs);
	c->stopped = true;
	dbg_target_select_cpu(cpu);
	stop->thread = (u64)cpu + 1;
	dbg_bp_hit(stop->bp_index);
	dbg_display_enter();
	dbg_transports_pre();
	r = frontend->run(stop, true);
	x86_state_writeback(&c->state, regs);
	c->stopped = false;
	resume_cpu(c, regs, &r);
	dbg_transports_post();
	dbg_display_leave();
	dbg_release_cpus(cpu);
	release_master();
	return true;
}

static bool dbg_trap_bp(struct x86_regs *regs)
{
	struct ekdb_stop stop = { .signal = GDB_SIGTRAP, .vector = X86_TRAP_BP, .bp_index = -1 };
	u64 addr = regs->rip - 1;
	int idx = dbg_bp_find_sw(addr);
	const struct dbg_bp *b = dbg_bp_get(idx);
	u8 byte;

	if (b && b->installed) {
		regs->rip = addr;
		stop.reason = EKDB_STOP_SWBREAK;
		stop.bp_index = idx;
	} else if (x86_probe_read(&byte, addr, 1) == 1 && byte == 0xcc) {
		stop.reason = EKDB_STOP_ENTRY;	/* compiled in: kgdb_breakpoint() */
		if (pending_panic) {
			stop.reason = EKDB_STOP_PANIC;
			stop.message = pending_panic;
			pending_panic = NULL;
		}
	} else {
		/* our int3 was taken out while this CPU was on its way: re-run */
		regs->rip = addr;
		return dbg_enabled;
	}
	return dbg_enter(regs, &stop);
}

static bool dbg_trap_db(struct x86_regs *regs)
{
	struct dbg_cpu *c = &dbg_cpus[dbg_this_cpu()];
	struct ekdb_stop stop = { .signal = GDB_SIGTRAP, .vector = X86_TRAP_DB, .bp_index = -1 };
	u64 dr6 = x86_get_dr(6);
	unsigned hit = dr6 & 0xf;

	x86_set_dr(6, 0);
	if (c->step.active)
		x86_sstep_finish(regs, &c->step);
	if (c->stepping_over) {
		c->stepping_over = false;
		if (!hit) {
			/* stepped off the breakpoint: put it back and go on */
			dbg_bp_install_all(0);
			return true;
		}
	}
	if (hit) {
		unsigned slot = (unsigned)__builtin_ctz(hit);
		int idx = dbg_bp_find_slot(slot);
		const struct dbg_bp *b = dbg_bp_get(idx);

		if (!b) {
			/* a slot we no longer own: only a pending user step matters */
			if (!c->user_step)
				return false;
			stop.reason = EKDB_STOP_STEP;
			goto enter;
		}
		stop.bp_index = idx;
		stop.watch_addr = b->addr;
		switch (b->type) {
		case EKDB_BP_HW: stop.reason = EKDB_STOP_HWBREAK; break;
		case EKDB_BP_WRITE: stop.reason = EKDB_STOP_WATCH; break;
		case EKDB_BP_READ: stop.reason = EKDB_STOP_RWATCH; break;
		default: stop.reason = EKDB_STOP_AWATCH; break;
		}
	} else if (c->user_step && (dr6 & DR6_BS)) {
		stop.reason = EKDB_STOP_STEP;
	} else {
		return false;	/* not ours */
	}
enter:
	c->user_step = false;
	return dbg_enter(regs, &stop);
}

static int fault_signal(unsigned vec)
{
	switch (vec) {
	case X86_TRAP_DE: case X86_TRAP_MF: case X86_TRAP_XF: return GDB_SIGFPE;
	case X86_TRAP_UD: return GDB_SIGILL;
	case X86_TRAP_AC: return GDB_SIGBUS;
	default: return GDB_SIGSEGV;
	}
}

/*
 * An oops: stop so the user can look.  Returns true only when the user
 * moved the pc (the kernel then resumes there); otherwise the oops goes on.
 */
bool ekdb_handle_die(const char *what, struct x86_regs *regs)
{
	struct ekdb_stop stop = { .reason = EKDB_STOP_FAULT, .vector = (int)regs->vector,
				  .error_code = regs->error_code, .message = what, .bp_index = -1 };
	u64 rip = regs->rip;

	stop.signal = fault_signal((unsigned)regs->vector);
	if (!dbg_enter(regs, &stop))
		return false;
	return regs->rip != rip;
}

/* A driver's input asked for the debugger (from its IRQ, or the tick's poll). */
bool ekdb_break_in(struct x86_regs *regs, int reason)
{
	struct ekdb_stop stop = { .reason = EKDB_STOP_INTERRUPT, .signal = GDB_SIGINT,
				  .vector = -1, .bp_index = -1 };

	if (!dbg_enabled || dbg_master >= 0 || reason == EKDB_BREAK_NONE)
		return false;
	if (reason == EKDB_BREAK_SYSRQ)
		stop.reason = EKDB_STOP_SYSRQ;
	return dbg_enter(regs, &stop);
}

/* From the timer tick: transports without an interrupt of their own are polled. */
bool ekdb_poll_break(struct x86_regs *regs)
{
	if (!dbg_enabled || dbg_master >= 0)
		return false;
	return ekdb_break_in(regs, dbg_transports_poll_break());
}

/*
 * ekdb_panic - panic() enters the debugger first (Linux's kgdb_panic):
 * a compiled-in int3 whose stop says "panic" and carries the message.
 * kdb's go then refuses to continue (a panic cannot return).
 */
void ekdb_panic(const char *msg)
{
	if (!dbg_enabled || dbg_master == (int)dbg_this_cpu())
		return;
	pending_panic = msg ? msg : "";
	kgdb_breakpoint();
	pending_panic = NULL;
}


void dbg_core_init(const struct dbg_frontend *fe)
{
	frontend = fe;
	x86_set_trap_handler(X86_TRAP_DB, dbg_trap_db);
	x86_set_trap_handler(X86_TRAP_BP, dbg_trap_bp);
	dbg_roundup_init();
	dbg_cpus[dbg_this_cpu()].online = true;
	dbg_enabled = true;
}
