/* SPDX-License-Identifier: GPL-2.0 */
/*
 * serial_pci.c - pciserial[,force],BB:DD.F[,baud]: the 16550 of a PCI
 * function (QEMU's pci-serial: an I/O BAR; a laptop's Serial IO UART: a
 * memory BAR, registers 4 bytes apart), found before any PCI driver
 * through early configuration access.  Static storage only.
 */
#include "serial_pci.h"
#include "uart16550.h"
#include <asm/pci_early.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>

#define PCI_COMMAND		0x04
#define PCI_COMMAND_IO		0x01
#define PCI_COMMAND_MEMORY	0x02
#define PCI_BAR0		0x10

int uart_pci_resolve(const struct uart_pci_spec *s, struct uart_port *p)
{
	u32 class, bar;
	u16 cmd;

	if (early_pci_read16(s->bus, s->slot, s->func, 0x00) == 0xffff)
		return -EKDB_ENODEV;
	class = early_pci_read32(s->bus, s->slot, s->func, 0x08) >> 8;
	if (class != PCI_CLASS_SERIAL_16550 && !s->force)
		return -EKDB_ENODEV;
	bar = early_pci_read32(s->bus, s->slot, s->func, PCI_BAR0);
	memset(p, 0, sizeof(*p));
	p->baud = s->baud;
	cmd = early_pci_read16(s->bus, s->slot, s->func, PCI_COMMAND);
	if (bar & 1) {
		p->regs.iotype = UART_IO_PORT;
		p->regs.addr = bar & ~3u;
		cmd |= PCI_COMMAND_IO;
	} else {
		p->regs.iotype = UART_IO_MMIO32;
		p->regs.reg_shift = 2;
		p->regs.addr = bar & ~0xfu;
		if (((bar >> 1) & 3) == 2)		/* a 64-bit BAR */
			p->regs.addr |= (u64)early_pci_read32(s->bus, s->slot, s->func,
							      PCI_BAR0 + 4) << 32;
		cmd |= PCI_COMMAND_MEMORY;
	}
	if (!p->regs.addr)
		return -EKDB_ENODEV;		/* the firmware gave it no address */
	early_pci_write16(s->bus, s->slot, s->func, PCI_COMMAND, cmd);
	return 0;
}
