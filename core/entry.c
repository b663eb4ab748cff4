/* SPDX-License-Identifier: GPL-2.0 */
/*
 * entry.c - the debugger's way in and out: what a software breakpoint,
 * a hardware slot hit or a finished step means (the arch's trap decoders,
 * arch/x86/debug_trap.c, report them in portable terms: asm/debug_trap.h),
 * the oops hook, the break-in poll, and the one stop path they share
 * (trap -> stop -> front end loop -> resume).  Works from early boot
 * with static storage, and is the same code later on.
 */
#include "debug_core.h"
#include <asm/cpu_state.h>
#include <asm/processor.h>
#include <ekdb/ekdb.h>
#include <ekdb/fmt.h>
#include <ekdb/gdb_signal.h>
#include <ekdb/string.h>

static const struct dbg_frontend *frontend;
static bool dbg_enabled;
static bool dbg_gave_up;		/* dbg_give_up() turned it off: its int3s are out */
static volatile int dbg_master = -1;	/* CPU inside the debugger, -1 if none */
unsigned dbg_cpus_missing;		/* CPUs the last round-up could not stop */
static const char *volatile pending_panic;	/* ekdb_panic() on its way in */
/*
 * A break-in (Ctrl-C, sysrq-g) that came while another CPU held the debugger
 * for a moment without stopping the machine for the user (re-running a stale
 * breakpoint, releasing the others after a session): kept until the next
 * poll instead of being lost.  A session that reports a stop answers it.
 */
static volatile int pending_break = EKDB_BREAK_NONE;

bool ekdb_enabled(void)
{
	return dbg_enabled;
}

/**
 * kgdb_breakpoint - stop in the debugger right here (kgdbwait, sysrq-g).
 * A compiled-in break instruction: the trap finds no planted breakpoint
 * at it and reports a plain SIGTRAP stop; resuming goes on after it.
 */
__noinline void kgdb_breakpoint(void)
{
	arch_dbg_breakpoint();
}

/*
 * take_master - wait for the master role after a trap of this CPU's own.
 * While another CPU holds it, this CPU is one of the stopped ones with the
 * registers of its trap (as Linux's kgdb_cpu_enter), not those of this
 * wait loop: gdb sees it at its breakpoint.  Returns false when the trap
 * must not be reported: the master resumed this CPU alone (a step), or the
 * trap re-triggers by itself (@retry: a software or an execute breakpoint,
 * pc still on it) and the user may have removed it meanwhile.
 */
