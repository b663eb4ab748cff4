/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dbgp_chan.h - one debug device as a byte channel (dbgp_chan.c): the
 * logic the early driver (io/ehci-dbgp/dbgp_transport.c, static
 * instance) and the running kernel's driver (kernel-glue/drivers/
 * ehci_dbgp.c, its own instance and register access) share, so the
 * debugger's bytes are handled by the same code in both lifetimes.
 */
#ifndef IO_EHCI_DBGP_CHAN_H
#define IO_EHCI_DBGP_CHAN_H

#include "dbgp.h"

#define DBGP_HELD_MAX	1024	/* output kept while the controller is reset */

struct dbgp_chan {
	struct dbgp_dev dev;
	bool ready;			/* set up: found, mapped, enumerated once (or imported) */
	bool gone;			/* stopped answering */
	bool in_debugger;		/* between pre_exception and post_exception */
	bool quiesced;			/* the EHCI driver resets the controller: hands off */
	unsigned poll_secs;		/* while running, look for input this often; 0: never */
	u64 retry_at, poll_at;
	u8 outbuf[DBGP_MAXP];
	unsigned outlen;
	u8 held[DBGP_HELD_MAX];		/* output written while quiesced, sent after */
	unsigned held_len;
	unsigned long held_dropped;
	unsigned long revived;		/* times the device was brought up again */
	int lock_word;
	const char *note;		/* a message waiting to be printed */
	int note_err;
};

bool dbgp_chan_lock(struct dbgp_chan *c);
void dbgp_chan_unlock(struct dbgp_chan *c);
/* Print a waiting message (never called from inside printk's console write). */
void dbgp_chan_print_note(struct dbgp_chan *c);

/* The transport's operations, for any instance. */
int dbgp_chan_getc(struct dbgp_chan *c);
void dbgp_chan_putc(struct dbgp_chan *c, u8 ch);
void dbgp_chan_flush(struct dbgp_chan *c);
void dbgp_chan_pre(struct dbgp_chan *c);
void dbgp_chan_post(struct dbgp_chan *c);
/* The console's write: "\n" as "\r\n", flushed at the end. */
void dbgp_chan_console_write(struct dbgp_chan *c, const char *s, size_t len);
/* With the lock held: push the partial packet out (or hold/drop it). */
void dbgp_chan_flush_locked(struct dbgp_chan *c);

/*
 * The EHCI driver resets the controller (Linux's dbgp_reset_prep /
 * dbgp_external_startup): quiesce flushes what is queued and keeps the
 * hardware untouched (output held, no input) until resume; resume runs
 * the controller again and checks the device (dbgp_restart(): enumerated
 * again only if the reset took the port down), then sends the held
 * output.  resume returns 0, 1 (enumerated again) or -errno.
 */
void dbgp_chan_quiesce(struct dbgp_chan *c);
int dbgp_chan_resume(struct dbgp_chan *c);

#endif
