/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serial_console.c - the early printk consoles on a 16550: one for
 * earlyprintk=serial (or pciserial), one for earlycon=, as Linux has
 * both.  Two words naming the same UART share one console (no doubled
 * text).
 */
#include "uart16550.h"
#include "serial_console.h"
#include <ekdb/log.h>
#include <ekdb/port.h>
#include <ekdb/errno.h>

static struct uart_port ports[EARLY_SERIAL_SLOTS];

static void early_serial_write(struct ekdb_console *con, const char *s, size_t len)
{
	uart_write(con->priv, s, len);
}

static struct ekdb_console consoles[EARLY_SERIAL_SLOTS] = {
	[EARLY_SERIAL_PRINTK] = {
		.name = "earlyser", .write = early_serial_write,
		.priv = &ports[EARLY_SERIAL_PRINTK], .replay = true,
	},
	[EARLY_SERIAL_EARLYCON] = {
		.name = "uart", .write = early_serial_write,
		.priv = &ports[EARLY_SERIAL_EARLYCON], .replay = true,
	},
};
static bool shared[EARLY_SERIAL_SLOTS];	/* the other slot's console writes to this UART */

int early_serial_console_start(const struct uart_port *port, int slot)
{
	int other = !slot;
	int err;

	if (slot < 0 || slot >= EARLY_SERIAL_SLOTS)
		return -EKDB_EINVAL;
	if (consoles[slot].enabled || shared[slot])
		return -EKDB_EBUSY;
	if (ports[other].present && uart_regs_same(&ports[other].regs, &port->regs)) {
		shared[slot] = true;		/* the same UART: the other console writes there */
		ports[slot] = ports[other];
		return 0;
	}
	ports[slot] = *port;
	err = uart_init(&ports[slot]);
	if (err)
		return err;
	return ekdb_console_register(&consoles[slot]) ? -EKDB_ENOSPC : 0;
}

int early_serial_console_init(const char *opt)
{
	struct uart_port port;
	int err = uart_parse_options(opt, &port);

	if (err)
		return err;
	return early_serial_console_start(&port, EARLY_SERIAL_PRINTK);
}

struct uart_port *early_serial_console_of(const struct uart_regs *r)
{
	for (int i = 0; i < EARLY_SERIAL_SLOTS; i++)
		if (ports[i].present && uart_regs_same(&ports[i].regs, r))
			return shared[i] ? &ports[!i] : &ports[i];
	return NULL;
}

struct uart_port *early_serial_console_port(void)
{
	for (int i = 0; i < EARLY_SERIAL_SLOTS; i++)
		if (ports[i].present)
			return shared[i] ? &ports[!i] : &ports[i];
	return NULL;
}
