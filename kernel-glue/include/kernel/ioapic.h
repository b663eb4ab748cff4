/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ioapic.h - the x86 I/O APIC (82093AA register model): redirection
 * entries that send a global system interrupt (GSI) to a vector on a CPU.
 * Drivers do not use this directly: they use <kernel/irq.h>.
 */
#ifndef KERNEL_IOAPIC_H
#define KERNEL_IOAPIC_H

#include <ekdb/types.h>

/**
 * ioapic_init() - map the I/O APIC the MADT names and mask every input.
 * Return: the number of inputs (redirection entries), 0 when there is none.
 */
unsigned int ioapic_init(void);

/**
 * isa_irq_to_gsi() - where ISA IRQ @irq arrives, after the MADT's source
 * overrides (QEMU: IRQ 0 -> GSI 2).  @level/@active_low get the trigger
 * mode and polarity (ISA default: edge, active high).
 */
u32 isa_irq_to_gsi(unsigned int irq, bool *level, bool *active_low);

/**
 * ioapic_route() - program @gsi to deliver @vector (fixed, physical
 * destination @apic_id) with the given trigger and polarity, masked or not.
 * Return: false when @gsi is not on this I/O APIC.
 */
bool ioapic_route(u32 gsi, u8 vector, u8 apic_id, bool level, bool active_low, bool masked);

/** ioapic_mask() - mask (true) or unmask (false) @gsi; keeps the route. */
bool ioapic_mask(u32 gsi, bool masked);

#endif /* KERNEL_IOAPIC_H */
