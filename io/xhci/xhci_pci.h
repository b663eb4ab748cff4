/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhci_pci.h - an xHCI controller on PCI for the early drivers (the DbC's
 * and the keyboards'): discovery, registers, firmware handoff.
 */
#ifndef IO_XHCI_PCI_H
#define IO_XHCI_PCI_H

#include "xhci.h"
#include <ekdb/port.h>

struct xhci_pci {
	u8 bus, slot, func;
	u64 bar_phys;
	struct ekdb_io_map mmio;	/* the BAR's first XHCI_MAP_LEN bytes */
};

/* The @index'th (0-based) xHCI controller; *@n_xhci: how many were seen. */
int xhci_pci_find(unsigned index, struct xhci_pci *p, unsigned *n_xhci);
/* Its register BAR; memory decoding and bus mastering on. */
int xhci_pci_setup(struct xhci_pci *p);
/* Reach the BAR uncached (0 or -EKDB_EFAULT); then the accessors work. */
int xhci_pci_map(struct xhci_pci *p);
/* Register access; all ones when the BAR is not reachable. */
u32 xhci_mmio_read(struct xhci_pci *p, u32 off);
void xhci_mmio_write(struct xhci_pci *p, u32 off, u32 val);
/* The offset of extended capability @id in the BAR, or 0 (none). */
u32 xhci_pci_ext_cap(struct xhci_pci *p, unsigned id);
/* USB Legacy Support: take the controller from the firmware (@who: the messages' prefix). */
void xhci_pci_handoff(struct xhci_pci *p, const char *who);
/* The bus address for messages: "00:04.0" (@buf of 8 bytes at least). */
const char *xhci_pci_name(const struct xhci_pci *p, char *buf);
/*
 * xhci_dma_phys - the physical address of a static DMA block, from the
 * page tables in use: each 4 KiB page of it must follow the previous one
 * physically (the kernel image is one contiguous block; this checks it
 * rather than assumes it).  0 or -EKDB_EFAULT.
 */
int xhci_dma_phys(const void *p, size_t len, u64 *phys);

#endif
