/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kthreads.c - the reference kernel's worker threads: real periodic work
 * that keeps the scheduler, the allocators and every CPU busy, so the
 * debugger always has sleeping, runnable and running tasks to look at.
 *
 *   kheartbeat     every 1 s: counts; every 10 s logs uptime and ticks per CPU
 *   kallocd        every 200 ms: kmalloc/kfree of varying sizes, pattern checked
 *   kpagezero      every 500 ms: zeroes and verifies a few free pages
 *   ksoftirqd/N    bound to CPU N, wakes every 100 ms, checks it is on CPU N;
 *                  on an AP it also runs ksoftirqd_ap_work(), code the boot
 *                  CPU never runs (the SMP debugger tests break on it)
 *
 * With the kernel parameter "test_sched", ksched_test also starts one more
 * CPU-bound thread than there are CPUs and checks that preemption shares
 * the CPUs among them while the sleeping threads keep running; it prints
 * "sched selftest: passed" or "sched selftest: FAILED: <why>".
 *
 * With "test_printk_flood", kprintkflood, bound to the last CPU, prints a
 * log line after another for ever (with kgdbcon, a stream of 'O' packets
 * on gdb's line from a CPU the round-up NMI interrupts: test_gdb_kgdbcon).
 */
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <asm/processor.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>

#define HEARTBEAT_MS		1000
#define HEARTBEAT_REPORT	10	/* beats between two log lines */
#define KALLOCD_MS		200
#define KALLOCD_SLOTS		8
#define KPAGEZERO_MS		500
#define KPAGEZERO_PAGES		4
#define KSOFTIRQD_MS		100

/* Counters a debugger (or kdb's md) can read. */
u64 heartbeat_count;
u64 kallocd_ops, kallocd_errors;
u64 kpagezero_pages, kpagezero_errors;
u64 ksoftirqd_count[NR_CPUS];

static int kheartbeat(void *unused)
{
	for (;;) {
		msleep(HEARTBEAT_MS);
		heartbeat_count++;
		if (heartbeat_count % HEARTBEAT_REPORT == 0) {
			char line[256];
			size_t len = 0;
			unsigned int cpu;

			for_each_online_cpu(cpu)
				len += ekdb_snprintf(line + len, sizeof(line) - len, " cpu%u=%llu",
						     cpu, (unsigned long long)percpu_area[cpu].ticks);
			printk(KERN_DEBUG "kheartbeat: uptime %llu s, beat %llu, ticks:%s\n",
			       (unsigned long long)uptime_ms() / 1000,
			       (unsigned long long)heartbeat_count, line);
		}
	}
	return 0;
}

static u8 pattern_byte(u64 round, size_t i)
{
	return (u8)(round * 31 + i * 7 + 0x5a);
}

/* Allocate, fill, keep a while, verify, free: the slab and page paths both. */
static int kallocd(void *unused)
{
	static const size_t sizes[] = { 8, 24, 64, 100, 256, 700, 2048, 3000, 8192, 16384 };
	struct {
		u8 *p;
		size_t size;
		u64 round;
	} slot[KALLOCD_SLOTS] = { { 0 } };
	u64 round = 0;

	for (;;) {
		unsigned int s = (unsigned int)(round % KALLOCD_SLOTS);

		if (slot[s].p) {
			for (size_t i = 0; i < slot[s].size; i++) {
				if (slot[s].p[i] != pattern_byte(slot[s].round, i)) {
					kallocd_errors++;
					pr_err("kallocd: pattern broken at %p+%zu (size %zu): %02x, want %02x\n",
					       slot[s].p, i, slot[s].size, slot[s].p[i],
					       pattern_byte(slot[s].round, i));
					break;
				}
			}
			kfree(slot[s].p);
			slot[s].p = NULL;
			kallocd_ops++;
		}
		slot[s].size = sizes[(round * 7 + s) % ARRAY_SIZE(sizes)];
		slot[s].round = round;
		slot[s].p = kmalloc(slot[s].size);
		if (!slot[s].p) {
			kallocd_errors++;
			pr_err("kallocd: kmalloc(%zu) failed\n", slot[s].size);
		} else {
			for (size_t i = 0; i < slot[s].size; i++)
				slot[s].p[i] = pattern_byte(round, i);
			kallocd_ops++;
		}
		round++;
		if (round % 300 == 0)
			printk(KERN_DEBUG "kallocd: %llu operations, %llu errors\n",
			       (unsigned long long)kallocd_ops, (unsigned long long)kallocd_errors);
		msleep(KALLOCD_MS);
	}
	return 0;
}

/* Take free pages, zero them, check they read back as zero, give them back. */
static int kpagezero(void *unused)
{
	for (;;) {
		void *pages[KPAGEZERO_PAGES];

		for (int i = 0; i < KPAGEZERO_PAGES; i++) {
			pages[i] = alloc_pages(0);
			if (!pages[i])
				continue;
			memset(pages[i], 0, PAGE_SIZE);
		}
		msleep(10);	/* let others run between writing and checking */
		for (int i = 0; i < KPAGEZERO_PAGES; i++) {
			const u64 *w = pages[i];

			if (!w)
				continue;
			for (size_t j = 0; j < PAGE_SIZE / sizeof(u64); j++) {
				if (w[j]) {
					kpagezero_errors++;
					pr_err("kpagezero: page %p word %zu is 0x%llx after zeroing\n",
					       w, j, (unsigned long long)w[j]);
					break;
				}
			}
			free_pages(pages[i], 0);
			kpagezero_pages++;
		}
		msleep(KPAGEZERO_MS);
	}
	return 0;
}

/* Only the APs run this: a hardware breakpoint here can only fire on an AP. */
u64 ap_work_count[NR_CPUS];
void ksoftirqd_ap_work(unsigned int cpu);

__attribute__((noinline)) void ksoftirqd_ap_work(unsigned int cpu)
{
	WRITE_ONCE(ap_work_count[cpu], ap_work_count[cpu] + 1);
}

static int ksoftirqd(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;
	bool warned = false;

	for (;;) {
		msleep(KSOFTIRQD_MS);
		ksoftirqd_count[cpu]++;
		if (cpu != 0)
			ksoftirqd_ap_work(cpu);
		if (smp_processor_id() != cpu && !warned) {
			warned = true;
			pr_err("ksoftirqd/%u: running on CPU %u: CPU binding broken\n",
			       cpu, smp_processor_id());
		}
	}
	return 0;
}

#define HOG_SECONDS		3
#define HOG_START_SLACK		(HZ / 2)	/* every hog must have run by then */

struct hog {
	u64 created, first_run, spins;
	u32 cpus_seen;			/* bit n: ran on CPU n */
	volatile bool done;
};

static struct hog hogs[NR_CPUS + 1];
static volatile u64 hog_end;

/* Spin with interrupts on: only the tick can take the CPU away. */
static int khog(void *arg)
{
	struct hog *h = arg;

	h->first_run = jiffies;
	while (!time_after_eq(jiffies, hog_end)) {
		h->spins++;
		h->cpus_seen |= 1u << smp_processor_id();
		cpu_relax();
	}
	h->done = true;
	return 0;
}

static int ksched_test(void *unused)
{
	unsigned int n = num_online_cpus() + 1;
	u64 beats = heartbeat_count, soft = ksoftirqd_count[0];
	const char *why = NULL;

	hog_end = jiffies + HOG_SECONDS * HZ;
	for (unsigned int i = 0; i < n; i++) {
		hogs[i].created = jiffies;
		if (!kthread_run(khog, &hogs[i], "khog/%u", i))
			why = "cannot create a hog thread";
	}
	for (unsigned int i = 0; i < n && !why; i++) {
		for (int wait = 0; !hogs[i].done && wait < 2 * HOG_SECONDS * 10; wait++)
			msleep(100);
		if (!hogs[i].done)
			why = "a hog did not finish (no CPU time?)";
		else if (hogs[i].first_run - hogs[i].created > HOG_START_SLACK)
			why = "a hog waited for another to finish (no preemption)";
	}
	if (!why && heartbeat_count - beats < HOG_SECONDS - 1)
		why = "kheartbeat starved while the hogs ran";
	if (!why && ksoftirqd_count[0] - soft < HOG_SECONDS * 5)
		why = "ksoftirqd/0 starved while the hogs ran";
	for (unsigned int i = 0; i < n; i++)
		pr_info("sched selftest: khog/%u started after %llu ms, %llu spins, CPUs 0x%x\n", i,
			(unsigned long long)jiffies_to_msecs(hogs[i].first_run - hogs[i].created),
			(unsigned long long)hogs[i].spins, hogs[i].cpus_seen);
	if (why)
		pr_err("sched selftest: FAILED: %s\n", why);
	else
		pr_info("sched selftest: passed\n");
	return 0;
}

static int kprintkflood(void *unused)
{
	for (unsigned long n = 0;; n++)
		pr_info("printk flood %lu: the quick brown fox jumps over the lazy dog\n", n);
	return 0;
}

/**
 * kthreads_start() - start the worker threads (from kernel_init).
 */
void kthreads_start(void)
{
	unsigned int cpu, n = 0;

	kthread_run(kheartbeat, NULL, "kheartbeat");
	kthread_run(kallocd, NULL, "kallocd");
	kthread_run(kpagezero, NULL, "kpagezero");
	for_each_online_cpu(cpu) {
		struct task_struct *t = kthread_create(ksoftirqd, (void *)(uintptr_t)cpu,
						       "ksoftirqd/%u", cpu);

		if (!t)
			continue;
		kthread_bind(t, cpu);
		wake_up_process(t);
		n++;
	}
	pr_info("kthreads: kheartbeat, kallocd, kpagezero and %u ksoftirqd threads started\n", n);
	if (cmdline_has("test_sched"))
		kthread_run(ksched_test, NULL, "ksched_test");
	if (cmdline_has("test_printk_flood")) {
		struct task_struct *t = kthread_create(kprintkflood, NULL, "kprintkflood");

		if (t) {
			kthread_bind(t, nr_cpu_ids - 1);
			wake_up_process(t);
		}
	}
}
