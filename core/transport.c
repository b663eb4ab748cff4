/* SPDX-License-Identifier: GPL-2.0 */
/*
 * transport.c - the registry of transports (kgdb_io analogue, but several
 * at once): input is polled from all of them, output goes to all of them.
 */
#include "debug_core.h"
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>

#define EKDB_MAX_TRANSPORTS 4

static struct ekdb_transport *transports[EKDB_MAX_TRANSPORTS];
static unsigned poll_next;

int dbg_transport_register(struct ekdb_transport *t)
{
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] == t)
			return -EKDB_EEXIST;
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++) {
		if (!transports[i]) {
			transports[i] = t;
			return 0;
		}
	}
	return -EKDB_ENOSPC;
}

void dbg_transport_unregister(struct ekdb_transport *t)
{
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] == t)
			transports[i] = NULL;
}

unsigned dbg_transport_count(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		n += transports[i] != NULL;
	return n;
}

/* Round-robin so one chatty transport cannot starve another. */
static int chan_getc(void *arg)
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

const struct ekdb_chan dbg_chan = {
	.getc = chan_getc,
	.putc = chan_putc,
	.flush = chan_flush,
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

/* Only transports with no interrupt of their own are polled (from the tick). */
int dbg_transports_poll_break(void)
{
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++) {
		struct ekdb_transport *t = transports[i];
		int why;

		if (t && t->poll_break && (why = t->poll_break(t)) != EKDB_BREAK_NONE)
			return why;
	}
	return EKDB_BREAK_NONE;
}

/*
 * TEMPORARY (branch serialirq): minimal weak ekdb_io_wanted() and
 * ekdb_register_io() so the serial IRQ driver can take over its early
 * transport before the full core (core/late/) is merged; its strong
 * definitions replace these.  Only the takeover of a registered transport
 * of the same name is done here (no kgdboc= parsing).
 */
static struct ekdb_transport *transport_by_name(const char *name)
{
	for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
		if (transports[i] && transports[i]->name && !strcmp(transports[i]->name, name))
			return transports[i];
	return NULL;
}

__attribute__((weak)) bool ekdb_io_wanted(const char *name)
{
	return transport_by_name(name) != NULL;
}

__attribute__((weak)) int ekdb_register_io(struct ekdb_transport *t)
{
	struct ekdb_transport *old = transport_by_name(t->name);
	struct ekdb_transport_state st;
	unsigned long flags;
	int err = 0;

	if (!old)
		return -EKDB_ENODEV;
	memset(&st, 0, sizeof(st));
	__asm__ __volatile__("pushfq; popq %0; cli" : "=r"(flags) :: "memory");
	if (old->export_state)
		old->export_state(old, &st);
	else
		st.kind = old->kind;
	if (t->import_state)
		err = t->import_state(t, &st);
	if (!err) {
		for (unsigned i = 0; i < EKDB_MAX_TRANSPORTS; i++)
			if (transports[i] == old)
				transports[i] = t;
		if (old->deinit)
			old->deinit(old);
	}
	__asm__ __volatile__("pushq %0; popfq" :: "r"(flags) : "memory", "cc");
	return err;
}