static bool take_master(unsigned cpu, struct pt_regs *regs, bool retry)
{
	struct dbg_cpu *c = &dbg_cpus[cpu];
	bool was_entering = c->entering;
	int expected = -1;

	WRITE_ONCE(c->entering, true);
	while (!__atomic_compare_exchange_n(&dbg_master, &expected, (int)cpu, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		expected = -1;
		if (dbg_roundup_wants(cpu)) {
			arch_hw_bp_disarm();
			c->regs = regs;
			arch_dbg_state_capture(&c->state, regs);
			__atomic_store_n(&c->stopped, true, __ATOMIC_RELEASE);
			dbg_cpu_hold(cpu, regs, false);
			if (retry || c->user_step || c->stepping_over) {
				WRITE_ONCE(c->entering, was_entering);
				return false;
			}
		}
		cpu_relax();
	}
	WRITE_ONCE(c->entering, was_entering);
	return true;
}

static bool dbg_enter_master(struct pt_regs *regs, struct ekdb_stop *stop);

static void release_master(void)
{
	__atomic_store_n(&dbg_master, -1, __ATOMIC_RELEASE);
}

static bool release_after_stepover;	/* a step over a breakpoint ends in "all go" */

void dbg_arm_step(struct dbg_cpu *c, struct pt_regs *regs)
{
	if (c->user_step || c->stepping_over)
		arch_dbg_step_prepare(regs, &c->step);
}

/*
 * The CPU the front end's resume is for (thread id = CPU + 1), or -1 when
 * it cannot be resumed alone (not a held CPU).
 */
static int resume_target(unsigned self, const struct ekdb_resume *r)
{
	u64 cpu = r->thread ? r->thread - 1 : self;

	if (cpu >= NR_CPUS || !dbg_cpus[cpu].online || !dbg_cpus[cpu].stopped)
		return -1;
	return (int)cpu;
}

/*
 * Plan the resume the front end asked for: stepping flags, the new pc,
 * gdb's breakpoints gone on detach.  Returns the CPU to resume alone with
 * the others held, or -1 when all resume; @skip: the software breakpoint
 * to leave out when the breakpoints go back in (the one a step runs).
 * Nothing is armed here: that is the last act of the stop (dbg_enter_master).
 */
static int plan_resume(unsigned self, const struct ekdb_resume *r, u64 *skip)
{
	bool only = r->action == EKDB_RESUME_STEP || r->only;
	int t = only ? resume_target(self, r) : (int)self;
	struct dbg_cpu *tc;

	if (t < 0)
		t = (int)self;	/* the front end checked; never leave nobody running */
	tc = &dbg_cpus[t];
	if (r->set_pc)
		arch_dbg_state_set_pc(&tc->state, r->pc);
	if (r->action == EKDB_RESUME_DETACH || r->action == EKDB_RESUME_KILL)
		dbg_bp_remove_owner(DBG_OWNER_GDB);
	tc->user_step = r->action == EKDB_RESUME_STEP;
	/* continuing from a breakpoint: step over it alone, then re-insert it */
	tc->stepping_over = !tc->user_step && dbg_bp_find_sw(arch_dbg_state_pc(&tc->state)) >= 0;
	release_after_stepover = tc->stepping_over && !only;
	*skip = 0;
	if (tc->user_step || tc->stepping_over) {
		*skip = arch_dbg_state_pc(&tc->state);	/* step the real instruction */
		only = true;
	}
	return only ? t : -1;
}

/*
 * A software breakpoint stop is only real if the breakpoint is still in
 * the table once this CPU holds the debugger: another CPU's session may
 * have removed (or disabled) it while this one waited in take_master().
 */
static bool sw_stop_is_stale(const struct pt_regs *regs, const struct ekdb_stop *stop)
{
	const struct dbg_bp *b;

	if (stop->reason != EKDB_STOP_SWBREAK)
		return false;
	b = dbg_bp_get(stop->bp_index);
	return !b || !b->enabled || b->type != EKDB_BP_SW || b->addr != arch_dbg_pc(regs);
}

/* The same for a hardware slot's hit: its entry gone, or another one now. */
static bool hw_stop_is_stale(const struct ekdb_stop *stop)
{
	const struct dbg_bp *b;

	if (stop->reason != EKDB_STOP_HWBREAK && stop->reason != EKDB_STOP_WATCH &&
	    stop->reason != EKDB_STOP_RWATCH && stop->reason != EKDB_STOP_AWATCH)
		return false;
	b = dbg_bp_get(stop->bp_index);
	return !b || !b->enabled || b->type == EKDB_BP_SW || b->addr != stop->watch_addr;
}

/*
 * dbg_give_up - the CPU that holds the debugger cannot go on with it (a
 * fault inside it, a trap it cannot recover from): it must not die with
 * the master role held, or every CPU it stopped would wait for ever.  The
 * debugger turns itself off (no stops, no break-in, no kgdbcon output),
 * takes every breakpoint out, releases the CPUs it holds (bounded wait) and
 * the master role; then the kernel is told why.  @stop: what happened.
 */
static void dbg_give_up(unsigned cpu, u64 pc, const struct ekdb_stop *stop)
{
	static char msg[160];

	WRITE_ONCE(dbg_enabled, false);
	dbg_gave_up = true;
	dbg_bp_all_off();
	dbg_cpus[cpu].stopped = false;
	dbg_release_cpus(cpu);
	release_master();
	ekdb_snprintf(msg, sizeof(msg), "ekdb: %s at %pS inside the debugger on CPU %u: "
		      "cannot recover; the debugger is off\n", dbg_stop_what(stop),
		      (void *)pc, cpu);
	dbg_kernel_warn(msg);
}

/*
 * A trap or fault on the CPU that holds the debugger: recovered (one of our
 * breakpoints, removed: true, execution goes on), or the debugger gives up.
 * A fault (an oops in the debugger or in a hook) then takes the kernel's
 * oops path (false); anything else panics through the kernel, or, without
 * a kernel panic, takes the caller's default too.
 */
static bool dbg_reenter(unsigned cpu, struct pt_regs *regs, const struct ekdb_stop *stop,
			bool running)
{
	if (dbg_reenter_recover(regs, stop, running))
		return true;
	dbg_give_up(cpu, arch_dbg_pc(regs), stop);
	if (stop->reason == EKDB_STOP_PANIC && stop->message)
		dbg_kernel_panic(stop->message);	/* panic() in a driver op: its own words */
	else if (stop->reason != EKDB_STOP_FAULT)
		dbg_kernel_panic("ekdb: recursive entry to the debugger");
	return false;
}

/*
 * Does this CPU run the debugger's code while the kernel runs (the tick's
 * break-in poll, a kgdbcon packet)?  A trap there is a re-entry too: the
 * driver op it interrupted is half-way through a transaction on the line
 * a stop would talk on (issue 33: `break late_read` with kgdbdbgp=0 hung
 * the machine from the tick's poll).
 */
static bool running_debugger_code(const struct dbg_cpu *c)
{
	return READ_ONCE(c->polling) || READ_ONCE(c->console_pkt);
}

bool ekdb_cpu_in_debugger(unsigned cpu)
{
	const struct dbg_cpu *c = &dbg_cpus[cpu < NR_CPUS ? cpu : 0];

	if (cpu >= NR_CPUS)
		return false;
	return READ_ONCE(dbg_master) == (int)cpu || READ_ONCE(c->entering) ||
	       READ_ONCE(c->stopped) || running_debugger_code(c);
}

/*
 * dbg_enter - the stop path.  Returns true when the trap was consumed
 * (execution resumes from @regs), false when the debugger is not there
 * (or gave up) and the caller's default applies.
 */
static bool dbg_enter(struct pt_regs *regs, struct ekdb_stop *stop)
{
	unsigned cpu = dbg_this_cpu();
	bool retry = stop->reason == EKDB_STOP_SWBREAK || stop->reason == EKDB_STOP_HWBREAK;

	if (!dbg_enabled || !frontend)
		return false;
	if (dbg_master == (int)cpu && dbg_cpus[cpu].stepping_over) {
		/*
		 * The instruction stepped over a breakpoint trapped (a fault): the
		 * master role and the held CPUs are still this stop's, so it is a
		 * stop of its own, not a re-entry.
		 */
		dbg_cpus[cpu].stepping_over = false;
		arch_dbg_step_cancel(regs, &dbg_cpus[cpu].step);
		return dbg_enter_master(regs, stop);
	}
	if (dbg_master == (int)cpu)
		return dbg_reenter(cpu, regs, stop, false);
	if (!take_master(cpu, regs, retry))
		return true;	/* resumed without a report: retry or step */
	if (running_debugger_code(&dbg_cpus[cpu]) && READ_ONCE(dbg_enabled)) {
		/*
		 * In the poll or a kgdbcon packet: recovered (or given up) like a
		 * trap inside a stop, with the master role held meanwhile so no
		 * session changes the table under the recovery; never a stop.
		 * One removed by the session this CPU waited for: run on.
		 */
		if (sw_stop_is_stale(regs, stop) || hw_stop_is_stale(stop)) {
			release_master();
			return true;
		}
		if (!dbg_reenter(cpu, regs, stop, true))
			return false;	/* gave up: the master role went with it */
		release_master();
		return true;
	}
	if (!READ_ONCE(dbg_enabled)) {
		/* the master gave up meanwhile (its breakpoints are out): re-run a
		 * breakpoint, go on after a watchpoint, the default for the rest */
		release_master();
		return retry || stop->reason == EKDB_STOP_WATCH ||
		       stop->reason == EKDB_STOP_RWATCH || stop->reason == EKDB_STOP_AWATCH;
	}
	if (sw_stop_is_stale(regs, stop)) {
		/* removed by the session this CPU waited for: run the original byte */
		release_master();
		return true;
	}
	return dbg_enter_master(regs, stop);
}

#ifdef EKDB_PROBE_DELAY_RELEASE
/*
 * Probe build only (tests/integration/test_transport_race.py): the master
 * holds the role 2 s after it let the others go, the moment in which input
 * that asks for the debugger finds it busy.
 */
#include <asm/tsc_early.h>
static void probe_delay_release(void)
{
	u64 t0 = early_now_us();

	while (early_now_us() - t0 < 2000000)
		cpu_relax();
}
#else
static inline void probe_delay_release(void) { }
#endif

/*
 * kgdbcon from a running CPU (core/frontend.c): Linux sends nothing while
 * a CPU is in the debugger (kgdb_active), and so does ekdb; a packet begun
 * before is finished before the master writes (the round-up waits for the
 * sender, which parks at the packet's end; a CPU it missed is waited for,
 * bounded, in console_quiet()).
 */
static volatile int console_senders;

bool dbg_console_begin(void)
{
	struct dbg_cpu *c = &dbg_cpus[dbg_this_cpu()];

	WRITE_ONCE(c->console_pkt, true);
	__atomic_add_fetch(&console_senders, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&dbg_master, __ATOMIC_SEQ_CST) < 0)
		return true;
	dbg_console_end();
	return false;
}

