/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debug_glue.c - the reference kernel's side of the porting interface
 * (struct ekdb_port_ops, <ekdb/port.h>): its log and consoles, where
 * physical memory is reached, its allocators, and with the machine
 * stopped its task list, its log buffer, physical memory, its built-in
 * subsystems (lsmod), uptime and memory (summary), reboot and a few sysrq
 * keys.  The stopped ops take no locks (the task list is append-only, see
 * sched.h) and allocate nothing.
 */
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/acpi.h>
#include <kernel/apic.h>
#include <kernel/time.h>
#include <asm/fixup.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <ekdb/ekdb.h>
#include <ekdb/port.h>
#include "debug_port.h"
#include <kernel/page_alloc.h>
#include <kernel/slab.h>
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <kernel/kallsyms.h>
#include <ekdb/string.h>
#include <ekdb/target.h>

static bool running_now(const struct task_struct *t)
{
	return t->state == TASK_RUNNING && t->cpu >= 0 && t->cpu < NR_CPUS &&
	       percpu_area[t->cpu].curr_task == t;
}

static __ekdb_nobp int glue_task_get(int index, struct ekdb_task *out)
{
	struct task_struct *t = task_list_head;

	for (int i = 0; t && i < index; i++)
		t = t->next_task;
	if (!t || index < 0)
		return -EKDB_ENOENT;
	memset(out, 0, sizeof(*out));
	out->addr = (u64)t;
	out->pid = t->pid;
	strlcpy(out->comm, t->comm, sizeof(out->comm));
	out->state = task_state_char(t);	/* idle tasks are 'R', as Linux's swapper */
	out->cpu = t->cpu;
	out->running = running_now(t);
	out->is_idle = t->is_idle;
	if (t->stack) {
		out->stack_base = (u64)t->stack;
		out->stack_top = (u64)t->stack + t->stack_size;
	}
	if (t->preempt_regs) {
		out->rip = t->preempt_regs->rip;
		out->rsp = t->preempt_regs->rsp;
		out->rbp = t->preempt_regs->rbp;
	} else {
		out->rip = t->thread.ip;
		out->rsp = t->thread.sp;
		out->rbp = t->thread.bp;
	}
	return 0;
}

static __ekdb_nobp long glue_log_read(u64 pos, char *buf, size_t len)
{
	return (long)log_buf_copy((size_t)pos, buf, len);
}

static __ekdb_nobp long glue_phys_read(u64 paddr, void *buf, size_t len)
{
	size_t n;

	if (paddr >= direct_map_end || len > direct_map_end - paddr)
		return -EKDB_EFAULT;
	n = arch_dbg_probe_read(buf, (u64)__va(paddr), len);
	return n ? (long)n : -EKDB_EFAULT;
}

/* lsmod lists the kernel's built-in subsystems: name, entry point, state. */
static const struct {
	const char *name;
	const void *entry;
	bool (*live)(void);
} subsystems[] = {
	{ "printk", (const void *)printk, NULL },
	{ "acpi", (const void *)acpi_boot_table_init, NULL },
	{ "memblock", (const void *)memblock_init_from_bootinfo, NULL },
	{ "page_alloc", (const void *)page_alloc_init, NULL },
	{ "slab", (const void *)kmalloc_init, NULL },
	{ "sched", (const void *)sched_init, NULL },
	{ "apic", (const void *)apic_init, NULL },
	{ "smp", (const void *)smp_init, NULL },
};

static __ekdb_nobp int glue_mod_get(int index, struct ekdb_module *m)
{
	struct ksym k;
	u64 off;

	if (index < 0 || (size_t)index >= ARRAY_SIZE(subsystems))
		return -EKDB_ENOENT;
	memset(m, 0, sizeof(*m));
	strlcpy(m->name, subsystems[index].name, sizeof(m->name));
	m->addr = (u64)subsystems[index].entry;
	if (kallsyms_lookup(m->addr, &k, &off))
		m->size = k.size;	/* the size of its entry function: what the kernel knows */
	strlcpy(m->state, "Live", sizeof(m->state));
	return 0;
}

/* The CMOS real-time clock, register @reg (BCD or binary per status B). */
static u8 cmos_read(u8 reg)
{
	outb(0x70, reg);
	return inb(0x71);
}

static unsigned bcd(u8 v, bool binary)
{
	return binary ? v : (v & 0x0f) + (v >> 4) * 10;
}

/* Seconds since 1970 (UTC) from the RTC; 0 when it cannot be read consistently. */
static __ekdb_nobp u64 rtc_seconds(void)
{
	static const u16 mdays[] = { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 };
	u8 r[6], again[6];
	unsigned sec, min, hour, day, mon, year;
	bool binary;
	u64 days;

	for (int tries = 0; tries < 8; tries++) {
		for (int spin = 0; spin < 100000 && (cmos_read(0x0a) & 0x80); spin++)
			;	/* update in progress */
		for (int i = 0; i < 6; i++)
			r[i] = cmos_read((u8[]){ 0, 2, 4, 7, 8, 9 }[i]);
		for (int i = 0; i < 6; i++)
			again[i] = cmos_read((u8[]){ 0, 2, 4, 7, 8, 9 }[i]);
		if (!memcmp(r, again, sizeof(r)))
			goto ok;
	}
	return 0;
ok:
	binary = cmos_read(0x0b) & 0x04;
	sec = bcd(r[0], binary);
	min = bcd(r[1], binary);
	hour = bcd(r[2] & 0x7f, binary);
	if (!(cmos_read(0x0b) & 0x02) && (r[2] & 0x80))
		hour = (hour % 12) + 12;	/* 12-hour mode, PM */
	day = bcd(r[3], binary);
	mon = bcd(r[4], binary);
	year = 2000 + bcd(r[5], binary);
	if (mon < 1 || mon > 12 || day < 1 || day > 31)
		return 0;
	days = (u64)(year - 1970) * 365 + (year - 1969) / 4 + mdays[mon - 1] + day - 1;
	if (mon > 2 && year % 4 == 0)
		days++;
	return days * 86400 + hour * 3600 + min * 60 + sec;
}

