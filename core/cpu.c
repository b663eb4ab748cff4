/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpu.c - the debugger's one per-CPU array, "which CPU am I", and the
 * round-up: when one CPU stops in the debugger, every other online CPU is
 * sent an NMI and parks in dbg_cpu_park() with its registers captured, so
 * the whole machine is stopped and gdb sees every CPU as a thread.
 */
#include "debug_core.h"
#include <asm/cpu_state.h>
#include <asm/processor.h>
#include <ekdb/ekdb.h>

/* How long the master waits for the others to arrive or leave (pause loops). */
#define ROUNDUP_SPINS	400000000UL

struct dbg_cpu dbg_cpus[NR_CPUS];
static unsigned (*cpu_id_fn)(void);
static bool (*roundup_fn)(void);	/* NMI to all other CPUs */
static volatile bool roundup_active;	/* master wants everyone parked */
static volatile int roundup_master = -1;

void ekdb_set_cpu_id_fn(unsigned (*fn)(void))
{
	cpu_id_fn = fn;
}

unsigned dbg_this_cpu(void)
{
	unsigned c = cpu_id_fn ? cpu_id_fn() : 0;

	return c < NR_CPUS ? c : 0;
}

/* Called on the AP itself as it comes up: it carries the armed set from now on. */
void ekdb_cpu_online(unsigned cpu)
{
	if (cpu >= NR_CPUS)
		return;
	arch_hw_bp_load();
	dbg_cpus[cpu].online = true;
}

unsigned dbg_cpu_count(void)
{
	unsigned n = 1;

	for (unsigned c = 0; c < NR_CPUS; c++)
		if (dbg_cpus[c].online)
			n = c + 1;
	return n;
}

void ekdb_set_roundup_fn(bool (*fn)(void))
{
	roundup_fn = fn;
}

static unsigned others_online(unsigned self)
{
	unsigned n = 0;

	for (unsigned c = 0; c < NR_CPUS; c++)
		n += c != self && dbg_cpus[c].online;
	return n;
}

static unsigned others_parked(unsigned self)
{
	unsigned n = 0;

	for (unsigned c = 0; c < NR_CPUS; c++)
		n += c != self && dbg_cpus[c].online && READ_ONCE(dbg_cpus[c].stopped);
	return n;
}

/*
 * NMI handler: a CPU the master rounded up parks here until the master
 * resumes.  Its registers are captured so the debugger can show them.
 * Any other NMI (an NMI button, QEMU's inject-nmi) stops in the debugger
 * when it is on; a round-up NMI that arrives late is swallowed.
 */
bool dbg_cpu_park(struct pt_regs *regs)
{
	unsigned self = dbg_this_cpu();
	struct dbg_cpu *c = &dbg_cpus[self];

	if (READ_ONCE(c->entering)) {
		/* trapped and waiting for the master role: it stops there, with
		 * the registers of its trap (take_master) */
		__atomic_store_n(&c->nmi_pending, false, __ATOMIC_RELEASE);
		return true;
	}
	if (READ_ONCE(c->console_pkt) && dbg_roundup_wants(self)) {
		/* mid kgdbcon packet: it finishes the packet, then parks
		 * (dbg_console_park_deferred) */
		WRITE_ONCE(c->park_deferred, true);
		__atomic_store_n(&c->nmi_pending, false, __ATOMIC_RELEASE);
		return true;
	}
	for (;;) {
		int r;

		if (READ_ONCE(roundup_active) && READ_ONCE(roundup_master) != (int)self)
			break;	/* a round-up: park */
		if (__atomic_exchange_n(&c->nmi_pending, false, __ATOMIC_ACQ_REL))
			return true;	/* a round-up NMI that came after the round-up */
		r = dbg_nmi_stop(regs);
		if (r >= 0)
			return r > 0;
		cpu_relax();	/* another CPU is entering: it rounds this one up */
	}
	__atomic_store_n(&c->nmi_pending, false, __ATOMIC_RELEASE);
	if (READ_ONCE(c->stopped))
		return true;	/* already held (in a trap of its own) */
	arch_hw_bp_disarm();	/* like the master's: not armed while stopped */
	c->regs = regs;
	arch_dbg_state_capture(&c->state, regs);
	__atomic_store_n(&c->stopped, true, __ATOMIC_RELEASE);
	dbg_cpu_hold(self, regs, false);
	return true;
}