void dbg_console_end(void)
{
	unsigned cpu = dbg_this_cpu();

	WRITE_ONCE(dbg_cpus[cpu].console_pkt, false);
	__atomic_sub_fetch(&console_senders, 1, __ATOMIC_SEQ_CST);
	if (READ_ONCE(dbg_cpus[cpu].park_deferred))
		dbg_console_park_deferred(cpu);
}

#define CONSOLE_QUIET_SPINS	400000000UL

/* Other CPUs' packets in flight end (this CPU's own, cut by an NMI stop, cannot). */
static void console_quiet(unsigned cpu)
{
	int own = READ_ONCE(dbg_cpus[cpu].console_pkt) ? 1 : 0;

	for (unsigned long i = 0; i < CONSOLE_QUIET_SPINS &&
	     __atomic_load_n(&console_senders, __ATOMIC_SEQ_CST) > own; i++)
		cpu_relax();
}

/* The stop path once this CPU holds the master role. */
static bool dbg_enter_master(struct pt_regs *regs, struct ekdb_stop *stop)
{
	unsigned cpu = dbg_this_cpu();
	struct dbg_cpu *c = &dbg_cpus[cpu];
	struct ekdb_resume r;
	u64 skip;
	int alone;

	arch_hw_bp_disarm();	/* nothing fires on this CPU while it is the master */
	dbg_cpus_missing = dbg_roundup_cpus(cpu);	/* the whole machine stops */
	console_quiet(cpu);	/* no kgdbcon packet left half sent on the line */
	dbg_bp_uninstall_all();
	c->online = true;
	c->regs = regs;
	arch_dbg_state_capture(&c->state, regs);
	c->stopped = true;
	dbg_target_select_cpu(cpu);
	stop->thread = (u64)cpu + 1;
	dbg_bp_hit(stop->bp_index);
	dbg_display_enter();
	dbg_transports_pre();
	r = frontend->run(stop, true);
	/* the user saw this stop: an interrupt asked for until now is answered */
	__atomic_store_n(&pending_break, EKDB_BREAK_NONE, __ATOMIC_RELAXED);
	alone = plan_resume(cpu, &r, &skip);
	dbg_transports_post();
	dbg_display_leave();
	if (!READ_ONCE(dbg_enabled))
		return true;	/* a hook made the debugger give up: nothing is left to arm */
	/*
	 * Arm last: from here until the CPUs go only debugger code runs, so no
	 * breakpoint can fire inside the stop path (the hooks above run kernel
	 * code).  One that still does is recovered: dbg_reenter.
	 */
	dbg_bp_install_all(skip);
	if (alone >= 0 && alone != (int)cpu) {
		/*
		 * Another CPU steps or runs alone: this one joins the held ones.
		 * One that steps over a breakpoint takes the master role with it
		 * (dbg_trap_debug gives it back once the breakpoint is in again):
		 * a CPU the round-up missed must not start a stop of its own, nor
		 * a release, while the breakpoint is out (issue 19).
		 */
		if (dbg_cpus[alone].stepping_over)
			__atomic_store_n(&dbg_master, alone, __ATOMIC_RELEASE);
		else
			release_master();
		__atomic_store_n(&dbg_cpus[alone].go, true, __ATOMIC_RELEASE);
		dbg_cpu_hold(cpu, regs, true);
		return true;
	}
	arch_dbg_state_writeback(&c->state, regs);
	dbg_arm_step(c, regs);
	arch_dbg_resume_no_rehit(regs);	/* do not re-hit an execute breakpoint at pc */
	c->stopped = false;
	if (alone < 0)
		dbg_release_cpus(cpu);	/* each loads the hardware set as it leaves */
	/*
	 * Stepping over a breakpoint (the others held): keep the master role
	 * until the step is done and the breakpoint back (dbg_trap_debug), so no
	 * CPU the round-up missed, or one let go by the release that follows
	 * the step, starts a stop of its own in between (Linux keeps its
	 * single-stepping CPU the only one that may enter).
	 */
	if (!c->stepping_over) {
		probe_delay_release();
		release_master();
	}
	return true;
}

