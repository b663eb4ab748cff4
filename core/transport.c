/* SPDX-License-Identifier: GPL-2.0 */
/*
 * transport.c - the registry of transports (kgdb_io analogue, but several
 * at once): input is polled from all of them, output goes to all of them.
 */
#include "debug_core.h"
#include <ekdb/errno.h>

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
