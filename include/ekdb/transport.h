/* SPDX-License-Identifier: GPL-2.0 */
/*
 * transport.h - a byte channel that carries the debugger (kgdb_io analogue).
 *
 * A transport is a small ops table (serial line, keyboard+screen, USB debug
 * port) registered with core/transport.c.  Several may be active at once:
 * input is polled from all of them, output goes to all of them.
 * All ops are called with interrupts off and must never block for long:
 * hardware waits are bounded.
 */
#ifndef EKDB_TRANSPORT_H
#define EKDB_TRANSPORT_H

#include <ekdb/types.h>

#define EKDB_NO_CHAR	(-1)	/* getc: nothing available right now */
#define EKDB_CHAN_EOF	(-2)	/* getc: channel closed for good (host tests) */
/*
 * getc of a keyboard transport: Alt+SysRq+@k was pressed (not a byte).
 * The break-in poll enters the debugger on sysrq-g; the debugger's own
 * input ignores it.
 */
#define EKDB_CHAR_SYSRQ(k)	(0x100 | (u8)(k))

struct ekdb_transport {
	const char *name;			/* "ttyS0", "kbd", "dbgp0" */
	/** getc - one byte, EKDB_CHAR_SYSRQ(key), or EKDB_NO_CHAR when none is waiting. */
	int (*getc)(struct ekdb_transport *t);
	/** putc - queue one byte (may spin for a bounded time). */
	void (*putc)(struct ekdb_transport *t, u8 c);
	/** flush - push queued output to the wire; may be NULL. */
	void (*flush)(struct ekdb_transport *t);
	/** pre_exception / post_exception - called on debugger entry/exit; may be NULL. */
	void (*pre_exception)(struct ekdb_transport *t);
	void (*post_exception)(struct ekdb_transport *t);
	bool is_console;			/* output-only side (screen) wants kdb text, not gdb packets */
	void *priv;
};

/*
 * A simple polled channel (what gdbstub and kdb consume): the core builds
 * one over all registered transports; host tests build one over a script.
 */
struct ekdb_chan {
	int (*getc)(void *arg);			/* byte, EKDB_NO_CHAR, or EKDB_CHAN_EOF */
	void (*putc)(void *arg, u8 c);
	void (*flush)(void *arg);		/* may be NULL */
	void *arg;
};

#endif