/* A breakpoint instruction at @addr trapped (pc past it): see asm/debug_trap.h. */
bool dbg_trap_swbreak(struct pt_regs *regs, u64 addr)
{
	struct ekdb_stop stop = { .signal = GDB_SIGTRAP, .vector = (int)arch_dbg_trap_vector(regs),
				  .bp_index = -1 };
	int idx;
	const struct dbg_bp *b;

	if (arch_dbg_park_trap_at(addr))
		return true;	/* dbg_console_park_deferred's: dbg_trap_end parks this CPU */
	idx = dbg_bp_find_sw(addr);
	b = dbg_bp_get(idx);
	if (READ_ONCE(dbg_gave_up) && !arch_dbg_break_insn_at(addr)) {
		/* taken out as the debugger gave up, while this CPU was on its way */
		arch_dbg_set_pc(regs, addr);
		return true;
	}
	if (b) {
		/*
		 * One of ours, whatever its "installed" flag says right now
		 * (another CPU may be putting breakpoints in or taking them
		 * out): report the breakpoint address, never the pc past it.
		 */
		arch_dbg_set_pc(regs, addr);
		if (!b->enabled && dbg_master != (int)dbg_this_cpu())
			return dbg_enabled;	/* being disabled: re-run */
		stop.reason = EKDB_STOP_SWBREAK;
		stop.bp_index = idx;
	} else if (arch_dbg_break_insn_at(addr)) {
		stop.reason = EKDB_STOP_ENTRY;	/* compiled in: kgdb_breakpoint() */
		if (pending_panic) {
			stop.reason = EKDB_STOP_PANIC;
			stop.message = pending_panic;
			pending_panic = NULL;
		}
	} else {
		/* our breakpoint was taken out while this CPU was on its way: re-run */
		arch_dbg_set_pc(regs, addr);
		return dbg_enabled;
	}
	return dbg_enter(regs, &stop);
}

