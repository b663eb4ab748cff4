/* SPDX-License-Identifier: GPL-2.0 */
/* serial_console.h - register the early serial consoles. */
#ifndef IO_SERIAL_CONSOLE_H
#define IO_SERIAL_CONSOLE_H

struct uart_port;
struct uart_regs;

enum {
	EARLY_SERIAL_PRINTK,	/* earlyprintk=serial, pciserial */
	EARLY_SERIAL_EARLYCON,	/* earlycon= */
	EARLY_SERIAL_SLOTS
};

/* @opt as after "earlyprintk=serial,": "ttyS0,115200", "0x3f8", "". 0 or -EKDB_E*. */
int early_serial_console_init(const char *opt);
/*
 * The console of @slot on a port already described (earlycon=, pciserial).
 * 0, -EKDB_EBUSY (that slot is in use), or the port's error.
 */
int early_serial_console_start(const struct uart_port *port, int slot);
/* The port an early console uses, or NULL (the first one set up). */
struct uart_port *early_serial_console_port(void);
/* The early console's port on the UART at @r, or NULL. */
struct uart_port *early_serial_console_of(const struct uart_regs *r);

#endif
