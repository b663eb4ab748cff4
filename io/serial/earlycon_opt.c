/* SPDX-License-Identifier: GPL-2.0 */
/*
 * earlycon_opt.c - earlycon=<name>,<iotype>,<addr>[,<options>] with
 * Linux's syntax (drivers/tty/serial/earlycon.c, uart_parse_earlycon):
 *   name     uart8250 | uart (Linux's two names for the 8250 early console)
 *   iotype   io | mmio | mmio32; no iotype and an address "0x..." is mmio
 *   options  baud rate ("115200", "115200n8"); none: the line is kept as
 *            the firmware set it up
 * Pure: host-tested.
 */
#include "earlycon.h"
#include <ekdb/errno.h>
#include <ekdb/parse.h>
#include <ekdb/string.h>

/* Highest physical address a memory-mapped UART may have (52-bit physical). */
#define EARLYCON_PHYS_MAX	((1ULL << 52) - 1)

static const char *const earlycon_names[] = { "uart8250", "uart" };

static const struct {
	const char *word;
	u8 iotype, reg_shift;
} iotypes[] = {
	{ "io,", UART_IO_PORT, 0 },
	{ "mmio,", UART_IO_MMIO, 0 },
	{ "mmio32,", UART_IO_MMIO32, 2 },
};

int uart_parse_earlycon(const char *v, struct earlycon_spec *ec)
{
	const char *p, *end;
	size_t n;
	u64 addr;
	int err;

	memset(ec, 0, sizeof(*ec));
	if (!v || !*v)
		return -EKDB_EINVAL;
	p = strchr(v, ',');
	n = p ? (size_t)(p - v) : strlen(v);
	for (size_t i = 0; i < ARRAY_SIZE(earlycon_names); i++)
		if (strlen(earlycon_names[i]) == n && !strncmp(v, earlycon_names[i], n))
			ec->name = earlycon_names[i];
	if (!ec->name)
		return -EKDB_ENOENT;		/* no such early console */
	if (!p)
		return -EKDB_EINVAL;		/* Linux: a name alone needs a device tree */
	p++;
	ec->port.regs.iotype = UART_IO_MMIO;	/* "0x..." without a type: mmio, as Linux */
	for (size_t i = 0; i < ARRAY_SIZE(iotypes); i++)
		if (!strncmp(p, iotypes[i].word, strlen(iotypes[i].word))) {
			ec->port.regs.iotype = iotypes[i].iotype;
			ec->port.regs.reg_shift = iotypes[i].reg_shift;
			p += strlen(iotypes[i].word);
			break;
		}
	if (strncmp(p, "0x", 2) && strncmp(p, "0X", 2))
		return -EKDB_EINVAL;		/* an unknown iotype, or no address */
	if (parse_u64_prefix(p + 2, 16, &addr, &end) || end == p + 2 || (*end && *end != ','))
		return -EKDB_EINVAL;
	if (!addr || (ec->port.regs.iotype == UART_IO_PORT && addr > 0xfff8) ||
	    addr > EARLYCON_PHYS_MAX ||
	    (ec->port.regs.iotype == UART_IO_MMIO32 && (addr & 3)))
		return -EKDB_EINVAL;
	ec->port.regs.addr = addr;
	ec->port.baud = 0;			/* no options: keep the line as it is */
	if (*end == ',') {
		if (strlcpy(ec->options, end + 1, sizeof(ec->options)) >= sizeof(ec->options))
			return -EKDB_EINVAL;
		err = uart_parse_baud(ec->options, &ec->port.baud);
		if (err)
			return err;
	}
	return 0;
}

const char *uart_iotype_str(u8 iotype)
{
	switch (iotype) {
	case UART_IO_PORT: return "I/O port";
	case UART_IO_MMIO: return "MMIO";
	case UART_IO_MMIO32: return "MMIO32";
	default: return "?";
	}
}