/* Hardware slot @slot hit (-1: none), a step done (@stepped): see asm/debug_trap.h. */
bool dbg_trap_debug(struct pt_regs *regs, int slot, bool stepped)
{
	struct dbg_cpu *c = &dbg_cpus[dbg_this_cpu()];
	struct ekdb_stop stop = { .signal = GDB_SIGTRAP, .vector = (int)arch_dbg_trap_vector(regs),
				  .bp_index = -1 };

	if (!READ_ONCE(dbg_enabled) && slot >= 0) {
		/* a slot of a debugger that gave up: load the (empty) armed set */
		arch_hw_bp_load();
		arch_dbg_resume_no_rehit(regs);
		return true;
	}
	arch_dbg_step_finish(regs, &c->step);	/* nothing when no step was prepared */
	if (c->stepping_over) {
		c->stepping_over = false;
		/* stepped off the breakpoint (the others held): put it back, let
		 * the others go, then the master role kept for the step */
		dbg_bp_install_all(0);
		if (release_after_stepover)
			dbg_release_cpus(dbg_this_cpu());
		if (dbg_master == (int)dbg_this_cpu())
			release_master();
		if (slot < 0)
			return true;
	}
	if (slot >= 0) {
		int idx = dbg_bp_find_slot((unsigned)slot);
		const struct dbg_bp *b = dbg_bp_get(idx);

		if (!b) {
			/* a slot freed since this CPU loaded it: reload, and only a
			 * pending user step matters */
			arch_hw_bp_load();
			if (!c->user_step) {
				arch_dbg_resume_no_rehit(regs);
				return true;
			}
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
	} else if (c->user_step && stepped) {
		stop.reason = EKDB_STOP_STEP;
	} else {
		return false;	/* not ours */
	}
enter:
	c->user_step = false;
	return dbg_enter(regs, &stop);
}

/*
 * An oops: stop so the user can look.  Returns true only when the user
 * moved the pc (the kernel then resumes there); otherwise the oops goes on.
 */
bool ekdb_handle_die(const char *what, struct pt_regs *regs)
{
	struct ekdb_stop stop = { .reason = EKDB_STOP_FAULT, .vector = (int)arch_dbg_trap_vector(regs),
				  .error_code = arch_dbg_trap_error(regs), .message = what, .bp_index = -1 };
	u64 pc = arch_dbg_pc(regs);

	stop.signal = arch_dbg_fault_signal(arch_dbg_trap_vector(regs));
	if (!dbg_enter(regs, &stop))
		return false;
	return arch_dbg_pc(regs) != pc;
}

/*
 * An NMI that is not a round-up: stop there, like Linux's kdb "due to
 * NonMaskable Interrupt".  Returns 1 when handled, 0 when the debugger is
 * off (the kernel's default applies), -1 when another CPU is entering the
 * debugger right now (QEMU's inject-nmi hits every CPU): the caller waits
 * to be rounded up.
 */
int dbg_nmi_stop(struct pt_regs *regs)
{
	struct ekdb_stop stop = { .reason = EKDB_STOP_NMI, .signal = GDB_SIGTRAP,
				  .vector = (int)arch_dbg_trap_vector(regs), .bp_index = -1 };
	int cpu = (int)dbg_this_cpu(), expected = -1;

	if (!dbg_enabled || !frontend)
		return 0;
	if (dbg_master == cpu)
		return 1;	/* an NMI while this CPU is in the debugger: nothing to do */
	if (!__atomic_compare_exchange_n(&dbg_master, &expected, cpu, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return -1;
	return dbg_enter_master(regs, &stop) ? 1 : 0;
}

/*
 * A driver's input asked for the debugger (from its IRQ, or the tick's poll).
 * Returns true when the request is taken: the stop happened, or, for a user's
 * interrupt (Ctrl-C, sysrq-g) while another CPU holds the debugger, it is
 * kept for the next ekdb_poll_break().  So is a gdb packet ('$'): its driver
 * keeps the '$' and the bytes behind it for the debugger's getc (issue 19:
 * they went to the console shell, "$qSupported...: command not found").
 */
bool ekdb_break_in(struct pt_regs *regs, int reason)
{
	struct ekdb_stop stop = { .reason = EKDB_STOP_INTERRUPT, .signal = GDB_SIGINT,
				  .vector = -1, .bp_index = -1 };

	if (!dbg_enabled || reason == EKDB_BREAK_NONE)
		return false;
	if (dbg_master >= 0) {
		if (dbg_master == (int)dbg_this_cpu())
			return false;
		/* a gdb packet too: its driver keeps the '$' (and what follows)
		 * for the stop the next poll makes; never for the console */
		__atomic_store_n(&pending_break, reason, __ATOMIC_RELAXED);
		return true;
	}
	if (reason == EKDB_BREAK_SYSRQ) {
		stop.reason = EKDB_STOP_SYSRQ;	/* kdb: "due to Keyboard Entry" */
		stop.signal = GDB_SIGTRAP;
	}
	return dbg_enter(regs, &stop);
}

#ifdef EKDB_PROBE_DELAY_POLL
/*
 * Probe build only (tests/integration/test_transport_race.py): a poll that
 * read a gdb packet's '$' says so and dwells 4 s before it asks for the
 * stop, while the takeover on the other CPU (which dwells 2 s first,
 * core/transport.c) goes on if the registry lets it.
 */
#include <asm/tsc_early.h>
static void probe_delay_poll(int why)
{
	u64 t0 = early_now_us();

	if (why != EKDB_BREAK_GDB)
		return;
	dbg_kernel_warn("ekdb probe: the break-in poll read a gdb packet's '$'\n");
	while (early_now_us() - t0 < 4000000)
		cpu_relax();
}
#else
static inline void probe_delay_poll(int why) { }
#endif

#ifdef EKDB_PROBE_DELAY_DEFER
/*
 * Probe build only (test_transport_race.py): the first poll that reads a
 * gdb packet's '$' leaves what ekdb_break_in leaves when another CPU holds
 * the debugger (the break-in pending for the next tick, the '$' kept in
 * the transport), lets the registry go and dwells 3 s, so the takeover the
 * other CPU is about to make (it dwells 2 s first, core/transport.c, and
 * the poll read the line inside that) comes before the next tick's stop.
 * true: this poll is over.
 */
#include <asm/tsc_early.h>
static bool probe_defer_poll(int why)
{
	static bool deferred;
	struct ekdb_transport *was = dbg_transport_at(0);
	u64 t0;

	if (why != EKDB_BREAK_GDB || deferred)
		return false;
	deferred = true;
	__atomic_store_n(&pending_break, why, __ATOMIC_RELAXED);
	dbg_transports_poll_unlock();
	dbg_kernel_warn("ekdb probe: the break-in poll read a gdb packet's '$': deferred\n");
	t0 = early_now_us();
	while (early_now_us() - t0 < 3000000)
		cpu_relax();
	dbg_kernel_warn(dbg_transport_at(0) != was ? "ekdb probe: taken over before the stop\n" :
			"ekdb probe: no takeover before the stop\n");
	return true;
}
#else
static inline bool probe_defer_poll(int why) { return false; }
#endif

/*
 * From the timer tick: transports without an interrupt of their own are
 * polled.  The registry lock is held from the read to the end of the stop
 * it asks for: a '$' the poll took (kept in the early transport for getc)
 * must reach this stop, not be exported as console input by a takeover on
 * another CPU in between (issue 19); so must a break-in kept from before
 * (pending_break: a '$' may be kept with it).  A busy registry: nothing
 * this tick, the break-in stays pending.
 */
bool ekdb_poll_break(struct pt_regs *regs)
{
	bool taken;
	int why;

	if (!dbg_enabled || dbg_master >= 0 || !dbg_transports_poll_lock())
		return false;
	why = __atomic_exchange_n(&pending_break, EKDB_BREAK_NONE, __ATOMIC_RELAXED);
	if (why == EKDB_BREAK_NONE) {
		struct dbg_cpu *c = &dbg_cpus[dbg_this_cpu()];

		WRITE_ONCE(c->polling, true);	/* a trap in a driver op: dbg_enter recovers */
		why = dbg_transports_poll_break();
		WRITE_ONCE(c->polling, false);
	}
	dbg_reenter_flush();	/* no driver op under way now: a recovery's warning */
	probe_delay_poll(why);
	if (probe_defer_poll(why))
		return false;
	taken = ekdb_break_in(regs, why);
	dbg_transports_poll_unlock();
	return taken;
}

/*
 * ekdb_panic - panic() enters the debugger first (Linux's kgdb_panic):
 * a compiled-in break instruction whose stop says "panic" and carries the message.
 * kdb's go then refuses to continue (a panic cannot return).
 */
void ekdb_panic(const char *msg)
{
	struct ekdb_stop stop = { .reason = EKDB_STOP_PANIC, .bp_index = -1, .message = msg };
	unsigned cpu = dbg_this_cpu();

	if (!dbg_enabled)
		return;
	if (dbg_master == (int)cpu) {
		/* panic() inside the debugger (a hook): do not halt holding the CPUs */
		dbg_give_up(cpu, (u64)__builtin_return_address(0), &stop);
		return;
	}
	pending_panic = msg ? msg : "";
	kgdb_breakpoint();
	pending_panic = NULL;
}

/*
 * Around the arch's debug trap handlers (dbg_trap_begin .. dbg_trap_end):
 * a round-up NMI that lands while this CPU runs debugger code for its own
 * trap is swallowed (dbg_cpu_park sees ->entering), and the CPU stops with
 * the registers of its trap instead: in take_master, or here on the way
 * out.  gdb never sees a thread whose pc is inside the debugger.
 */
void dbg_trap_begin(void)
{
	WRITE_ONCE(dbg_cpus[dbg_this_cpu()].entering, true);
}

bool dbg_trap_end(struct pt_regs *regs, bool handled)
{
	unsigned cpu = dbg_this_cpu();
	struct dbg_cpu *c = &dbg_cpus[cpu];

	if (handled && dbg_roundup_wants(cpu) && !READ_ONCE(c->stopped)) {
		arch_hw_bp_disarm();
		c->regs = regs;
		arch_dbg_state_capture(&c->state, regs);
		__atomic_store_n(&c->stopped, true, __ATOMIC_RELEASE);
		dbg_cpu_hold(cpu, regs, false);
	}
	WRITE_ONCE(c->entering, false);
	return handled;
}

void dbg_core_init(const struct dbg_frontend *fe)
{
	frontend = fe;
	arch_dbg_traps_init();	/* debug traps, breakpoint traps, NMIs */
	dbg_cpus[dbg_this_cpu()].online = true;
	dbg_gave_up = false;
	dbg_enabled = true;
}

void dbg_core_exit(void)
{
	dbg_enabled = false;
	frontend = NULL;
}