void dbg_cpu_hold(unsigned self, struct pt_regs *regs, bool trapped)
{
	struct dbg_cpu *c = &dbg_cpus[self];

	while (READ_ONCE(roundup_active) && !__atomic_load_n(&c->go, __ATOMIC_ACQUIRE))
		cpu_relax();
	WRITE_ONCE(c->go, false);
	arch_dbg_state_writeback(&c->state, regs);
	dbg_arm_step(c, regs);
	if (trapped)
		arch_dbg_resume_no_rehit(regs);
	arch_hw_bp_load();	/* Linux: correct_hw_break on every CPU leaving */
	__atomic_store_n(&c->stopped, false, __ATOMIC_RELEASE);
}

/*
 * The round-up deferred by a kgdbcon packet in flight, now that the packet
 * is whole: park through a break instruction of its own
 * (arch_dbg_park_trap): dbg_trap_swbreak knows it, and dbg_trap_end parks
 * the CPU with that trap's frame, the one it resumes from.  So the
 * debugger shows where the CPU really is (at the end of its packet, in
 * dbg_console_end), and register writes to it and a step asked for it
 * take effect (issue 19: it parked on a copy of the NMI's frame, a point
 * it had already left, and lost them).
 */
void dbg_console_park_deferred(unsigned self)
{
	struct dbg_cpu *c = &dbg_cpus[self];

	if (!__atomic_exchange_n(&c->park_deferred, false, __ATOMIC_ACQ_REL) ||
	    !dbg_roundup_wants(self) || READ_ONCE(c->stopped))
		return;
	arch_dbg_park_trap();
}

/*
 * For a kernel whose NMI handlers are a chain (Linux's NMI_LOCAL): is this
 * NMI the debugger's round-up (sent to this CPU and not taken yet, or a
 * round-up in force)?  Only then is it the debugger's to take.
 */
bool ekdb_nmi_is_roundup(void)
{
	unsigned self = dbg_this_cpu();

	return READ_ONCE(dbg_cpus[self].nmi_pending) || dbg_roundup_wants(self);
}

bool dbg_roundup_wants(unsigned self)
{
	return READ_ONCE(roundup_active) && READ_ONCE(roundup_master) != (int)self;
}

/* Stop every other online CPU; returns how many did not come (bounded wait). */
unsigned dbg_roundup_cpus(unsigned self)
{
	unsigned want = others_online(self);

	if (READ_ONCE(roundup_active)) {
		/* the others are still held from the stop before (a step) */
		roundup_master = (int)self;
		return want - others_parked(self);
	}
	if (!want || !roundup_fn)
		return want;
	roundup_master = (int)self;
	for (unsigned c = 0; c < NR_CPUS; c++)
		if (c != self && dbg_cpus[c].online && !dbg_cpus[c].stopped)
			__atomic_store_n(&dbg_cpus[c].nmi_pending, true, __ATOMIC_RELEASE);
	__atomic_store_n(&roundup_active, true, __ATOMIC_RELEASE);
	roundup_fn();
	for (unsigned long i = 0; i < ROUNDUP_SPINS && others_parked(self) < want; i++)
		cpu_relax();
	return want - others_parked(self);
}

/* Let the parked CPUs go and wait (bounded) until they have left. */
void dbg_release_cpus(unsigned self)
{
	if (!READ_ONCE(roundup_active))
		return;
	__atomic_store_n(&roundup_active, false, __ATOMIC_RELEASE);
	for (unsigned long i = 0; i < ROUNDUP_SPINS && others_parked(self); i++)
		cpu_relax();
	roundup_master = -1;
}
