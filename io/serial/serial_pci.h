/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serial_pci.h - a 16550 behind a PCI function, named as Linux's x86
 * earlyprintk names it: pciserial[,force],bus:device.function[,baud].
 */
#ifndef IO_SERIAL_PCI_H
#define IO_SERIAL_PCI_H

#include <ekdb/types.h>

struct uart_port;

struct uart_pci_spec {
	u8 bus, slot, func;
	bool force;		/* not a 16550-class function (an LPSS UART): take BAR0 anyway */
	u32 baud;
};

/*
 * uart_parse_pciserial - "[force,]BB:DD.F[,baud]" (what follows
 * "pciserial,"; numbers in hex as lspci prints them).  Pure.  0 or -EKDB_EINVAL.
 */
int uart_parse_pciserial(const char *opt, struct uart_pci_spec *s);

/*
 * uart_pci_resolve - read the function's class and BAR0 (early config
 * access), turn its decoding on, and describe its registers in @p: an I/O
 * BAR is port I/O; a memory BAR is 32-bit accesses 4 bytes apart (Linux's
 * x86 early mem32).  0, -EKDB_ENODEV (no function there, not a 16550
 * without force, no BAR).
 */
int uart_pci_resolve(const struct uart_pci_spec *s, struct uart_port *p);

/* PCI class code of a 16550-compatible serial controller (class 07, subclass 00, prog-if 02). */
#define PCI_CLASS_SERIAL_16550	0x070002

#endif
