/* SPDX-License-Identifier: GPL-2.0 */
/* serial8250.h - the running kernel's interrupt-driven 16550 driver (ttyS0..3). */
#ifndef KERNEL_DRIVERS_SERIAL8250_H
#define KERNEL_DRIVERS_SERIAL8250_H

#include <ekdb/types.h>

/**
 * serial8250_register_port() - drive the 16550 at @regs (port I/O, or
 * memory already mapped: regs->virt) on IRQ @irq (0: polled from the
 * timer tick) as @name ("ttyS0").  Called by the bus glue
 * (serial8250_isa.c, serial8250_pci.c) for each port the kernel wants:
 * the console's and the debugger's.
 * @console: received bytes that are not the debugger's go to the console
 *           input; otherwise they are counted and dropped (no reader)
 * @setup_baud: 0: keep the line as it is (the console or the early
 *           debugger set it up: no byte in the FIFO is lost); else program
 *           it at that rate, 8N1, FIFOs on
 * Return: 0 or -errno (no UART there, IRQ not available, table full).
 */
struct uart_regs;
int serial8250_register_port(const char *name, const struct uart_regs *regs, unsigned int irq,
			     bool console, u32 setup_baud);
/** serial8250_nr_ports() - how many ports are registered (the next ttySn of a PCI port). */
unsigned int serial8250_nr_ports(void);

/** serial8250_init() - find and register the ports (serial8250_isa.c, then the PCI ones). */
void serial8250_init(void);
/** serial8250_pci_init() - the 16550s behind PCI functions (serial8250_pci.c): ttyS4... */
void serial8250_pci_init(void);

struct ekdb_transport;
/** serial8250_find() - the debugger transport of the registered port @name, or NULL. */
struct ekdb_transport *serial8250_find(const char *name);

/**
 * serial8250_set_baud() - a run-time kgdboc=ttySn,@baud on a registered
 * port: program @baud (0: keep the line as it is, as Linux's uart_poll_init).
 */
int serial8250_set_baud(struct ekdb_transport *t, u32 baud);

#endif
