/* SPDX-License-Identifier: GPL-2.0 */
/* time.c - the HZ tick on every CPU, jiffies, and busy-wait delays calibrated at boot. */
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/apic.h>
#include <kernel/percpu.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <ekdb/ekdb.h>
#include <asm/io.h>
#include <asm/processor.h>

/* Own ticks without jiffies moving before a CPU takes over timekeeping. */
#define TIMEKEEPER_STALL_TICKS	(HZ / 2)

volatile u64 jiffies;
volatile unsigned int tick_do_timer_cpu;

__ekdb_nobp u64 uptime_ms(void)
{
	return jiffies_to_msecs(jiffies);
}

void udelay(u64 us)
{
	if (tsc_khz) {
		u64 start = rdtsc(), cycles = us * tsc_khz / 1000;

		while (rdtsc() - start < cycles)
			cpu_relax();
		return;
	}
	/* Before calibration: a port write takes about 1 us on real hardware. */
	for (u64 i = 0; i < us; i++)
		io_delay();
}

void mdelay(u64 ms)
{
	while (ms--)
		udelay(1000);
}

/*
 * The timekeeper advances jiffies; every other CPU watches it and takes
 * the duty over if jiffies stops (its CPU halted in an oops, or sits in
 * the debugger with interrupts off while this CPU keeps running).
 */
static void timekeeping_tick(struct percpu *pc)
{
	unsigned int keeper = READ_ONCE(tick_do_timer_cpu);
	u64 now;

	if (keeper == pc->cpu) {
		now = __atomic_add_fetch(&jiffies, 1, __ATOMIC_RELAXED);
		sched_wake_sleepers(now);
		calc_global_load(now);
		pc->jiffies_seen = now;
		return;
	}
	now = READ_ONCE(jiffies);
	if (now != pc->jiffies_seen || keeper != pc->keeper_seen) {
		pc->jiffies_seen = now;
		pc->keeper_seen = keeper;
		pc->jiffies_stuck = 0;
		return;
	}
	if (++pc->jiffies_stuck < TIMEKEEPER_STALL_TICKS)
		return;
	pc->jiffies_stuck = 0;
	if (__atomic_compare_exchange_n(&tick_do_timer_cpu, &keeper, pc->cpu, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		pc->keeper_seen = pc->cpu;
		now = __atomic_add_fetch(&jiffies, 1, __ATOMIC_RELAXED);
		pc->jiffies_seen = now;
		sched_wake_sleepers(now);
		printk(KERN_WARNING "time: CPU %u stopped ticking, CPU %u keeps jiffies now\n",
		       keeper, pc->cpu);
	}
}

bool timer_interrupt(struct pt_regs *regs)
{
	struct percpu *pc = this_cpu();

	apic_eoi();
	pc->ticks++;
	timekeeping_tick(pc);
	/* gdb's Ctrl-C (0x03) on a debugger transport breaks in here */
	if (pc->cpu == tick_do_timer_cpu)
		ekdb_poll_break(regs);
	if (oops_test_in_irq)
		oops_test_irq_fire();	/* test_oops=irq */
	scheduler_tick(regs);
	return true;
}

void time_init(void)
{
	u64 hz;

	tick_do_timer_cpu = smp_processor_id();
	if (!apic_init()) {
		pr_warn("time: no local APIC timer: jiffies will not advance\n");
		return;
	}
	hz = apic_timer_calibrate();
	pr_info("time: local APIC timer %llu.%03llu MHz (bus %llu.%03llu MHz), TSC %llu.%03llu MHz, HZ=%d\n",
		(unsigned long long)hz / 1000000, (unsigned long long)(hz / 1000) % 1000,
		(unsigned long long)hz * 16 / 1000000, (unsigned long long)(hz * 16 / 1000) % 1000,
		(unsigned long long)tsc_khz / 1000, (unsigned long long)tsc_khz % 1000, HZ);
	apic_timer_start();
}
