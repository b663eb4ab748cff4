/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pci.c - PCI configuration access, mechanism #1 (ports 0xCF8/0xCFC), and
 * the two things drivers need from it: find a device by id, read a BAR.
 * Every access writes the address and reads/writes the data under one
 * lock, so two CPUs cannot interleave.  QEMU's q35 and i440fx both
 * implement it.
 */
#include <kernel/pci.h>
#include <kernel/spinlock.h>
#include <asm/io.h>

#define PCI_CONF_ADDR	0xcf8
#define PCI_CONF_DATA	0xcfc

static spinlock_t pci_lock;

static u32 conf_addr(u32 bdf, u8 off)
{
	return 0x80000000u | (bdf & 0xffff) << 8 | (off & 0xfc);
}

u32 pci_read32(u32 bdf, u8 off)
{
	unsigned long flags;
	u32 v;

	spin_lock_irqsave(&pci_lock, flags);
	outl(PCI_CONF_ADDR, conf_addr(bdf, off));
	v = inl(PCI_CONF_DATA);
	spin_unlock_irqrestore(&pci_lock, flags);
	return v;
}

u16 pci_read16(u32 bdf, u8 off)
{
	return (u16)(pci_read32(bdf, off) >> ((off & 2) * 8));
}

void pci_write32(u32 bdf, u8 off, u32 v)
{
	unsigned long flags;

	spin_lock_irqsave(&pci_lock, flags);
	outl(PCI_CONF_ADDR, conf_addr(bdf, off));
	outl(PCI_CONF_DATA, v);
	spin_unlock_irqrestore(&pci_lock, flags);
}

void pci_write16(u32 bdf, u8 off, u16 v)
{
	unsigned long flags;

	spin_lock_irqsave(&pci_lock, flags);
	outl(PCI_CONF_ADDR, conf_addr(bdf, off));
	outw((u16)(PCI_CONF_DATA + (off & 2)), v);
	spin_unlock_irqrestore(&pci_lock, flags);
}

u8 pci_read8(u32 bdf, u8 off)
{
	return (u8)(pci_read32(bdf, off) >> ((off & 3) * 8));
}

void pci_write8(u32 bdf, u8 off, u8 v)
{
	unsigned long flags;

	spin_lock_irqsave(&pci_lock, flags);
	outl(PCI_CONF_ADDR, conf_addr(bdf, off));
	outb((u16)(PCI_CONF_DATA + (off & 3)), v);
	spin_unlock_irqrestore(&pci_lock, flags);
}

u8 pci_find_capability(u32 bdf, u8 id)
{
	u8 pos;

	if (!(pci_read16(bdf, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	pos = pci_read8(bdf, PCI_CAPABILITY_LIST) & 0xfc;
	for (int n = 0; pos >= 0x40 && n < 48; n++) {
		u16 cap = pci_read16(bdf, pos);

		if ((cap & 0xff) == id)
			return pos;
		pos = (u8)(cap >> 8) & 0xfc;
	}
	return 0;
}

/* Every present function, in bus/device/function order: @fn returns true to stop. */
static bool pci_walk(bool (*fn)(u32 bdf, u32 id, void *arg), void *arg)
{
	for (u32 bus = 0; bus < 256; bus++) {
		for (u32 dev = 0; dev < 32; dev++) {
			unsigned nfn = 1;

			for (u32 f = 0; f < nfn; f++) {
				u32 b = bus << 8 | dev << 3 | f;
				u32 id = pci_read32(b, PCI_VENDOR_ID);

				if ((id & 0xffff) == 0xffff)
					continue;
				if (f == 0 && (pci_read32(b, PCI_HEADER_TYPE & 0xfc) >> 16) & 0x80)
					nfn = 8;	/* multi-function device */
				if (fn(b, id, arg))
					return true;
			}
		}
	}
	return false;
}

void pci_for_each_function(bool (*fn)(u32 bdf, u32 id, void *arg), void *arg)
{
	pci_walk(fn, arg);
}

struct class_match {
	u32 class;
	unsigned index;
	u32 bdf;
};

static bool match_class(u32 bdf, u32 id, void *arg)
{
	struct class_match *m = arg;

	if (pci_read32(bdf, PCI_CLASS_REVISION) >> 8 != m->class)
		return false;
	if (m->index--)
		return false;
	m->bdf = bdf;
	return true;
}

bool pci_find_class(u32 class, unsigned index, u32 *bdf)
{
	struct class_match m = { .class = class, .index = index };

	if (!pci_walk(match_class, &m))
		return false;
	*bdf = m.bdf;
	return true;
}

struct id_match {
	u32 id;		/* device << 16 | vendor, as the config space has it */
	u32 bdf;
};

static bool match_id(u32 bdf, u32 id, void *arg)
{
	struct id_match *m = arg;

	if (id != m->id)
		return false;
	m->bdf = bdf;
	return true;
}

bool pci_find_device(u16 vendor, u16 device, u32 *bdf)
{
	struct id_match m = { .id = (u32)device << 16 | vendor };

	if (!pci_walk(match_id, &m))
		return false;
	*bdf = m.bdf;
	return true;
}

u64 pci_bar_address(u32 bdf, unsigned n)
{
	u8 off = (u8)(PCI_BAR0 + 4 * n);
	u32 lo = pci_read32(bdf, off);
	u64 bar = lo & ~0xfULL;

	if (n > 5 || (lo & 1))
		return 0;
	if ((lo & 0x6) == 0x4 && n < 5)
		bar |= (u64)pci_read32(bdf, (u8)(off + 4)) << 32;
	return bar;
}

bool pci_bar(u32 bdf, unsigned n, u64 *base, u64 *size)
{
	u8 off = (u8)(PCI_BAR0 + 4 * n);
	u32 lo = pci_read32(bdf, off), hi = 0, szlo, szhi = 0xffffffffu;
	bool is64 = (lo & 0x6) == 0x4;
	u16 cmd = pci_read16(bdf, PCI_COMMAND);

	if (n > 5 || (lo & 1) || (is64 && n == 5))
		return false;
	if (is64)
		hi = pci_read32(bdf, (u8)(off + 4));
	pci_write16(bdf, PCI_COMMAND, (u16)(cmd & ~(PCI_COMMAND_MEMORY | PCI_COMMAND_IO)));
	pci_write32(bdf, off, 0xffffffffu);
	szlo = pci_read32(bdf, off);
	pci_write32(bdf, off, lo);
	if (is64) {
		pci_write32(bdf, (u8)(off + 4), 0xffffffffu);
		szhi = pci_read32(bdf, (u8)(off + 4));
		pci_write32(bdf, (u8)(off + 4), hi);
	}
	pci_write16(bdf, PCI_COMMAND, cmd);
	*base = ((u64)hi << 32 | lo) & ~0xfULL;
	*size = ~(((u64)szhi << 32 | szlo) & ~0xfULL) + 1;
	if (!is64)
		*size &= 0xffffffffULL;
	return *base != 0 && (szlo & ~0xfu) != 0;
}
