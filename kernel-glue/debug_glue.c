/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debug_glue.c - what the reference kernel offers the debugger
 * (struct ekdb_kernel_ops): its task list, its log, physical memory, its
 * built-in subsystems (lsmod), uptime and memory (summary), reboot and a
 * few sysrq keys.  Everything runs with the machine stopped: no locks are
 * taken (the task list is append-only, see sched.h) and nothing allocates.
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
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>
#include <ekdb/target.h>

static bool running_now(const struct task_struct *t)
{
	return t->state == TASK_RUNNING && t->cpu >= 0 && t->cpu < NR_CPUS &&
	       percpu_area[t->cpu].curr_task == t;
}

static int glue_task_get(int index, struct ekdb_task *out)
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
	out->state = t->is_idle && !running_now(t) ? 'I' : task_state_char(t);
	out->cpu = t->cpu;
	out->running = running_now(t);
	out->is_idle = t->is_idle;
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

static long glue_log_read(u64 pos, char *buf, size_t len)
{
	return (long)log_buf_copy((size_t)pos, buf, len);
}

static long glue_phys_read(u64 paddr, void *buf, size_t len)
{
	size_t n;

	if (paddr >= direct_map_end || len > direct_map_end - paddr)
		return -EKDB_EFAULT;
	n = x86_probe_read(buf, (u64)__va(paddr), len);
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

static int glue_mod_get(int index, struct ekdb_module *m)
{
	if (index < 0 || (size_t)index >= ARRAY_SIZE(subsystems))
		return -EKDB_ENOENT;
	memset(m, 0, sizeof(*m));
	strlcpy(m->name, subsystems[index].name, sizeof(m->name));
	m->addr = (u64)subsystems[index].entry;
	strlcpy(m->state, "Live", sizeof(m->state));
	return 0;
}

static int glue_sys_info(struct ekdb_sysinfo *i)
{
	memset(i, 0, sizeof(*i));
	strlcpy(i->sysname, "ekdb", sizeof(i->sysname));
	strlcpy(i->release, "0.1", sizeof(i->release));
	strlcpy(i->version, "#1 " __DATE__ " " __TIME__, sizeof(i->version));
	strlcpy(i->machine, "x86_64", sizeof(i->machine));
	i->uptime_ms = uptime_ms();
	i->ncpus = num_online_cpus();
	i->have_mem = nr_managed_pages() != 0;
	if (i->have_mem) {
		i->mem_total_kb = nr_managed_pages() * (PAGE_SIZE / 1024);
		i->mem_free_kb = nr_free_pages() * (PAGE_SIZE / 1024);
	}
	return 0;
}

static int glue_reboot(void)
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
int kernel_sysrq(char key)
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

static const struct ekdb_kernel_ops kernel_debug_ops = {
	.task_get = glue_task_get,
	.log_read = glue_log_read,
	.phys_read = glue_phys_read,
	.mod_get = glue_mod_get,
	.sys_info = glue_sys_info,
	.reboot = glue_reboot,
	.sysrq = kernel_sysrq,
};

/* Called from setup_arch() before the early debugger starts. */
void debug_glue_init(void)
{
	ekdb_set_kernel_ops(&kernel_debug_ops);
}
