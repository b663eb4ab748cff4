/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dbgp_chan.c - one USB debug device as the debugger's byte channel and a
 * console, for whichever driver owns it (the early one, then the running
 * kernel's: the same code, another instance).
 *
 * Output is gathered into 8-byte packets (flushed when full, on flush,
 * and before every read); input keeps the unread part of the last packet.
 * One IN transaction per getc: no retry loop (a NAK is "no byte now").
 * While the kernel runs (outside the debugger) the port is read at most
 * every poll_secs seconds, never when it is 0.
 *
 * A device that stops answering is "gone": output is dropped, and at most
 * once a second, when the port shows a device again, it is brought up
 * anew.  While the EHCI driver resets the controller the channel is
 * quiesced: output is held (up to DBGP_HELD_MAX bytes) and sent when the
 * controller runs again; a debugger entered meanwhile (all CPUs stopped)
 * may use the port.  Messages are printed from getc/flush, never from
 * inside printk's console callback.  No storage of its own.
 */
#include "dbgp_chan.h"
#include <ekdb/log.h>
#include <asm/processor.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>

#define RETRY_US	1000000ULL	/* a gone device is looked for this often */
#define LOCK_SPINS	10000000UL

bool dbgp_chan_lock(struct dbgp_chan *c)
{
	for (unsigned long i = 0; i < LOCK_SPINS; i++) {
		if (!__atomic_exchange_n(&c->lock_word, 1, __ATOMIC_ACQUIRE))
			return true;
		cpu_relax();
	}
	return false;
}

void dbgp_chan_unlock(struct dbgp_chan *c)
{
	__atomic_store_n(&c->lock_word, 0, __ATOMIC_RELEASE);
}

static u64 now_us(struct dbgp_chan *c)
{
	return c->dev.io->now_us(c->dev.io);
}

void dbgp_chan_print_note(struct dbgp_chan *c)
{
	const char *n = c->note;

	if (!n)
		return;
	c->note = NULL;
	if (c->note_err)
		pr_warn("dbgp: %s (%s)\n", n, ekdb_strerror(c->note_err));
	else
		pr_notice("dbgp: %s\n", n);
}

static void set_gone(struct dbgp_chan *c, int err)
{
	if (c->gone)
		return;
	c->gone = true;
	c->outlen = 0;
	c->retry_at = now_us(c) + RETRY_US;
	c->note = "debug device not answering: output dropped until it is back";
	c->note_err = err;
}

/* A gone device: look again (rate-limited); true when it is back. */
static bool try_revive(struct dbgp_chan *c)
{
	struct dbgp_dev *d = &c->dev;
	u32 portsc;
	bool reused;

	if (now_us(c) < c->retry_at)
		return false;
	c->retry_at = now_us(c) + RETRY_US;
	portsc = d->io->read(d->io, d->st.op_off + EHCI_PORTSC(d->st.port));
	if (!(portsc & PORT_CCS))
		return false;
	if (dbgp_bring_up(d, &reused))
		return false;
	c->gone = false;
	c->revived++;
	d->st.pending_len = d->st.pending_pos = 0;
	c->note = "debug device back, enumerated again";
	c->note_err = 0;
	return true;
}

/* May the hardware be used now? */
static bool usable(struct dbgp_chan *c)
{
	if (!c->ready || (c->quiesced && !c->in_debugger))
		return false;
	return !c->gone || try_revive(c);
}

static void hold(struct dbgp_chan *c, const u8 *b, unsigned n)
{
	unsigned room = DBGP_HELD_MAX - c->held_len;

	if (n > room) {
		c->held_dropped += n - room;
		n = room;
	}
	memcpy(c->held + c->held_len, b, n);
	c->held_len += n;
}

void dbgp_chan_flush_locked(struct dbgp_chan *c)
{
	int r;

	if (!c->outlen)
		return;
	if (c->ready && c->quiesced && !c->in_debugger) {
		hold(c, c->outbuf, c->outlen);
		c->outlen = 0;
		return;
	}
	if (!usable(c)) {
		c->outlen = 0;		/* no device: dropped */
		return;
	}
	r = dbgp_bulk_write(&c->dev, c->outbuf, c->outlen);
	c->outlen = 0;
	if (r < 0 && r != -EKDB_EAGAIN)
		set_gone(c, r);		/* EAGAIN: nobody reads the other side; dropped */
}

static void put_locked(struct dbgp_chan *c, u8 ch)
{
	c->outbuf[c->outlen++] = ch;
	if (c->outlen == DBGP_MAXP)
		dbgp_chan_flush_locked(c);
}

int dbgp_chan_getc(struct dbgp_chan *c)
{
	struct dbgp_state *st = &c->dev.st;
	int ch = EKDB_NO_CHAR, n;

	dbgp_chan_print_note(c);
	if (!c->in_debugger) {
		if (!c->poll_secs || now_us(c) < c->poll_at)
			return EKDB_NO_CHAR;
		c->poll_at = now_us(c) + c->poll_secs * 1000000ULL;
	}
	if (!dbgp_chan_lock(c))
		return EKDB_NO_CHAR;
	dbgp_chan_flush_locked(c);
	if (st->pending_pos >= st->pending_len && usable(c)) {
		n = dbgp_bulk_read(&c->dev, st->pending, sizeof(st->pending));
		if (n < 0)
			set_gone(c, n);
		st->pending_len = (u8)(n > 0 ? n : 0);
		st->pending_pos = 0;
	}
	if (st->pending_pos < st->pending_len)
		ch = st->pending[st->pending_pos++];
	dbgp_chan_unlock(c);
	return ch;
}

void dbgp_chan_putc(struct dbgp_chan *c, u8 ch)
{
	if (!dbgp_chan_lock(c))
		return;
	put_locked(c, ch);
	dbgp_chan_unlock(c);
}

void dbgp_chan_flush(struct dbgp_chan *c)
{
	if (!dbgp_chan_lock(c))
		return;
	dbgp_chan_flush_locked(c);
	dbgp_chan_unlock(c);
	dbgp_chan_print_note(c);
}

void dbgp_chan_pre(struct dbgp_chan *c)
{
	c->in_debugger = true;
}

void dbgp_chan_post(struct dbgp_chan *c)
{
	dbgp_chan_flush(c);
	c->in_debugger = false;
	c->poll_at = now_us(c) + c->poll_secs * 1000000ULL;
}

void dbgp_chan_console_write(struct dbgp_chan *c, const char *s, size_t len)
{
	if (!dbgp_chan_lock(c))
		return;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			put_locked(c, '\r');
		put_locked(c, (u8)s[i]);
	}
	dbgp_chan_flush_locked(c);
	dbgp_chan_unlock(c);
}

void dbgp_chan_quiesce(struct dbgp_chan *c)
{
	if (!dbgp_chan_lock(c))
		return;
	dbgp_chan_flush_locked(c);
	c->quiesced = true;
	dbgp_chan_unlock(c);
}

int dbgp_chan_resume(struct dbgp_chan *c)
{
	bool enumerated = false;
	int r;

	if (!dbgp_chan_lock(c))
		return -EKDB_EBUSY;
	r = c->ready ? dbgp_restart(&c->dev, &enumerated) : -EKDB_ENODEV;
	c->quiesced = false;
	if (r) {
		set_gone(c, r);
	} else {
		if (enumerated) {
			c->dev.st.pending_len = c->dev.st.pending_pos = 0;
			c->revived++;
		}
		for (unsigned i = 0; i < c->held_len && !c->gone; i += DBGP_MAXP) {
			memcpy(c->outbuf, c->held + i, MIN(DBGP_MAXP, c->held_len - i));
			c->outlen = MIN(DBGP_MAXP, c->held_len - i);
			dbgp_chan_flush_locked(c);
		}
	}
	c->held_len = 0;
	dbgp_chan_unlock(c);
	return r ? r : enumerated;
}
