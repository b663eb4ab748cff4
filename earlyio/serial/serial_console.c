/* SPDX-License-Identifier: GPL-2.0 */
/* serial_console.c - the early printk console on a 16550 (earlyprintk=serial). */
#include "uart16550.h"
#include "serial_console.h"
#include <ekdb/log.h>
#include <ekdb/port.h>
#include <ekdb/errno.h>

static struct uart_port early_serial_port;

static void early_serial_write(struct ekdb_console *con, const char *s, size_t len)
{
	uart_write(con->priv, s, len);
}

static struct ekdb_console early_serial_console = {
	.name = "earlyser",
	.write = early_serial_write,
	.priv = &early_serial_port,
	.replay = true,
};

int early_serial_console_init(const char *opt)
{
	int err = uart_parse_options(opt, &early_serial_port);

	if (err)
		return err;
	err = uart_init(&early_serial_port);
	if (err)
		return err;
	if (early_serial_console.enabled)
		return -EKDB_EBUSY;
	return ekdb_console_register(&early_serial_console) ? -EKDB_ENOSPC : 0;
}

struct uart_port *early_serial_console_port(void)
{
	return early_serial_port.present ? &early_serial_port : NULL;
}
