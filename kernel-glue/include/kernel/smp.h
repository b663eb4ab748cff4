/* SPDX-License-Identifier: GPL-2.0 */
/* smp.h - starting the application processors (INIT-SIPI-SIPI through a real-mode trampoline). */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <ekdb/types.h>
#include <kernel/percpu.h>

/**
 * smp_init() - start every enabled MADT CPU other than the boot CPU.
 *
 * Needs time_init() (delays, the APIC) and mm_init() (stacks).  Each AP
 * gets its GDT/TSS, the IDT, its per-CPU GS base, its APIC and timer, and
 * enters its idle loop with interrupts on.  A CPU that does not answer
 * within a bounded time is reported and skipped.  Prints
 * "smp: Brought up 1 node, N CPUs".
 */
void smp_init(void);

/** cpu_apic_id() - local APIC id of logical CPU @cpu. */
static inline u32 cpu_apic_id(unsigned int cpu)
{
	return percpu_area[cpu].apic_id;
}

/**
 * smp_apic_to_cpu() - logical CPU number of local APIC id @apic_id, or
 * -1 when no CPU has it.
 */
int smp_apic_to_cpu(u32 apic_id);

#endif /* KERNEL_SMP_H */
