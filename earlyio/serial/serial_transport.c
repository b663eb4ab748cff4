/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serial_transport.c - struct ekdb_transport over a polled 16550 (the
 * early lifetime: static storage, no interrupts).
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
#include <ekdb/string.h>

/* Bytes one poll_break() reads at most: a 16550 FIFO and then some. */
#define POLL_BREAK_MAX	32

static struct uart_port dbg_port;

static struct {
	bool dollar;				/* a '$' read by poll_break, not yet by getc */
	u8 pending[EKDB_HANDOFF_PENDING_MAX];	/* console bytes, oldest first */
	unsigned npending;
	unsigned long dropped;			/* console bytes lost to a full ring */
} rx;

static int serial_t_getc(struct ekdb_transport *t)
{
	if (rx.dollar) {
		rx.dollar = false;
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
	for (unsigned n = 0; n < POLL_BREAK_MAX && !rx.dollar; n++) {
		int c;

		c = uart_getc(t->priv);
		if (c < 0)
			break;
		if (c == 0x03)
			return EKDB_BREAK_CTRLC;
		if (c == '$') {
			rx.dollar = true;
			return EKDB_BREAK_GDB;
		}
		if (rx.npending < EKDB_HANDOFF_PENDING_MAX)
			rx.pending[rx.npending++] = (u8)c;
		else
			rx.dropped++;
	}
	return rx.dollar ? EKDB_BREAK_GDB : EKDB_BREAK_NONE;
}

/* The line settings and every byte read and not consumed (a kept '$' last). */
static void serial_t_export_state(struct ekdb_transport *t, struct ekdb_transport_state *st)
{
	struct uart_port *p = t->priv;

	st->kind = EKDB_TRANSPORT_SERIAL;
	st->u.serial.base = p->base;
	st->u.serial.baud = p->baud;
	memcpy(st->pending, rx.pending, rx.npending);
	st->npending = rx.npending;
	if (rx.dollar && st->npending < EKDB_HANDOFF_PENDING_MAX)
		st->pending[st->npending++] = '$';
	rx.npending = 0;
	rx.dollar = false;
}

static struct ekdb_transport serial_transport = {
	.kind = EKDB_TRANSPORT_SERIAL,
	.getc = serial_t_getc,
	.putc = serial_t_putc,
	.poll_break = serial_t_poll_break,
	.export_state = serial_t_export_state,
};

static char serial_name[8] = "ttyS?";

static void set_name(u16 base)
{
	for (unsigned i = 0; i < ARRAY_SIZE(uart_std_ports); i++)
		if (uart_std_ports[i] == base)
			serial_name[4] = (char)('0' + i);
	serial_transport.name = serial_name;
}

/*
 * serial_transport_adopt - the line the loader's debugger drove, as it is:
 * no reset, no FIFO clear, no NAK (gdb is in the middle of a session).
 * The bytes it had read and not consumed come back: a '$' last is the
 * start of a gdb packet (for getc), the rest console input.
 */
struct ekdb_transport *serial_transport_adopt(u16 base, u32 baud, const u8 *pending, unsigned n)
{
	dbg_port = (struct uart_port){ .base = base, .baud = baud, .present = true };
	serial_transport.priv = &dbg_port;
	rx.npending = 0;
	rx.dollar = false;
	if (n && pending[n - 1] == '$') {
		rx.dollar = true;
		n--;
	}
	if (n > EKDB_HANDOFF_PENDING_MAX)
		n = EKDB_HANDOFF_PENDING_MAX;
	memcpy(rx.pending, pending, n);
	rx.npending = n;
	set_name(base);
	return &serial_transport;
}

struct ekdb_transport *serial_transport_init(const char *opt, int *err)
{
	struct uart_port *console = early_serial_console_port();
	struct uart_port want;

	*err = uart_parse_options(opt, &want);
	if (*err)
		return NULL;
	if (console && console->base == want.base) {
		serial_transport.priv = console;	/* shared with earlyprintk */
	} else {
		dbg_port = want;
		*err = uart_init(&dbg_port);
		if (*err)
			return NULL;
		serial_transport.priv = &dbg_port;
		/*
		 * A gdb that connected while the firmware booted may still wait
		 * for the ack of a packet nobody read (the firmware drives every
		 * UART as its console and eats the input): a NAK makes it send
		 * that packet again now, not after its remotetimeout.  Only on a
		 * line of its own: the console line shows text to a person.
		 */
		uart_putc(&dbg_port, '-');
	}
	set_name(want.base);
	return &serial_transport;
}
