/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dbgp_pci.c - find the Nth EHCI controller that has a debug port (PCI
 * class 0x0C0320 with capability 0x0A), turn its memory decoding on,
 * take it from the firmware (USBLEGSUP: ask with "OS owned", wait up to a
 * second for "BIOS owned" to clear, then take it anyway and turn the
 * firmware's SMIs off), and reach its registers uncached (dbgp_io).
 * Early configuration access (0xCF8/0xCFC); static storage only.
 */
#include "dbgp_pci.h"
#include <asm/pci_early.h>
#include <asm/processor.h>
#include <asm/tsc_early.h>
#include <ekdb/port.h>
#include <ekdb/log.h>
#include <ekdb/errno.h>

#define PCI_CLASS_EHCI		0x0c0320
#define PCI_CAP_ID_DBGP		0x0a
#define PCI_STATUS_CAP_LIST	0x10
#define PCI_COMMAND_MEMORY	0x02
#define EHCI_LEGSUP_ID		0x01
#define LEGSUP_BIOS_OWNED	(1u << 16)
#define LEGSUP_OS_OWNED		(1u << 24)
#define HANDOFF_US		1000000
#define DBGP_MAP_LEN		0x400	/* capability, operational and debug registers */

/* The capability 0x0A dword's offset in config space, or 0. */
static u8 find_dbgp_cap(u8 bus, u8 slot, u8 func)
{
	u8 pos;

	if (!(early_pci_read16(bus, slot, func, 0x06) & PCI_STATUS_CAP_LIST))
		return 0;
	pos = early_pci_read8(bus, slot, func, 0x34) & 0xfc;
	for (int n = 0; pos >= 0x40 && n < 48; n++) {
		u16 cap = early_pci_read16(bus, slot, func, pos);

		if ((cap & 0xff) == PCI_CAP_ID_DBGP)
			return pos;
		pos = (u8)(cap >> 8) & 0xfc;
	}
	return 0;
}

int dbgp_pci_find(unsigned index, struct dbgp_state *st, unsigned *n_ehci, unsigned *n_dbgp)
{
	*n_ehci = *n_dbgp = 0;
	for (unsigned bus = 0; bus < 256; bus++) {
		for (u8 slot = 0; slot < 32; slot++) {
			for (u8 func = 0; func < 8; func++) {
				u16 vendor = early_pci_read16((u8)bus, slot, func, 0x00);
				u8 cap;

				if (vendor == 0xffff) {
					if (!func)
						break;
					continue;
				}
				if ((early_pci_read32((u8)bus, slot, func, 0x08) >> 8) == PCI_CLASS_EHCI) {
					++*n_ehci;
					cap = find_dbgp_cap((u8)bus, slot, func);
					if (cap && (*n_dbgp)++ == index) {
						st->bus = (u8)bus;
						st->slot = slot;
						st->func = func;
						return cap;
					}
				}
				if (!func && !(early_pci_read8((u8)bus, slot, 0, 0x0e) & 0x80))
					break;		/* single-function device */
			}
		}
	}
	return -EKDB_ENODEV;
}

int dbgp_pci_setup(struct dbgp_state *st, u8 cap)
{
	u32 dw = early_pci_read32(st->bus, st->slot, st->func, cap);
	unsigned barnum = (dw >> 29) & 7;
	u8 bar_reg;
	u32 lo;
	u64 bar;

	if (barnum < 1 || barnum > 6)
		return -EKDB_ENODEV;
	bar_reg = (u8)(0x10 + 4 * (barnum - 1));
	lo = early_pci_read32(st->bus, st->slot, st->func, bar_reg);
	if (lo & 1)
		return -EKDB_ENODEV;		/* an I/O BAR: not what the spec allows */
	bar = lo & ~0xfULL;
	if (((lo >> 1) & 3) == 2 && barnum < 6)
		bar |= (u64)early_pci_read32(st->bus, st->slot, st->func, bar_reg + 4) << 32;
	if (!bar)
		return -EKDB_ENODEV;		/* firmware gave it no address */
	st->bar_phys = bar;
	st->dbgp_off = (dw >> 16) & 0x1fff;
	early_pci_write16(st->bus, st->slot, st->func, 0x04,
			  early_pci_read16(st->bus, st->slot, st->func, 0x04) | PCI_COMMAND_MEMORY);
	return 0;
}

/* USBLEGSUP: the firmware lets go of the controller (or is made to). */
void dbgp_pci_handoff(const struct dbgp_state *st, u32 hccparams)
{
	u8 pos = (u8)HCC_EECP(hccparams);

	for (int n = 0; pos >= 0x40 && n < 8; n++) {
		u32 cap = early_pci_read32(st->bus, st->slot, st->func, pos);

		if ((cap & 0xff) == EHCI_LEGSUP_ID) {
			if (cap & LEGSUP_BIOS_OWNED) {
				u64 start = early_now_us();

				early_pci_write8(st->bus, st->slot, st->func, pos + 3, 1);
				while (early_pci_read32(st->bus, st->slot, st->func, pos) & LEGSUP_BIOS_OWNED) {
					if (early_now_us() - start > HANDOFF_US) {
						pr_warn("dbgp: firmware did not release the EHCI controller in 1 s: taking it\n");
						early_pci_write8(st->bus, st->slot, st->func, pos + 2, 0);
						break;
					}
				}
			}
			early_pci_write8(st->bus, st->slot, st->func, pos + 3, 1);
			early_pci_write32(st->bus, st->slot, st->func, pos + 4, 0);	/* no SMIs */
			return;
		}
		pos = (u8)(cap >> 8);
	}
}

/* ------------------------------------------------------------ MMIO */
static struct ekdb_io_map mmio;

static volatile u8 *mmio_base(void)
{
	return ekdb_io_map_get(&mmio);
}

static u32 mmio_read(struct dbgp_io *io, u32 off)
{
	volatile u8 *b = mmio_base();

	return b ? *(volatile u32 *)(b + off) : 0xffffffffu;
}

static void mmio_write(struct dbgp_io *io, u32 off, u32 val)
{
	volatile u8 *b = mmio_base();

	if (b)
		*(volatile u32 *)(b + off) = val;
}

static u64 mmio_now_us(struct dbgp_io *io)
{
	return early_now_us();
}

static struct dbgp_io dbgp_mmio_io = {
	.read = mmio_read,
	.write = mmio_write,
	.now_us = mmio_now_us,
};

struct dbgp_io *dbgp_pci_io(u64 bar_phys)
{
	mmio.phys = bar_phys;
	mmio.len = DBGP_MAP_LEN;
	mmio.virt = NULL;
	if (!mmio_base())
		return NULL;
	return &dbgp_mmio_io;
}
