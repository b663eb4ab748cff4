/* SPDX-License-Identifier: GPL-2.0 */
/* serial_transport.c - struct ekdb_transport over a polled 16550. */
#include "serial_transport.h"
#include "serial_console.h"
#include "uart16550.h"
#include <ekdb/errno.h>

static struct uart_port dbg_port;

static int serial_t_getc(struct ekdb_transport *t)
{
	return uart_getc(t->priv);
}

static void serial_t_putc(struct ekdb_transport *t, u8 c)
{
	uart_putc(t->priv, c);
}

static struct ekdb_transport serial_transport = {
	.getc = serial_t_getc,
	.putc = serial_t_putc,
};

static char serial_name[8] = "ttyS?";

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
	for (unsigned i = 0; i < ARRAY_SIZE(uart_std_ports); i++)
		if (uart_std_ports[i] == want.base)
			serial_name[4] = (char)('0' + i);
	serial_transport.name = serial_name;
	return &serial_transport;
}
