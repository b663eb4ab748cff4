/* SPDX-License-Identifier: GPL-2.0 */
/* serial_transport.h - the debugger transport over a 16550 (ekgdboc=ttySn). */
#ifndef IO_SERIAL_TRANSPORT_H
#define IO_SERIAL_TRANSPORT_H

#include <ekdb/transport.h>

struct uart_port;
struct uart_regs;

/*
 * serial_transport_init - set up the port named by @opt ("ttyS1,115200",
 * "0x2f8"); when the early console already drives that port, share it
 * (its baud rate wins).  Returns the transport, or NULL with *@err set.
 */
struct ekdb_transport *serial_transport_init(const char *opt, int *err);

/*
 * serial_transport_start - the same for a port already described (@want:
 * registers and baud rate, e.g. from earlycon=): the pool's instance for
 * that UART.  NULL with *@err set (no UART, pool full).
 */
struct ekdb_transport *serial_transport_start(const struct uart_port *want, int *err);

/*
 * serial_transport_adopt - the 16550 at @base, already programmed for
 * @baud by the loader's debugger, taken as it is (no reset): the handed-over
 * session goes on over it.  @pending: bytes read, not consumed (oldest first).
 */
struct ekdb_transport *serial_transport_adopt(u16 base, u32 baud, const u8 *pending, unsigned n);

/* "io 0x3f8", "mmio32 0xc0001000": the device, as transports' dev says it. */
void uart_regs_describe(const struct uart_regs *r, char *buf, size_t len);

#endif