static __ekdb_nobp int glue_sys_info(struct ekdb_sysinfo *i)
{
	memset(i, 0, sizeof(*i));
	strlcpy(i->sysname, "ekdb", sizeof(i->sysname));
	strlcpy(i->release, "0.1", sizeof(i->release));
	strlcpy(i->version, "#1 " __DATE__ " " __TIME__, sizeof(i->version));
	strlcpy(i->machine, "x86_64", sizeof(i->machine));
	i->uptime_ms = uptime_ms();
	i->ncpus = num_online_cpus();
	i->have_mem = nr_managed_pages() != 0;
	i->realtime_s = rtc_seconds();
	for (int k = 0; k < 3; k++)
		i->loads[k] = avenrun[k];
	if (i->have_mem) {
		i->mem_total_kb = nr_managed_pages() * (PAGE_SIZE / 1024);
		i->mem_free_kb = nr_free_pages() * (PAGE_SIZE / 1024);
	}
	return 0;
}

static __ekdb_nobp int glue_reboot(void)
{
	static const struct { u16 limit; u64 base; } __packed no_idt = { 0, 0 };

	printk(KERN_EMERG "kdb: rebooting\n");
	for (int i = 0; i < 100000 && (inb(0x64) & 2); i++)
		;
	outb(0x64, 0xfe);			/* i8042: pulse the reset line */
	outb(0xcf9, 0x06);			/* PCI reset control: hard reset */
	__asm__ __volatile__("lidt %0; int3" :: "m"(no_idt));	/* triple fault */
	return -EKDB_EIO;
}

int kernel_sysrq(char key);

/* The kernel's sysrq keys (kdb's sr, the keyboard's Alt+SysRq: sysrq.c); -EKDB_EINVAL: not one. */
__ekdb_nobp int kernel_sysrq(char key)
{
	struct task_struct *t;

	switch (key) {
	case 'b':
		return glue_reboot();
	case 't':
		printk(KERN_INFO "sysrq: Show State\n");
		for (t = task_list_head; t; t = t->next_task)
			printk(KERN_INFO "  %-16s pid %3d cpu %d %c\n", t->comm, t->pid, t->cpu,
			       task_state_char(t));
		return 0;
	case 'h':
		printk(KERN_INFO "sysrq: HELP : reboot(b) show-task-states(t) help(h)\n");
		return 0;
	default:
		return -EKDB_EINVAL;
	}
}

/* Per-CPU data lives in percpu_area[]: CPU n's copy is n elements after CPU 0's. */
static __ekdb_nobp int glue_percpu_offset(unsigned cpu, u64 *offset)
{
	if (cpu >= NR_CPUS || !percpu_area[cpu].online)
		return -EKDB_ENOENT;
	*offset = (u64)cpu * sizeof(struct percpu);
	return 0;
}

/* kdb kill: the signal is left pending; ekdb's tasks are kernel threads, which ignore it, as Linux's. */
static __ekdb_nobp int glue_task_signal(int pid, int sig)
{
	for (struct task_struct *t = task_list_head; t; t = t->next_task) {
		if (t->pid != pid)
			continue;
		if (sig < 1 || sig > 64 || t->state == TASK_DEAD)
			return -EKDB_EINVAL;
		t->sig_pending |= 1ull << (sig - 1);
		return 0;
	}
	return -EKDB_ENOENT;
}

/* A breakpoint hit inside the debugger was removed: say so in the log. */
static __ekdb_nobp void glue_warn(const char *msg)
{
	printk(KERN_WARNING "%s", msg);
}

/* The debugger gave up (it is off, the other CPUs go on): this CPU panics. */
static __ekdb_nobp void glue_panic(const char *msg)
{
	panic("%s", msg);
}

/* The debugger's early storage, done with at the handoff. */
static void glue_release_range(u64 start, u64 end, bool unmap)
{
	if (unmap)
		paging_unmap_kernel_range(start, end);
	else
		free_reserved_range(__pa_symbol((void *)start), __pa_symbol((void *)end));
}

/* From debug_glue_init() on: everything. */
static const struct ekdb_port_ops kernel_port = {
	.stopped = {
		.task_get = glue_task_get,
		.log_read = glue_log_read,
		.phys_read = glue_phys_read,
		.mod_get = glue_mod_get,
		.sys_info = glue_sys_info,
		.reboot = glue_reboot,
		.sysrq = kernel_sysrq,
		.percpu_offset = glue_percpu_offset,
		.task_signal = glue_task_signal,
		.warn = glue_warn,
		.panic = glue_panic,
		.alloc_pages_nowait = alloc_pages_nowait,
	},
	DEBUG_PORT_BOOT_SERVICES,
	.kmalloc = kmalloc,
	.kzalloc = kzalloc,
	.kfree = kfree,
	.alloc_pages = alloc_pages,
	.free_pages = free_pages,
	.page_max_order = MAX_ORDER,
	.release_range = glue_release_range,
};

/* Called from setup_arch() before the early debugger starts. */
void debug_glue_init(void)
{
	ekdb_set_port(&kernel_port);
}
