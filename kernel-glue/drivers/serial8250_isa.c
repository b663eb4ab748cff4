/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serial8250_isa.c - the PC's ISA serial ports: ttyS0..3 at their fixed
 * I/O bases and IRQs (COM1/COM3 on IRQ 4, COM2/COM4 on IRQ 3).
 *
 * The interrupt-driven driver takes a port when the kernel wants it: the
 * line of the serial console (earlyprintk=serial,ttySn) and the lines the
 * debugger uses (ekgdboc=/kgdboc=, ekdb_io_wanted()).  Other ports stay
 * untouched, so polled users (test_linerate=) keep them.
 */
#include <kernel/kernel.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <ekdb/ekdb.h>
#include "serial8250.h"
#include "../../earlyio/serial/uart16550.h"
#include "../../earlyio/serial/serial_console.h"

static const unsigned int isa_serial_irq[4] = { IRQ_COM1, IRQ_COM2, IRQ_COM1, IRQ_COM2 };

void serial8250_init(void)
{
	struct uart_port *console = early_serial_console_port();

	for (unsigned int i = 0; i < ARRAY_SIZE(uart_std_ports); i++) {
		char name[8] = "ttyS0";

		name[4] = (char)('0' + i);
		if (!(console && console->base == uart_std_ports[i]) && !ekdb_io_wanted(name))
			continue;
		serial8250_register_port(name, uart_std_ports[i], isa_serial_irq[i]);
	}
}
