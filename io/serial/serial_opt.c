/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serial_opt.c - parse "ttySn[,baud]" / "0xPORT[,baud]" into a UART port,
 * and "pciserial,[force,]BB:DD.F[,baud]" into a PCI function.  Pure.
 */
#include "uart16550.h"
#include "serial_pci.h"
#include <ekdb/errno.h>
#include <ekdb/parse.h>
#include <ekdb/string.h>

const u16 uart_std_ports[4] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };

int uart_std_line(const struct uart_regs *r)
{
	if (r->iotype != UART_IO_PORT || r->reg_shift)
		return -1;
	for (unsigned i = 0; i < ARRAY_SIZE(uart_std_ports); i++)
		if (uart_std_ports[i] == r->addr)
			return (int)i;
	return -1;
}

int uart_parse_baud(const char *s, u32 *baud)
{
	const char *end;
	u64 v;

	/* Linux also accepts "115200n8": take the leading number. */
	if (parse_u64_prefix(s, 10, &v, &end) || v < 50 ||
	    v > UART_CLOCK_DIV_BASE || UART_CLOCK_DIV_BASE % v > v / 50)
		return -EKDB_EINVAL;
	if (*end && strcmp(end, "n8") != 0)
		return -EKDB_EINVAL;
	*baud = (u32)v;
	return 0;
}

int uart_parse_options(const char *opt, struct uart_port *port)
{
	char dev[24];
	const char *comma;
	size_t n;
	u64 v;

	memset(port, 0, sizeof(*port));
	port->regs.iotype = UART_IO_PORT;
	port->regs.addr = uart_std_ports[0];
	port->baud = UART_DEFAULT_BAUD;
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
		port->regs.addr = uart_std_ports[v];
	} else if (!strncmp(dev, "0x", 2)) {
		if (parse_u64(dev, 16, &v) || v == 0 || v > 0xfff8)
			return -EKDB_EINVAL;
		port->regs.addr = v;
	} else if (n) {
		return -EKDB_EINVAL;
	}
	if (comma)
		return uart_parse_baud(comma + 1, &port->baud);
	return 0;
}

/* One hex field ending at @stop (or at the end when @stop is 0). */
static int hex_field(const char **p, char stop, u64 max, u64 *v)
{
	const char *end;

	if (parse_u64_prefix(*p, 16, v, &end) || end == *p || *v > max)
		return -EKDB_EINVAL;
	if (stop && *end != stop)
		return -EKDB_EINVAL;
	*p = stop ? end + 1 : end;
	return 0;
}

int uart_parse_pciserial(const char *opt, struct uart_pci_spec *s)
{
	const char *p = opt;
	u64 bus, slot, func;

	memset(s, 0, sizeof(*s));
	s->baud = UART_DEFAULT_BAUD;
	if (!p)
		return -EKDB_EINVAL;
	if (!strncmp(p, "force,", 6)) {
		s->force = true;
		p += 6;
	}
	if (hex_field(&p, ':', 0xff, &bus) || hex_field(&p, '.', 0x1f, &slot) ||
	    hex_field(&p, 0, 7, &func))
		return -EKDB_EINVAL;
	s->bus = (u8)bus;
	s->slot = (u8)slot;
	s->func = (u8)func;
	if (*p == ',')
		return uart_parse_baud(p + 1, &s->baud);
	return *p ? -EKDB_EINVAL : 0;
}
