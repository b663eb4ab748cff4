/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq.h - device interrupts for drivers: request_irq()/free_irq() on ISA
 * IRQ numbers (0-15), routed by the I/O APIC (kernel-glue/ioapic.c) to
 * one vector each on CPU 0.
 *
 * A handler runs in interrupt context on CPU 0: interrupts off, no
 * sleeping, no allocation; it gets the interrupted register frame (the
 * debugger can be entered from it with ekdb_break_in()).  Several
 * handlers may share one IRQ (ttyS0/ttyS2 share IRQ 4 on a PC): each is
 * called in turn and says whether its device had something.  The local
 * APIC EOI is sent by the core after the handlers ran.
 *
 *   static bool my_interrupt(unsigned int irq, void *dev, struct pt_regs *regs);
 *   err = request_irq(4, my_interrupt, "ttyS0", port);   // 0 or -errno
 *   free_irq(4, port);
 */
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

#include <ekdb/types.h>
#include <asm/regs.h>

#define NR_IRQS			16	/* ISA IRQs */
#define IRQ_MAX_SHARED		4	/* handlers on one IRQ */

/*
 * Vectors of the ISA IRQs: IRQ n on ISA_IRQ_VECTOR(n).  Priority class 3
 * (0x30-0x3f): below the local timer (0xec) and the IPIs.
 */
#define ISA_IRQ_VECTOR_BASE	0x30
#define ISA_IRQ_VECTOR(irq)	(ISA_IRQ_VECTOR_BASE + (irq))

/* Well-known ISA IRQs */
#define IRQ_TIMER_PIT		0
#define IRQ_KEYBOARD		1
#define IRQ_COM2		3	/* ttyS1, ttyS3 */
#define IRQ_COM1		4	/* ttyS0, ttyS2 */
#define IRQ_MOUSE		12

/* Returns true when the device had an interrupt pending (it was ours). */
typedef bool (*irq_handler_t)(unsigned int irq, void *dev, struct pt_regs *regs);

/**
 * irq_init() - find the I/O APIC (ACPI MADT), mask every input, install
 * the vectors.  Boot CPU, after time_init() (local APIC up).
 * Return: false when there is no I/O APIC (request_irq() then fails).
 */
bool irq_init(void);

/**
 * request_irq() - call @handler for every interrupt of ISA IRQ @irq.
 * @irq: 0-15
 * @handler: interrupt-context function
 * @name: shown by kdb's `irq` command (kept, not copied)
 * @dev: passed to @handler; identifies this handler for free_irq()
 *
 * The first handler unmasks the line (routed to CPU 0, polarity and
 * trigger from the MADT overrides).  Process context.
 * Return: 0, -EKDB_EINVAL (bad irq/handler), -EKDB_ENODEV (no I/O APIC),
 * -EKDB_EBUSY (IRQ_MAX_SHARED handlers already), -EKDB_EEXIST (@dev twice).
 */
int request_irq(unsigned int irq, irq_handler_t handler, const char *name, void *dev);

/**
 * free_irq() - remove @dev's handler from @irq; the last one masks the line.
 * Return: 0 or -EKDB_ENOENT.
 */
int free_irq(unsigned int irq, void *dev);

/** irq_count() - interrupts handled on @irq so far (0 for a bad irq). */
u64 irq_count(unsigned int irq);

#endif /* KERNEL_IRQ_H */
