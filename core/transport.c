/* SPDX-License-Identifier: GPL-2.0 */
/*
 * transport.c - the registry of transports (kgdb_io analogue, but several
 * at once): input is polled from all of them, output goes to all of them.
 */
#include "debug_core.h"
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <asm/processor.h>

#define EKDB_MAX_TRANSPORTS 8

static struct ekdb_transport *transports[EKDB_MAX_TRANSPORTS];
static unsigned poll_next;

/*
 * The registry lock: a change of the registry (register, unregister, the
 * takeover at the handoff) against the tick's break-in poll, which runs
 * on whichever CPU keeps time and reads (and keeps) bytes of the early
 * transports.  Without it a poll on another CPU could read bytes from the
 * old transport after its state was exported: stranded there (issue 19).
 * The poll only tries it (a busy registry: that tick polls nothing, the
 * bytes stay in the device) and holds it until the stop it asks for is
 * over (ekdb_poll_break: a '$' it read is the debugger's, and no takeover
 * may export it to the console in between); a change waits for a poll in
 * progress (a round-up parks the waiting CPU meanwhile).  The stop path
 * (dbg_chan) does not take it: every other CPU is parked then, perhaps
 * holding it.
 */
static u8 reg_lock;

static void reg_lock_take(void)
{
	while (__atomic_test_and_set(&reg_lock, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static bool reg_lock_try(void)
{
	return !__atomic_test_and_set(&reg_lock, __ATOMIC_ACQUIRE);
}

static void reg_lock_drop(void)
{
	__atomic_clear(&reg_lock, __ATOMIC_RELEASE);
}

int dbg_transport_register(struct ekdb_transport *t)
{
	u64 flags = local_irq_save();
	int err = -EKDB_ENOSPC;

	reg_lock_take();
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] == t)
			err = -EKDB_EEXIST;
	for (unsigned i = 0; err == -EKDB_ENOSPC && i < EKDB_MAX_TRANSPORTS; i++) {
		if (!transports[i]) {
			transports[i] = t;
			err = 0;
		}
	}
	reg_lock_drop();
	local_irq_restore(flags);
	return err;
}

void dbg_transport_unregister(struct ekdb_transport *t)
{
	u64 flags = local_irq_save();

	reg_lock_take();
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] == t)
			transports[i] = NULL;
	reg_lock_drop();
	local_irq_restore(flags);
}

/* Is one of the transports a scripted peer (no backlog ever: struct ekdb_transport's scripted)? */
bool dbg_transports_scripted(void)
{
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] && transports[i]->scripted)
			return true;
	return false;
}

unsigned dbg_transport_count(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		n += transports[i] != NULL;
	return n;
}

/*
 * Round-robin so one chatty transport cannot starve another.  Returns
 * bytes and, for the break-in poll, EKDB_CHAR_SYSRQ() codes.
 */
int dbg_chan_poll(void)
{
	for (unsigned k = 0; k < EKDB_MAX_TRANSPORTS; k++) {
		struct ekdb_transport *t = transports[(poll_next + k) % EKDB_MAX_TRANSPORTS];
		int c;

		if (!t || !t->getc)
			continue;
		c = t->getc(t);
		if (c >= 0) {
			poll_next = (poll_next + k + 1) % EKDB_MAX_TRANSPORTS;
			return c;
		}
	}
	return EKDB_NO_CHAR;
}

static void chan_putc(void *arg, u8 c)
{
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] && transports[i]->putc)
			transports[i]->putc(transports[i], c);
}

static void chan_flush(void *arg)
{
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] && transports[i]->flush)
			transports[i]->flush(transports[i]);
}

/* The debugger's input: bytes only (a sysrq key while stopped means nothing). */
static int chan_getc(void *arg)
{
	int c;

	do
		c = dbg_chan_poll();
	while (c > 0xff);
	return c;
}

/*
 * One empty poll of the channel polls every transport once, so a pause is
 * as many polls as the slowest-to-read transport says (the fewest).
 */
static unsigned long chan_quiet_polls(void *arg)
{
	unsigned long n = EKDB_QUIET_POLLS;

	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] && transports[i]->getc && transports[i]->quiet_polls)
			n = MIN(n, transports[i]->quiet_polls);
	return n;
}

const struct ekdb_chan dbg_chan = {
	.getc = chan_getc,
	.putc = chan_putc,
	.flush = chan_flush,
	.quiet_polls = chan_quiet_polls,
	.drop_stale = true,
};

void dbg_transports_pre(void)
{
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] && transports[i]->pre_exception)
			transports[i]->pre_exception(transports[i]);
}

void dbg_transports_post(void)
{
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] && transports[i]->post_exception)
			transports[i]->post_exception(transports[i]);
}

/* Output to the byte lines only (not screen consoles): gdb packets. */
void dbg_chan_putc_lines(u8 c)
{
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] && transports[i]->putc && !transports[i]->is_console)
			transports[i]->putc(transports[i], c);
}

/* The same for @n bytes: one write() call where the transport has one. */
void dbg_chan_write_lines(const u8 *buf, size_t n)
{
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++) {
		struct ekdb_transport *t = transports[i];

		if (!t || !t->putc || t->is_console)
			continue;
		if (t->write) {
			t->write(t, buf, n);
			continue;
		}
		for (size_t k = 0; k < n; k++)
			t->putc(t, buf[k]);
	}
}

/* Output to the screen consoles only (kdb text of a successor debugger); how many. */
unsigned dbg_chan_write_consoles(const u8 *buf, size_t n)
{
	unsigned count = 0;

	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++) {
		struct ekdb_transport *t = transports[i];

		if (!t || !t->putc || !t->is_console)
			continue;
		count++;
		if (t->write) {
			t->write(t, buf, n);
			continue;
		}
		for (size_t k = 0; k < n; k++)
			t->putc(t, buf[k]);
	}
	return count;
}

