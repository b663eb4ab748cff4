/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ekdbts_host.c - what the kernel gives the debugger's self-test
 * (ekdbts=, selftest/ekdbts.c, <ekdb/ekdbts.h>): ordinary kernel code and data
 * to stop in (the debugger's own range refuses breakpoints), and a way
 * to run a function on every CPU at once (one bound thread per CPU).
 */
#include <kernel/kernel.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <asm/processor.h>
#include <ekdb/ekdbts.h>

#define ALL_CPUS_WAIT_MS	300000	/* a stuck CPU fails the test, it does not hang the boot */

static volatile unsigned long brk_calls;
static volatile u64 spin_done;
static volatile u64 watched;

static __noinline void ekdbts_brk(void)
{
	__atomic_add_fetch(&brk_calls, 1, __ATOMIC_RELAXED);
}

/* a small loop the single-step stress walks until gdb writes spin_done */
static __noinline void ekdbts_spin(void)
{
	while (!spin_done)
		cpu_relax();
}

static __noinline void ekdbts_write(u64 v)
{
	watched = v;
}

static __noinline u64 ekdbts_read(void)
{
	return watched;
}

static __noinline void ekdbts_handoff_sw(void)
{
	barrier();
}

static __noinline void ekdbts_handoff_hw(void)
{
	barrier();
}

static struct {
	void (*fn)(unsigned idx, unsigned n);
	unsigned n;
	unsigned ready, done;
	bool go;
} all;

static int all_cpus_thread(void *arg)
{
	unsigned idx = (unsigned)(unsigned long)arg;

	__atomic_add_fetch(&all.ready, 1, __ATOMIC_ACQ_REL);
	while (!__atomic_load_n(&all.go, __ATOMIC_ACQUIRE))
		yield();
	all.fn(idx, all.n);
	__atomic_add_fetch(&all.done, 1, __ATOMIC_ACQ_REL);
	return 0;
}

static bool wait_count(unsigned *count, unsigned n, u64 t0)
{
	while (__atomic_load_n(count, __ATOMIC_ACQUIRE) < n) {
		if (uptime_ms() - t0 > ALL_CPUS_WAIT_MS)
			return false;
		yield();
	}
	return true;
}

static unsigned ekdbts_on_all_cpus(void (*fn)(unsigned idx, unsigned n))
{
	unsigned n = num_online_cpus();
	u64 t0 = uptime_ms();

	all.fn = fn;
	all.n = n;
	all.ready = all.done = 0;
	all.go = false;
	for (unsigned i = 0; i < n; i++) {
		struct task_struct *t = kthread_create(all_cpus_thread, (void *)(unsigned long)i,
						       "ekdbts/%u", i);

		if (!t)
			return 0;
		kthread_bind(t, i);
		wake_up_process(t);
	}
	if (!wait_count(&all.ready, n, t0))
		return 0;
	__atomic_store_n(&all.go, true, __ATOMIC_RELEASE);
	wait_count(&all.done, n, t0);
	return __atomic_load_n(&all.done, __ATOMIC_ACQUIRE);
}

static const struct ekdbts_host ekdbts_host = {
	.brk = ekdbts_brk,
	.brk_calls = &brk_calls,
	.spin = ekdbts_spin,
	.spin_done = &spin_done,
	.watch = &watched,
	.write = ekdbts_write,
	.read = ekdbts_read,
	.handoff_sw = ekdbts_handoff_sw,
	.handoff_hw = ekdbts_handoff_hw,
	.on_all_cpus = ekdbts_on_all_cpus,
	.now_ms = uptime_ms,
	.relax = yield,
};

/* setup_arch(), after ekdb_early_init(): ekdbts= takes the debugger's line (E: tests now) */
void ekdbts_setup(void)
{
	ekdbts_init(&ekdbts_host);
}
