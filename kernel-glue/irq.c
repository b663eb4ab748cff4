/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq.c - request_irq()/free_irq() for ISA IRQs (see <kernel/irq.h>):
 * one vector per IRQ on CPU 0, handlers shared on a line, the local APIC
 * EOI after them, counts per IRQ and kdb's `irq` command to show them.
 */
#include <kernel/kernel.h>
#include <kernel/apic.h>
#include <kernel/ioapic.h>
#include <kernel/irq.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <asm/desc.h>
#include <ekdb/errno.h>
#include <ekdb/kdb.h>

struct irq_action {
	irq_handler_t handler;		/* NULL: free slot */
	void *dev;
	const char *name;
};

struct irq_desc {
	struct irq_action action[IRQ_MAX_SHARED];
	u32 gsi;
	bool level, active_low;
	u64 count;			/* interrupts delivered */
	u64 unhandled;			/* ... that no handler claimed */
};

static struct irq_desc irq_desc[NR_IRQS];
static DEFINE_SPINLOCK(irq_lock);
static bool irq_ready;
static u8 irq_target_apic;		/* CPU 0's local APIC id */

static bool irq_vector_interrupt(struct pt_regs *regs)
{
	unsigned int irq = (unsigned int)regs->vector - ISA_IRQ_VECTOR_BASE;
	struct irq_desc *d;
	bool handled = false;

	if (irq >= NR_IRQS)
		return false;
	d = &irq_desc[irq];
	d->count++;
	for (unsigned int i = 0; i < IRQ_MAX_SHARED; i++) {
		irq_handler_t fn = READ_ONCE(d->action[i].handler);

		if (fn && fn(irq, d->action[i].dev, regs))
			handled = true;
	}
	if (!handled)
		d->unhandled++;
	apic_eoi();
	return true;
}

static int kdb_irq(struct kdb_session *s, int argc, const char **argv)
{
	if (argc)
		return kdb_printf(s, "usage: irq\n"), 0;
	if (!irq_ready)
		return kdb_printf(s, "no I/O APIC: no device interrupts\n"), 0;
	kdb_printf(s, "IRQ GSI vec trigger     count  unhandled  handlers\n");
	for (unsigned int irq = 0; irq < NR_IRQS; irq++) {
		const struct irq_desc *d = &irq_desc[irq];
		bool any = false;

		for (unsigned int i = 0; i < IRQ_MAX_SHARED; i++)
			any |= d->action[i].handler != NULL;
		if (!any && !d->count)
			continue;
		kdb_printf(s, "%3u %3u %#x %-5s %-4s %9llu %10llu ", irq, d->gsi,
			   ISA_IRQ_VECTOR(irq), d->level ? "level" : "edge",
			   d->active_low ? "low" : "high", (unsigned long long)d->count,
			   (unsigned long long)d->unhandled);
		for (unsigned int i = 0; i < IRQ_MAX_SHARED; i++)
			if (d->action[i].handler)
				kdb_printf(s, " %s", d->action[i].name);
		kdb_printf(s, "\n");
	}
	return 0;
}

static const struct kdb_cmd irq_cmd = {
	.name = "irq",
	.fn = kdb_irq,
	.usage = "",
	.help = "Show the device interrupts: routing, counts, handlers",
	.flags = KDB_ENABLE_INSPECT,
};

bool irq_init(void)
{
	if (!apic_available() || !ioapic_init())
		return false;
	irq_target_apic = (u8)apic_id();	/* the boot CPU: CPU 0 */
	for (unsigned int irq = 0; irq < NR_IRQS; irq++) {
		struct irq_desc *d = &irq_desc[irq];

		d->gsi = isa_irq_to_gsi(irq, &d->level, &d->active_low);
		x86_set_trap_handler(ISA_IRQ_VECTOR(irq), irq_vector_interrupt);
	}
	kdb_register(&irq_cmd);
	irq_ready = true;
	return true;
}

int request_irq(unsigned int irq, irq_handler_t handler, const char *name, void *dev)
{
	struct irq_desc *d;
	unsigned long flags;
	int slot = -1, users = 0, err = 0;

	if (irq >= NR_IRQS || !handler)
		return -EKDB_EINVAL;
	if (!irq_ready)
		return -EKDB_ENODEV;
	d = &irq_desc[irq];
	spin_lock_irqsave(&irq_lock, flags);
	for (unsigned int i = 0; i < IRQ_MAX_SHARED; i++) {
		if (!d->action[i].handler) {
			if (slot < 0)
				slot = (int)i;
			continue;
		}
		users++;
		if (d->action[i].dev == dev)
			err = -EKDB_EEXIST;
	}
	if (!err && slot < 0)
		err = -EKDB_EBUSY;
	if (!err) {
		d->action[slot].dev = dev;
		d->action[slot].name = name;
		WRITE_ONCE(d->action[slot].handler, handler);	/* published last */
		if (!users && !ioapic_route(d->gsi, ISA_IRQ_VECTOR(irq), irq_target_apic,
					    d->level, d->active_low, false)) {
			WRITE_ONCE(d->action[slot].handler, NULL);
			err = -EKDB_ENODEV;	/* GSI beyond the I/O APIC */
		}
	}
	spin_unlock_irqrestore(&irq_lock, flags);
	if (!err)
		pr_info("irq: IRQ %u (GSI %u, vector %#x, %s) -> CPU 0: %s\n", irq, d->gsi,
			ISA_IRQ_VECTOR(irq), d->level ? "level" : "edge", name);
	return err;
}

int free_irq(unsigned int irq, void *dev)
{
	struct irq_desc *d;
	unsigned long flags;
	int err = -EKDB_ENOENT, users = 0;

	if (irq >= NR_IRQS)
		return -EKDB_EINVAL;
	d = &irq_desc[irq];
	spin_lock_irqsave(&irq_lock, flags);
	for (unsigned int i = 0; i < IRQ_MAX_SHARED; i++) {
		if (!d->action[i].handler)
			continue;
		if (d->action[i].dev == dev && err) {
			WRITE_ONCE(d->action[i].handler, NULL);
			err = 0;
		} else {
			users++;
		}
	}
	if (!err && !users)
		ioapic_mask(d->gsi, true);
	spin_unlock_irqrestore(&irq_lock, flags);
	return err;
}

u64 irq_count(unsigned int irq)
{
	return irq < NR_IRQS ? irq_desc[irq].count : 0;
}
