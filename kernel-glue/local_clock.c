/* SPDX-License-Identifier: GPL-2.0 */
/*
 * local_clock.c - printk's timestamp clock.  Apart from time.c so that
 * tools/check-early.sh can link it with printk into the allocator-free set.
 */
#include <kernel/kernel.h>
#include <kernel/apic.h>
#include <kernel/time.h>
#include <asm/processor.h>
#include <ekdb/ekdb.h>

/*
 * local_clock_ns - nanoseconds since the first call (the kernel's first
 * printk), from the TSC; 0 until the TSC is calibrated, like Linux's
 * early "[    0.000000]" lines.
 */
__ekdb_nobp u64 local_clock_ns(void)
{
	static u64 base;
	u64 c;

	if (!base)
		base = rdtsc();
	if (!tsc_khz)
		return 0;
	c = rdtsc() - base;
	return c / tsc_khz * 1000000 + c % tsc_khz * 1000000 / tsc_khz;
}
