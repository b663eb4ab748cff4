/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pci_early.c - PCI configuration access before any PCI driver exists:
 * configuration mechanism #1 (address to 0xCF8, data at 0xCFC + offset),
 * what every PC chipset and QEMU's q35 decode.  With interrupts off
 * around each address/data pair so a tick cannot interleave its own.
 */
#include <asm/pci_early.h>
#include <asm/io.h>
#include <asm/processor.h>

#define PCI_CONF_ADDR	0xcf8
#define PCI_CONF_DATA	0xcfc

static u32 conf_addr(u8 bus, u8 slot, u8 func, u8 off)
{
	return 0x80000000u | (u32)bus << 16 | (u32)(slot & 31) << 11 |
	       (u32)(func & 7) << 8 | (off & 0xfc);
}

u32 early_pci_read32(u8 bus, u8 slot, u8 func, u8 off)
{
	u64 f = local_irq_save();
	u32 v;

	outl(PCI_CONF_ADDR, conf_addr(bus, slot, func, off));
	v = inl(PCI_CONF_DATA);
	local_irq_restore(f);
	return v;
}

u16 early_pci_read16(u8 bus, u8 slot, u8 func, u8 off)
{
	u64 f = local_irq_save();
	u16 v;

	outl(PCI_CONF_ADDR, conf_addr(bus, slot, func, off));
	v = inw(PCI_CONF_DATA + (off & 2));
	local_irq_restore(f);
	return v;
}

u8 early_pci_read8(u8 bus, u8 slot, u8 func, u8 off)
{
	u64 f = local_irq_save();
	u8 v;

	outl(PCI_CONF_ADDR, conf_addr(bus, slot, func, off));
	v = inb(PCI_CONF_DATA + (off & 3));
	local_irq_restore(f);
	return v;
}

void early_pci_write32(u8 bus, u8 slot, u8 func, u8 off, u32 val)
{
	u64 f = local_irq_save();

	outl(PCI_CONF_ADDR, conf_addr(bus, slot, func, off));
	outl(PCI_CONF_DATA, val);
	local_irq_restore(f);
}

void early_pci_write16(u8 bus, u8 slot, u8 func, u8 off, u16 val)
{
	u64 f = local_irq_save();

	outl(PCI_CONF_ADDR, conf_addr(bus, slot, func, off));
	outw(PCI_CONF_DATA + (off & 2), val);
	local_irq_restore(f);
}

void early_pci_write8(u8 bus, u8 slot, u8 func, u8 off, u8 val)
{
	u64 f = local_irq_save();

	outl(PCI_CONF_ADDR, conf_addr(bus, slot, func, off));
	outb(PCI_CONF_DATA + (off & 3), val);
	local_irq_restore(f);
}
