/* SPDX-License-Identifier: GPL-2.0 */
/* percpu.h - one struct percpu per CPU, reached through the GS base MSR. */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <ekdb/types.h>
#include <asm/smp.h>

struct task_struct;

/*
 * struct percpu - what each CPU knows about itself.
 *
 * percpu_area[n] belongs to CPU n (logical number: 0 = boot CPU, then the
 * MADT order).  The GS base MSR of CPU n holds &percpu_area[n], and the
 * first field points to itself, so "movq %gs:0" gives this CPU's record.
 * The array is static: the debugger can read every CPU's record (and
 * find which task runs where) at any time, even from an NMI.
 */
struct percpu {
	struct percpu *self;		/* offset 0: read with %gs:0 */
	unsigned int cpu;		/* logical CPU number, index in percpu_area */
	u32 apic_id;			/* local APIC id */
	struct task_struct *curr_task;	/* task running here (`current`; never NULL once set up) */
	struct task_struct *idle_task;	/* this CPU's idle task, swapper/N */
	bool online;			/* up and scheduling */
	bool need_resched;		/* switch tasks on the way out of the next tick */
	unsigned int slice;		/* timer ticks left in current's time slice */
	u64 ticks;			/* local APIC timer interrupts taken */
	u64 jiffies_seen;		/* last jiffies value this CPU's tick saw */
	unsigned int jiffies_stuck;	/* own ticks since jiffies last moved */
	unsigned int keeper_seen;	/* timekeeper CPU those ticks were counted against */
	u64 nr_switches;		/* context switches done on this CPU */
};

extern struct percpu percpu_area[NR_CPUS];
/* true once the boot CPU's GS base points into percpu_area */
extern bool percpu_ready;
/* number of CPUs that may come online (boot CPU + MADT CPUs being started) */
extern unsigned int nr_cpu_ids;

/**
 * this_cpu() - the running CPU's struct percpu.
 *
 * Valid from start_kernel()'s percpu_init_boot_cpu() on; before that (and
 * on the boot CPU only) it is percpu_area[0].  Callable from any context,
 * NMI included.  The answer is only stable while the caller cannot
 * migrate (interrupts off, or a CPU-bound task).
 */
static inline struct percpu *this_cpu(void)
{
	struct percpu *p;

	if (unlikely(!READ_ONCE(percpu_ready)))
		return &percpu_area[0];
	__asm__ __volatile__("movq %%gs:0, %0" : "=r"(p));
	return p;
}

/**
 * smp_processor_id() - logical number of the running CPU (0 = boot CPU).
 */
static inline unsigned int smp_processor_id(void)
{
	return this_cpu()->cpu;
}

/**
 * cpu_online() - true when CPU @cpu is up.
 * @cpu: logical CPU number
 */
static inline bool cpu_online(unsigned int cpu)
{
	return cpu < NR_CPUS && READ_ONCE(percpu_area[cpu].online);
}

/**
 * num_online_cpus() - how many CPUs are up.
 */
static inline unsigned int num_online_cpus(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < NR_CPUS; i++)
		n += cpu_online(i);
	return n;
}

/* for_each_online_cpu(cpu) { ... } with an unsigned int cpu */
#define for_each_online_cpu(cpu)					\
	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)			\
		if (!cpu_online(cpu)) {} else

/* for_each_possible_cpu(cpu): 0 .. nr_cpu_ids - 1 */
#define for_each_possible_cpu(cpu)					\
	for ((cpu) = 0; (cpu) < nr_cpu_ids; (cpu)++)

/**
 * percpu_init_boot_cpu() - set up CPU 0's record and GS base.
 *
 * Called by x86_64_start_kernel() after x86_gdt_init_cpu(0) (loading the
 * GDT reloads %gs, so the GS base is written after it).  Makes
 * smp_processor_id() and current valid from then on.
 */
void percpu_init_boot_cpu(void);

/**
 * percpu_init_cpu() - point this CPU's GS base at percpu_area[@cpu].
 * @cpu: logical number of the calling CPU
 */
void percpu_init_cpu(unsigned int cpu);

#endif /* KERNEL_PERCPU_H */
