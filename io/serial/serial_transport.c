/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serial_transport.c - struct ekdb_transport over a polled 16550 (the
 * early lifetime: static storage, no interrupts).  Instances come from a
 * small static pool, one per UART (ttyS1 for ekgdboc= and ttyS0 beside
 * the keyboard are two), each with its own name and receive state.
 *
 * While the kernel runs, the timer tick calls poll_break(): it drains
 * what the line has (bounded) and looks for the debugger's bytes:
 *   0x03  gdb's interrupt / kdb's Ctrl-C: consumed, EKDB_BREAK_CTRLC
 *   '$'   the start of a gdb packet: kept for getc (the rest of the packet
 *         stays in the UART), EKDB_BREAK_GDB
 *   else  console input that has no reader yet: kept in a small pending
 *         ring, oldest first, handed to the running kernel's driver by
 *         export_state().  When the ring is full, newer console bytes are
 *         dropped (and counted): a Ctrl-C behind them must still be seen.
 * getc() gives the debugger the kept '$' first, then the hardware; it
 * never returns the console bytes of the pending ring.
 */
#include "serial_transport.h"
#include "serial_console.h"
#include "uart16550.h"
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>

/* Bytes one poll_break() reads at most: a 16550 FIFO and then some. */
#define POLL_BREAK_MAX	32
/* UARTs the early debugger drives at once (ekgdboc=, kbd,ttySn, kgdboc_earlycon). */
#define SERIAL_POOL	2

struct serial_tport {
	struct ekdb_transport t;
	struct uart_port own;			/* the port, unless shared with the console */
	char name[8];				/* "ttyS1", "uart0" */
	char dev[32];				/* "io 0x3f8", "mmio32 0xc0001000" */
	bool dollar;				/* a '$' read by poll_break, not yet by getc */
	u8 pending[EKDB_HANDOFF_PENDING_MAX];	/* console bytes, oldest first */
	unsigned npending;
	unsigned long dropped;			/* console bytes lost to a full ring */
};

static struct serial_tport pool[SERIAL_POOL];

static struct serial_tport *tport(struct ekdb_transport *t)
{
	return container_of(t, struct serial_tport, t);
}

static int serial_t_getc(struct ekdb_transport *t)
{
	struct serial_tport *s = tport(t);

	if (s->dollar) {
		s->dollar = false;
		return '$';
	}
	return uart_getc(t->priv);
}

static void serial_t_putc(struct ekdb_transport *t, u8 c)
{
	uart_putc(t->priv, c);
}

static int serial_t_poll_break(struct ekdb_transport *t)
{
	struct serial_tport *s = tport(t);

	for (unsigned n = 0; n < POLL_BREAK_MAX && !s->dollar; n++) {
		int c;

		c = uart_getc(t->priv);
		if (c < 0)
			break;
		if (c == 0x03)
			return EKDB_BREAK_CTRLC;
		if (c == '$') {
			s->dollar = true;
			return EKDB_BREAK_GDB;
		}
		if (s->npending < EKDB_HANDOFF_PENDING_MAX)
			s->pending[s->npending++] = (u8)c;
		else
			s->dropped++;
	}
	return s->dollar ? EKDB_BREAK_GDB : EKDB_BREAK_NONE;
}

/* The line settings and every byte read and not consumed (a kept '$' last). */
static void serial_t_export_state(struct ekdb_transport *t, struct ekdb_transport_state *st)
{
	struct serial_tport *s = tport(t);
	struct uart_port *p = t->priv;

	st->kind = EKDB_TRANSPORT_SERIAL;
	st->u.serial.base = p->regs.addr;
	st->u.serial.iotype = p->regs.iotype;
	st->u.serial.reg_shift = p->regs.reg_shift;
	st->u.serial.baud = p->baud;
	memcpy(st->pending, s->pending, s->npending);
	st->npending = s->npending;
	if (s->dollar && st->npending < EKDB_HANDOFF_PENDING_MAX)
		st->pending[st->npending++] = '$';
	s->npending = 0;
	s->dollar = false;
}

static const char *const iotype_names[] = {
	[UART_IO_PORT] = "io", [UART_IO_MMIO] = "mmio", [UART_IO_MMIO32] = "mmio32",
};

