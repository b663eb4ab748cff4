/* SPDX-License-Identifier: GPL-2.0 */
/* time.h - the tick (HZ, jiffies) and delays: busy udelay/mdelay, sleeping msleep. */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <ekdb/types.h>
#include <asm/regs.h>

#define HZ		100		/* timer ticks per second on every CPU */
#define MSEC_PER_SEC	1000UL
#define USEC_PER_MSEC	1000UL

/*
 * jiffies - ticks since time_init(), advanced by the timekeeping CPU's
 * tick (CPU 0; another CPU takes over if CPU 0 stops ticking, e.g. after
 * an oops halted it).  64 bits: never wraps.
 */
extern volatile u64 jiffies;
/* CPU that advances jiffies (see above). */
extern volatile unsigned int tick_do_timer_cpu;

/** msecs_to_jiffies() - @ms rounded up to whole ticks. */
static inline u64 msecs_to_jiffies(u64 ms)
{
	return (ms * HZ + MSEC_PER_SEC - 1) / MSEC_PER_SEC;
}

/** jiffies_to_msecs() - @j ticks in milliseconds. */
static inline u64 jiffies_to_msecs(u64 j)
{
	return j * (MSEC_PER_SEC / HZ);
}

/** time_after_eq() - true when jiffies value @a is at or after @b. */
static inline bool time_after_eq(u64 a, u64 b)
{
	return (s64)(a - b) >= 0;
}

/**
 * time_init() - bring up the local APIC, calibrate its timer against the
 * PIT, print the frequency and start CPU 0's periodic tick (it fires once
 * interrupts are enabled).  After mm_init, before smp_init.
 */
void time_init(void);

/** uptime_ms() - milliseconds since time_init() (jiffies based). */
u64 uptime_ms(void);

/* local_clock_ns - ns since the first printk (0 before TSC calibration): printk timestamps. */
u64 local_clock_ns(void);

/**
 * udelay() / mdelay() - busy-wait; TSC based after time_init(), a
 * calibrated-by-guess port-I/O loop before.  Any context.
 */
void udelay(u64 us);
void mdelay(u64 ms);

/**
 * msleep() - sleep at least @ms milliseconds (kernel/sched.c).
 *
 * In a task with interrupts on and the scheduler running: sleeps and lets
 * other tasks run.  Otherwise (boot code, interrupts off) it falls back to
 * mdelay().
 */
void msleep(u64 ms);

/**
 * timer_interrupt() - the LOCAL_TIMER_VECTOR handler (all CPUs): EOI,
 * count the tick, advance jiffies on the timekeeper, then let the
 * scheduler preempt.  Installed by time_init().
 */
bool timer_interrupt(struct pt_regs *regs);

#endif /* KERNEL_TIME_H */
