/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhci_pci.c - find the Nth xHCI controller (PCI class 0x0C0330), turn
 * memory decoding and bus mastering on (the controller does DMA), reach
 * its registers uncached through the early mapping (re-chosen when CR3
 * changes), walk the extended capabilities (HCCPARAMS1.xECP) and take
 * the controller from the firmware
 * (USB Legacy Support, ID 1: OS Owned, a second for BIOS Owned to clear,
 * else clear it ourselves with a warning; SMIs off).
 * Early configuration access (0xCF8/0xCFC); static storage only.
 */
#include "xhci_pci.h"
#include <asm/pci_early.h>
#include <asm/pgwalk.h>
#include <asm/processor.h>
#include <asm/tsc_early.h>
#include <ekdb/port.h>
#include <ekdb/log.h>
#include <ekdb/errno.h>

#define PCI_CLASS_XHCI		0x0c0330
#define PCI_COMMAND_MEMORY	0x02
#define PCI_COMMAND_MASTER	0x04
#define HANDOFF_US		1000000

int xhci_pci_find(unsigned index, struct xhci_pci *p, unsigned *n_xhci)
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

int xhci_pci_setup(struct xhci_pci *p)
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
u32 xhci_mmio_read(struct xhci_pci *p, u32 off)
{
	volatile u8 *b = ekdb_io_map_get(&p->mmio);

	return b ? *(volatile u32 *)(b + off) : 0xffffffffu;
}

void xhci_mmio_write(struct xhci_pci *p, u32 off, u32 val)
{
	volatile u8 *b = ekdb_io_map_get(&p->mmio);

	if (b)
		*(volatile u32 *)(b + off) = val;
}

int xhci_pci_map(struct xhci_pci *p)
{
	p->mmio.phys = p->bar_phys;
	p->mmio.len = XHCI_MAP_LEN;
	p->mmio.virt = NULL;
	return ekdb_io_map_get(&p->mmio) ? 0 : -EKDB_EFAULT;
}

static u32 ext_rd(void *arg, u32 off)
{
	return xhci_mmio_read(arg, off);
}

u32 xhci_pci_ext_cap(struct xhci_pci *p, unsigned id)
{
	return xhci_ext_cap(ext_rd, p, XHCI_MAP_LEN - 4, id);
}

void xhci_pci_handoff(struct xhci_pci *p, const char *who)
{
	u32 off = xhci_pci_ext_cap(p, XHCI_EXT_LEGSUP), v;
	u64 start;

	if (!off)
		return;
	v = xhci_mmio_read(p, off);
	xhci_mmio_write(p, off, v | LEGSUP_OS_OWNED);
	start = early_now_us();
	while (xhci_mmio_read(p, off) & LEGSUP_BIOS_OWNED) {
		if (early_now_us() - start > HANDOFF_US) {
			pr_warn("%s: firmware did not release the xHCI controller in 1 s: taking it\n", who);
			xhci_mmio_write(p, off, (xhci_mmio_read(p, off) & ~LEGSUP_BIOS_OWNED) | LEGSUP_OS_OWNED);
			break;
		}
	}
	/* SMIs off: keep only the write-1-to-clear status bits clear */
	xhci_mmio_write(p, off + XHCI_LEGCTLSTS, xhci_mmio_read(p, off + XHCI_LEGCTLSTS) & 0xe0000000u);
}

const char *xhci_pci_name(const struct xhci_pci *p, char *buf)
{
	static const char hex[] = "0123456789abcdef";

	buf[0] = hex[p->bus >> 4];
	buf[1] = hex[p->bus & 15];
	buf[2] = ':';
	buf[3] = hex[p->slot >> 4];
	buf[4] = hex[p->slot & 15];
	buf[5] = '.';
	buf[6] = (char)('0' + (p->func & 7));
	buf[7] = 0;
	return buf;
}

int xhci_dma_phys(const void *p, size_t len, u64 *phys)
{
	u64 pa;

	if (x86_virt_to_phys(p, phys))
		return -EKDB_EFAULT;
	for (size_t off = 4096; off < len; off += 4096)
		if (x86_virt_to_phys((const u8 *)p + off, &pa) || pa != *phys + off)
			return -EKDB_EFAULT;
	return 0;
}