struct ekdb_transport *dbg_transport_find(const char *name)
{
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] && transports[i]->name && !strcmp(transports[i]->name, name))
			return transports[i];
	return NULL;
}

struct ekdb_transport *dbg_transport_find_dev(const char *dev)
{
	for (unsigned i = 0; dev && i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] && transports[i]->dev && !strcmp(transports[i]->dev, dev))
			return transports[i];
	return NULL;
}

struct ekdb_transport *dbg_transport_at(unsigned i)
{
	return i < EKDB_MAX_TRANSPORTS ? transports[i] : NULL;
}

#if defined(EKDB_PROBE_DELAY_TAKEOVER) || defined(EKDB_PROBE_DELAY_POLL) || \
    defined(EKDB_PROBE_DELAY_DEFER)
/*
 * Probe builds only (tests/integration/test_transport_race.py): the
 * takeover dwells 2 s with interrupts off, so the other CPU takes the
 * tick over and polls meanwhile.  TAKEOVER: between the export and the
 * swap (the registry lock held); POLL and DEFER: before it takes the lock
 * (the other CPU's poll, which dwells too, ekdb_poll_break, reads the line).
 */
#include <asm/tsc_early.h>
static void probe_dwell(void)
{
	u64 t0 = early_now_us();

	while (early_now_us() - t0 < 2000000)
		cpu_relax();
}
#endif
#ifdef EKDB_PROBE_DELAY_TAKEOVER
#define probe_delay_takeover()	probe_dwell()
#else
#define probe_delay_takeover()	do { } while (0)
#endif
#if defined(EKDB_PROBE_DELAY_DEFER)
/* DEFER: says so first, so the test writes its packet inside the dwell */
#define probe_delay_takeover_lock()	\
	do { dbg_kernel_warn("ekdb probe: the takeover dwells\n"); probe_dwell(); } while (0)
#elif defined(EKDB_PROBE_DELAY_POLL)
#define probe_delay_takeover_lock()	probe_dwell()
#else
#define probe_delay_takeover_lock()	do { } while (0)
#endif

/*
 * dbg_transport_takeover - @new (a running kernel's driver) succeeds @old
 * (the early polled one) for the same device: @old's state goes to @new,
 * @new takes @old's place in the registry with interrupts off (no moment
 * with neither), then @old is retired.  0 or -errno (@old stays).
 */
int dbg_transport_takeover(struct ekdb_transport *old, struct ekdb_transport *new)
{
	struct ekdb_transport_state st;
	unsigned i;
	u64 flags;
	int err = 0;

	if (!old || !new || old->kind != new->kind)
		return -EKDB_EINVAL;
	for (i = 0; i < EKDB_MAX_TRANSPORTS && transports[i] != old; i++)
		;
	if (i == EKDB_MAX_TRANSPORTS)
		return -EKDB_ENOENT;
	memset(&st, 0, sizeof(st));
	st.kind = old->kind;
	flags = local_irq_save();
	probe_delay_takeover_lock();
	reg_lock_take();	/* no poll of @old between its export and the swap */
	if (old->export_state)
		old->export_state(old, &st);
	probe_delay_takeover();
	if (new->import_state)
		err = new->import_state(new, &st);
	if (!err)
		transports[i] = new;
	reg_lock_drop();
	local_irq_restore(flags);
	if (!err && old->deinit)
		old->deinit(old);
	return err;
}

/*
 * The break-in poll from the timer tick: each transport that has no
 * interrupt of its own looks at its input (poll_break).  A transport
 * without poll_break is read here: only Ctrl-C (or sysrq-g) matters.  Each tick reads
 * everything waiting (at most POLL_DRAIN_MAX bytes), so a Ctrl-C behind
 * line noise is seen at once, not at one byte per tick.
 */
#define POLL_DRAIN_MAX		4096
#define POLL_DRAIN_QUIET	256	/* empty polls while bytes are flowing */

static int drain_for_ctrlc(struct ekdb_transport *t)
{
	unsigned got = 0, quiet = 0;

	while (got < POLL_DRAIN_MAX) {
		int c = t->getc(t);

		if (c == 0x03)
			return EKDB_BREAK_CTRLC;
		if (c == EKDB_CHAR_SYSRQ('g'))
			return EKDB_BREAK_SYSRQ;	/* Alt+SysRq+g on a polled keyboard */
		if (c >= 0) {
			got++;
			quiet = 0;
			continue;
		}
		/* nothing now: give a line that was busy a moment to refill its FIFO */
		if (!got || ++quiet > POLL_DRAIN_QUIET)
			break;
		cpu_relax();
	}
	return EKDB_BREAK_NONE;
}

static int poll_break_locked(void)
{
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++) {
		struct ekdb_transport *t = transports[i];
		int r = EKDB_BREAK_NONE;

		if (!t)
			continue;
		if (t->poll_break) {
			r = t->poll_break(t);
		} else if (t->getc && !t->irq) {	/* an IRQ driver breaks in itself */
			r = drain_for_ctrlc(t);
		}
		if (r != EKDB_BREAK_NONE)
			return r;
	}
	return EKDB_BREAK_NONE;
}

/* The registry lock for the break-in poll: only tried (see reg_lock). */
bool dbg_transports_poll_lock(void)
{
	return reg_lock_try();
}

void dbg_transports_poll_unlock(void)
{
	reg_lock_drop();
}

/* With dbg_transports_poll_lock() held (the caller dispatches what it returns). */
int dbg_transports_poll_break(void)
{
	return poll_break_locked();
}
