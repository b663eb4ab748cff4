/* SPDX-License-Identifier: GPL-2.0 */
/* xdbc_pci.h - the xHCI controller on PCI: discovery, registers, firmware handoff. */
#ifndef IO_XHCI_DBC_PCI_H
#define IO_XHCI_DBC_PCI_H

#include "xdbc.h"

struct xdbc_pci {
	u8 bus, slot, func;
	u64 bar_phys;
};

/* The @index'th (0-based) xHCI controller; *@n_xhci: how many were seen. */
int xdbc_pci_find(unsigned index, struct xdbc_pci *p, unsigned *n_xhci);
/* Its register BAR; memory decoding and bus mastering on. */
int xdbc_pci_setup(struct xdbc_pci *p);
/* Reach the BAR uncached (0 or -EKDB_EFAULT); then the accessors work. */
int xdbc_pci_map(struct xdbc_pci *p);
u32 xdbc_mmio_read(u32 off);
void xdbc_mmio_write(u32 off, u32 val);
/* The offset of extended capability @id in the BAR, or 0 (none). */
u32 xdbc_find_ext_cap(unsigned id);
/* USB Legacy Support: take the controller from the firmware. */
void xdbc_pci_handoff(void);

#endif
