/* SPDX-License-Identifier: GPL-2.0 */
/*
 * earlycon.h - Linux's earlycon= for a 16550 (uart8250/uart, io, mmio,
 * mmio32) and bare earlycon from the ACPI SPCR table.
 */
#ifndef IO_EARLYCON_H
#define IO_EARLYCON_H

#include "uart16550.h"

struct earlycon_spec {
	const char *name;	/* "uart8250" or "uart": what kgdboc_earlycon= may name */
	struct uart_port port;	/* where, and the baud rate (0: keep the line) */
	char options[24];	/* as given: "115200n8", or "" */
};

/*
 * uart_parse_earlycon - earlycon='s value: "uart8250,io,0x3f8,115200n8",
 * "uart,mmio32,0xfe032000", "uart8250,0x...".  0, -EKDB_ENOENT (not a
 * console name this kernel has), -EKDB_EINVAL (type, address or options).
 */
int uart_parse_earlycon(const char *v, struct earlycon_spec *ec);
/* "I/O port", "MMIO", "MMIO32": Linux's words in its earlycon line. */
const char *uart_iotype_str(u8 iotype);

/*
 * spcr_to_earlycon - an ACPI SPCR table (@len bytes) as an earlycon=
 * value into @buf ("uart,io,0x3f8,115200"), as Linux's acpi_parse_spcr
 * builds it.  Pure.  0, -EKDB_EINVAL (short or bad table), -EKDB_ENOSYS
 * (not a 16550 kind of UART, an address space or baud rate Linux refuses).
 */
int spcr_to_earlycon(const void *table, size_t len, char *buf, size_t buflen);
/* Little-endian field of @n bytes; the bytes of a table sum to 0 (spcr.c). */
u64 spcr_get_le(const u8 *p, unsigned n);
bool spcr_sum_ok(const u8 *p, size_t len);

#endif
