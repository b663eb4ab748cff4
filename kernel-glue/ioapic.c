/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ioapic.c - the x86 I/O APIC: indirect register access (IOREGSEL at +0x00,
 * IOWIN at +0x10), the version register, and the 64-bit redirection
 * entries (82093AA datasheet, section 3.2.4).  The MADT gives its base and
 * first GSI (kernel-glue/acpi.c); ISA IRQs reach it through the MADT's
 * interrupt source overrides or, with none, on GSI = IRQ.
 */
#include <kernel/kernel.h>
#include <kernel/acpi.h>
#include <kernel/ioapic.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <asm/io.h>

#define IOAPIC_REGSEL		0x00
#define IOAPIC_WIN		0x10

#define IOAPIC_REG_ID		0x00
#define IOAPIC_REG_VER		0x01
#define IOAPIC_REG_REDTBL(n)	(0x10 + 2 * (n))

/* Redirection entry, low dword */
#define RTE_DELIVERY_FIXED	(0u << 8)
#define RTE_DEST_PHYSICAL	(0u << 11)
#define RTE_ACTIVE_LOW		(1u << 13)
#define RTE_LEVEL		(1u << 15)
#define RTE_MASKED		(1u << 16)
/* high dword: destination APIC id in bits 24-31 */
#define RTE_DEST_SHIFT		24

static volatile u8 *ioapic_base;
static u32 gsi_base;
static unsigned int nr_inputs;
static DEFINE_SPINLOCK(ioapic_lock);

static u32 ioapic_read(u32 reg)
{
	writel(reg, ioapic_base + IOAPIC_REGSEL);
	return readl(ioapic_base + IOAPIC_WIN);
}

static void ioapic_write(u32 reg, u32 v)
{
	writel(reg, ioapic_base + IOAPIC_REGSEL);
	writel(v, ioapic_base + IOAPIC_WIN);
}

unsigned int ioapic_init(void)
{
	u32 ver;

	if (!acpi_info.found || !acpi_info.ioapic_base) {
		pr_warn("ioapic: the MADT lists no I/O APIC: no device interrupts\n");
		return 0;
	}
	ioapic_base = __va(acpi_info.ioapic_base);
	gsi_base = acpi_info.ioapic_gsi_base;
	ver = ioapic_read(IOAPIC_REG_VER);
	nr_inputs = ((ver >> 16) & 0xff) + 1;
	for (unsigned int i = 0; i < nr_inputs; i++) {
		ioapic_write(IOAPIC_REG_REDTBL(i) + 1, 0);
		ioapic_write(IOAPIC_REG_REDTBL(i), RTE_MASKED);
	}
	pr_info("ioapic: id %u at 0x%llx, version 0x%02x, GSI %u-%u, all masked\n",
		(ioapic_read(IOAPIC_REG_ID) >> 24) & 0xf,
		(unsigned long long)acpi_info.ioapic_base, ver & 0xff, gsi_base,
		gsi_base + nr_inputs - 1);
	return nr_inputs;
}

u32 isa_irq_to_gsi(unsigned int irq, bool *level, bool *active_low)
{
	*level = false;		/* ISA: edge, active high */
	*active_low = false;
	for (unsigned int i = 0; i < acpi_info.override_count; i++) {
		const struct acpi_irq_override *o = &acpi_info.overrides[i];

		if (o->source != irq)
			continue;
		*level = (o->flags & ACPI_MPS_TRIGGER_MASK) == ACPI_MPS_LEVEL;
		*active_low = (o->flags & ACPI_MPS_POLARITY_MASK) == ACPI_MPS_ACTIVE_LOW;
		return o->gsi;
	}
	return irq;
}

static bool gsi_pin(u32 gsi, unsigned int *pin)
{
	if (!ioapic_base || gsi < gsi_base || gsi - gsi_base >= nr_inputs)
		return false;
	*pin = gsi - gsi_base;
	return true;
}

bool ioapic_route(u32 gsi, u8 vector, u8 apic_id, bool level, bool active_low, bool masked)
{
	unsigned long flags;
	unsigned int pin;
	u32 low = vector | RTE_DELIVERY_FIXED | RTE_DEST_PHYSICAL;

	if (!gsi_pin(gsi, &pin))
		return false;
	if (level)
		low |= RTE_LEVEL;
	if (active_low)
		low |= RTE_ACTIVE_LOW;
	if (masked)
		low |= RTE_MASKED;
	spin_lock_irqsave(&ioapic_lock, flags);
	/* mask first, then the destination, then the rest: never half programmed */
	ioapic_write(IOAPIC_REG_REDTBL(pin), RTE_MASKED);
	ioapic_write(IOAPIC_REG_REDTBL(pin) + 1, (u32)apic_id << RTE_DEST_SHIFT);
	ioapic_write(IOAPIC_REG_REDTBL(pin), low);
	spin_unlock_irqrestore(&ioapic_lock, flags);
	return true;
}

bool ioapic_mask(u32 gsi, bool masked)
{
	unsigned long flags;
	unsigned int pin;
	u32 low;

	if (!gsi_pin(gsi, &pin))
		return false;
	spin_lock_irqsave(&ioapic_lock, flags);
	low = ioapic_read(IOAPIC_REG_REDTBL(pin));
	low = masked ? low | RTE_MASKED : low & ~RTE_MASKED;
	ioapic_write(IOAPIC_REG_REDTBL(pin), low);
	spin_unlock_irqrestore(&ioapic_lock, flags);
	return true;
}