void uart_regs_describe(const struct uart_regs *r, char *buf, size_t len)
{
	ekdb_snprintf(buf, len, "%s 0x%llx", r->iotype < ARRAY_SIZE(iotype_names) ?
		      iotype_names[r->iotype] : "?", (unsigned long long)r->addr);
}

/*
 * The pool's instance for the UART at @r: the one already driving it, or
 * a free one, initialised.  NULL when all are in use by other UARTs.
 */
static struct serial_tport *instance(const struct uart_regs *r)
{
	struct serial_tport *free = NULL;

	for (unsigned i = 0; i < SERIAL_POOL; i++) {
		struct serial_tport *s = &pool[i];

		if (s->t.priv && uart_regs_same(&((struct uart_port *)s->t.priv)->regs, r))
			return s;
		if (!s->t.priv && !free)
			free = s;
	}
	if (!free)
		return NULL;
	memset(free, 0, sizeof(*free));
	free->t = (struct ekdb_transport){
		.kind = EKDB_TRANSPORT_SERIAL,
		.getc = serial_t_getc,
		.putc = serial_t_putc,
		.poll_break = serial_t_poll_break,
		.export_state = serial_t_export_state,
		.name = free->name,
		.dev = free->dev,
	};
	return free;
}

/* ttySn for a PC port (what kgdboc= names); "uartN" (N: pool slot) for others. */
static void set_names(struct serial_tport *s, const struct uart_regs *r)
{
	int line = uart_std_line(r);

	if (line >= 0)
		ekdb_snprintf(s->name, sizeof(s->name), "ttyS%d", line);
	else
		ekdb_snprintf(s->name, sizeof(s->name), "uart%u", (unsigned)(s - pool));
	uart_regs_describe(r, s->dev, sizeof(s->dev));
}

/*
 * serial_transport_adopt - the line the loader's debugger drove, as it is:
 * no reset, no FIFO clear, no NAK (gdb is in the middle of a session).
 * The bytes it had read and not consumed come back: a '$' last is the
 * start of a gdb packet (for getc), the rest console input.
 */
struct ekdb_transport *serial_transport_adopt(u16 base, u32 baud, const u8 *pending, unsigned n)
{
	struct uart_regs r = { .iotype = UART_IO_PORT, .addr = base };
	struct serial_tport *s = instance(&r);

	if (!s)
		return NULL;
	s->own = (struct uart_port){ .regs = r, .baud = baud, .present = true };
	s->t.priv = &s->own;
	s->npending = 0;
	s->dollar = false;
	if (n && pending[n - 1] == '$') {
		s->dollar = true;
		n--;
	}
	if (n > EKDB_HANDOFF_PENDING_MAX)
		n = EKDB_HANDOFF_PENDING_MAX;
	memcpy(s->pending, pending, n);
	s->npending = n;
	set_names(s, &r);
	return &s->t;
}

struct ekdb_transport *serial_transport_start(const struct uart_port *want, int *err)
{
	struct uart_port *console = early_serial_console_of(&want->regs);
	struct serial_tport *s = instance(&want->regs);

	*err = 0;
	if (!s) {
		*err = -EKDB_ENOSPC;
		return NULL;
	}
	if (s->t.priv)
		return &s->t;		/* already driving it (kbd,ttyS0 and ekgdboc=ttyS0) */
	if (console) {
		s->t.priv = console;	/* shared with the early console */
	} else {
		s->own = *want;
		*err = uart_init(&s->own);
		if (*err)
			return NULL;
		s->t.priv = &s->own;
		/*
		 * A gdb that connected while the firmware booted may still wait
		 * for the ack of a packet nobody read (the firmware drives every
		 * UART as its console and eats the input): a NAK makes it send
		 * that packet again now, not after its remotetimeout.  Only on a
		 * line of its own: the console line shows text to a person.
		 */
		uart_putc(&s->own, '-');
	}
	set_names(s, &want->regs);
	return &s->t;
}

struct ekdb_transport *serial_transport_init(const char *opt, int *err)
{
	struct uart_port want;

	*err = uart_parse_options(opt, &want);
	if (*err)
		return NULL;
	return serial_transport_start(&want, err);
}
