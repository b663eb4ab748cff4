/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xdbc_pci.c - find the Nth xHCI controller (PCI class 0x0C0330), turn
 * memory decoding and bus mastering on (the DbC does DMA), reach its
 * registers uncached through the early mapping (re-chosen when CR3
 * changes), walk the extended capabilities (HCCPARAMS1.xECP) to the
 * Debug Capability (ID 10) and take the controller from the firmware
 * (USB Legacy Support, ID 1: OS Owned, a second for BIOS Owned to clear,
 * else clear it ourselves with a warning; SMIs off).
 * Early configuration access (0xCF8/0xCFC); static storage only.
 */
#include "xdbc_pci.h"
#include <asm/pci_early.h>
#include <asm/processor.h>
#include <asm/tsc_early.h>
#include <ekdb/port.h>
#include <ekdb/log.h>
#include <ekdb/errno.h>

#define PCI_CLASS_XHCI		0x0c0330
#define PCI_COMMAND_MEMORY	0x02
#define PCI_COMMAND_MASTER	0x04
#define HANDOFF_US		1000000

int xdbc_pci_find(unsigned index, struct xdbc_pci *p, unsigned *n_xhci)
{
	*n_xhci = 0;
	for (unsigned bus = 0; bus < 256; bus++) {
		for (u8 slot = 0; slot < 32; slot++) {
			for (u8 func = 0; func < 8; func++) {
				u16 vendor = early_pci_read16((u8)bus, slot, func, 0x00);

				if (vendor == 0xffff) {
					if (!func)
						break;
					continue;
				}
				if ((early_pci_read32((u8)bus, slot, func, 0x08) >> 8) == PCI_CLASS_XHCI &&
				    (*n_xhci)++ == index) {
					p->bus = (u8)bus;
					p->slot = slot;
					p->func = func;
				}
				if (!func && !(early_pci_read8((u8)bus, slot, 0, 0x0e) & 0x80))
					break;		/* single-function device */
			}
		}
	}
	return index < *n_xhci ? 0 : -EKDB_ENODEV;
}

int xdbc_pci_setup(struct xdbc_pci *p)
{
	u32 lo = early_pci_read32(p->bus, p->slot, p->func, 0x10);
	u64 bar;

	if (lo & 1)
		return -EKDB_ENODEV;		/* an I/O BAR: not an xHCI */
	bar = lo & ~0xfULL;
	if (((lo >> 1) & 3) == 2)
		bar |= (u64)early_pci_read32(p->bus, p->slot, p->func, 0x14) << 32;
	if (!bar)
		return -EKDB_ENODEV;		/* firmware gave it no address */
	p->bar_phys = bar;
	early_pci_write16(p->bus, p->slot, p->func, 0x04,
			  early_pci_read16(p->bus, p->slot, p->func, 0x04) |
			  PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	return 0;
}

/* ------------------------------------------------------------ MMIO */
static struct ekdb_io_map mmio;

static volatile u8 *mmio_base(void)
{
	return ekdb_io_map_get(&mmio);
}

u32 xdbc_mmio_read(u32 off)
{
	volatile u8 *b = mmio_base();

	return b ? *(volatile u32 *)(b + off) : 0xffffffffu;
}

void xdbc_mmio_write(u32 off, u32 val)
{
	volatile u8 *b = mmio_base();

	if (b)
		*(volatile u32 *)(b + off) = val;
}

int xdbc_pci_map(struct xdbc_pci *p)
{
	mmio.phys = p->bar_phys;
	mmio.len = XHCI_MAP_LEN;
	mmio.virt = NULL;
	return mmio_base() ? 0 : -EKDB_EFAULT;
}

static u32 ext_rd(void *arg, u32 off)
{
	return xdbc_mmio_read(off);
}

/* The offset of extended capability @id in the BAR, or 0. */
u32 xdbc_find_ext_cap(unsigned id)
{
	return xhci_ext_cap(ext_rd, NULL, XHCI_MAP_LEN - 4, id);
}

void xdbc_pci_handoff(void)
{
	u32 off = xdbc_find_ext_cap(XHCI_EXT_LEGSUP), v;
	u64 start;

	if (!off)
		return;
	v = xdbc_mmio_read(off);
	xdbc_mmio_write(off, v | LEGSUP_OS_OWNED);
	start = early_now_us();
	while (xdbc_mmio_read(off) & LEGSUP_BIOS_OWNED) {
		if (early_now_us() - start > HANDOFF_US) {
			pr_warn("xdbc: firmware did not release the xHCI controller in 1 s: taking it\n");
			xdbc_mmio_write(off, (xdbc_mmio_read(off) & ~LEGSUP_BIOS_OWNED) | LEGSUP_OS_OWNED);
			break;
		}
	}
	/* SMIs off: keep only the write-1-to-clear status bits clear */
	xdbc_mmio_write(off + XHCI_LEGCTLSTS, xdbc_mmio_read(off + XHCI_LEGCTLSTS) & 0xe0000000u);
}
