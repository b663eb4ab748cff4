/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tsc_early.c - calibrate the TSC against PIT channel 2 (its gate in port
 * 0x61, one-shot, 1.193182 MHz) the first time a calibrated delay is
 * needed, long before the local APIC timer is calibrated: 10 ms, the best
 * of three tries.  Port-0x80 "delays" take no time under emulation; this
 * clock takes real time everywhere.
 */
#include <asm/tsc_early.h>
#include <asm/io.h>
#include <asm/processor.h>

#define PIT_HZ		1193182ULL
#define CAL_MS		10
#define CAL_TICKS	(PIT_HZ * CAL_MS / 1000)
#define FALLBACK_KHZ	2000000ULL	/* if the PIT does not count: assume 2 GHz */

static u64 tsc_khz_cached;

static u64 measure(void)
{
	u8 gate = inb(0x61);
	u64 t0, t1;
	unsigned long spins = 0;

	outb(0x61, (gate & ~0x02) | 0x01);	/* gate on, speaker off */
	outb(0x43, 0xb0);			/* channel 2, lobyte/hibyte, mode 0 */
	outb(0x42, CAL_TICKS & 0xff);
	outb(0x42, (u8)(CAL_TICKS >> 8));
	t0 = rdtsc();
	while (!(inb(0x61) & 0x20)) {		/* OUT2 goes high at terminal count */
		if (++spins > 100000000UL)
			return 0;
	}
	t1 = rdtsc();
	outb(0x61, gate);
	return (t1 - t0) / CAL_MS;
}

u64 early_tsc_khz(void)
{
	u64 best = 0;

	if (tsc_khz_cached)
		return tsc_khz_cached;
	for (int i = 0; i < 3; i++) {
		u64 f = local_irq_save();
		u64 khz = measure();

		local_irq_restore(f);
		if (khz && (!best || khz < best))
			best = khz;		/* an interrupt only makes a try longer */
	}
	tsc_khz_cached = best ? best : FALLBACK_KHZ;
	return tsc_khz_cached;
}

u64 early_now_us(void)
{
	u64 khz = early_tsc_khz(), t = rdtsc();

	return t / khz * 1000 + t % khz * 1000 / khz;
}
