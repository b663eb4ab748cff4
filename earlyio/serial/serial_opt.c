/* SPDX-License-Identifier: GPL-2.0 */
/* serial_opt.c - parse "ttySn[,baud]" / "0xPORT[,baud]" into a UART port. */
#include "uart16550.h"
#include <ekdb/errno.h>
#include <ekdb/parse.h>
#include <ekdb/string.h>

const u16 uart_std_ports[4] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };

int uart_parse_options(const char *opt, struct uart_port *port)
{
	char dev[24];
	const char *comma;
	size_t n;
	u64 v;

	port->base = uart_std_ports[0];
	port->baud = UART_DEFAULT_BAUD;
	port->present = false;
	port->lost_chars = false;
	if (!opt || !*opt)
		return 0;
	comma = strchr(opt, ',');
	n = comma ? (size_t)(comma - opt) : strlen(opt);
	if (n >= sizeof(dev))
		return -EKDB_EINVAL;
	memcpy(dev, opt, n);
	dev[n] = 0;
	if (!strncmp(dev, "ttyS", 4)) {
		if (parse_u64(dev + 4, 10, &v) || v >= ARRAY_SIZE(uart_std_ports))
			return -EKDB_EINVAL;
		port->base = uart_std_ports[v];
	} else if (!strncmp(dev, "0x", 2)) {
		if (parse_u64(dev, 16, &v) || v == 0 || v > 0xfff8)
			return -EKDB_EINVAL;
		port->base = (u16)v;
	} else if (n) {
		return -EKDB_EINVAL;
	}
	if (comma) {
		/* Linux also accepts "115200n8": take the leading number. */
		const char *end;

		if (parse_u64_prefix(comma + 1, 10, &v, &end) || v < 50 ||
		    v > UART_CLOCK_DIV_BASE || UART_CLOCK_DIV_BASE % v > v / 50)
			return -EKDB_EINVAL;
		if (*end && strcmp(end, "n8") != 0)
			return -EKDB_EINVAL;
		port->baud = (u32)v;
	}
	return 0;
}
