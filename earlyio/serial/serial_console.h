/* SPDX-License-Identifier: GPL-2.0 */
/* serial_console.h - register the early serial console. */
#ifndef EARLYIO_SERIAL_CONSOLE_H
#define EARLYIO_SERIAL_CONSOLE_H

struct uart_port;

/* @opt as after "earlyprintk=serial,": "ttyS0,115200", "0x3f8", "". 0 or -EKDB_E*. */
int early_serial_console_init(const char *opt);
/* The port the early console uses, or NULL. */
struct uart_port *early_serial_console_port(void);

#endif
