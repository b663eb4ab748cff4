// SPDX-License-Identifier: GPL-2.0
/*
 * The services ekdb asks of Linux (struct ekdb_port_ops, <ekdb/port.h>):
 * printk for its log, the direct map for physical memory, kallsyms for
 * symbols, uname and the clock for kdb's summary.  Everything here runs
 * while ekdb is stopped: NOKPROBE, no locks, no allocation.
 */
#include <linux/cpumask.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/math64.h>
#include <linux/printk.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/utsname.h>
#include <asm/page.h>
#include <asm/setup.h>

#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/kallsyms.h>
#include <ekdb/port.h>

#include "glue.h"

static int ekdb_linux_vprintk(const char *fmt, va_list ap)
{
	return vprintk(fmt, ap);
}

/* RAM in the direct map (after init_mem_mapping()); the rest: io.c */
static __ekdb_linux_nobp void *ekdb_linux_map_phys(u64 phys, u64 len)
{
	if (!len || phys + len < phys)
		return NULL;
	if (!pfn_range_is_mapped(PHYS_PFN(phys), PHYS_PFN(phys + len - 1) + 1))
		return ekdb_linux_map_unmapped(phys, len);
	return __va(phys);
}
NOKPROBE_SYMBOL(ekdb_linux_map_phys);

/*
 * kallsyms answers; the names live in a small ring (ekdb reads a symbol's
 * name before it asks for the next few).
 */
#define EKDB_NAMES 4
static char ekdb_names[EKDB_NAMES][KSYM_NAME_LEN];
static unsigned int ekdb_name_next;

static __ekdb_linux_nobp char *ekdb_name_buf(void)
{
	return ekdb_names[ekdb_name_next++ % EKDB_NAMES];
}
NOKPROBE_SYMBOL(ekdb_name_buf);

static __ekdb_linux_nobp void ekdb_fill_sym(struct ksym *sym, const char *name,
					    unsigned long addr, unsigned long size)
{
	sym->name = name;
	sym->addr = addr;
	sym->size = size;
	sym->type = core_kernel_text(addr) ? 'T' : 'D';
}
NOKPROBE_SYMBOL(ekdb_fill_sym);

static __ekdb_linux_nobp int ekdb_linux_sym_lookup(u64 addr, struct ksym *sym, u64 *offset)
{
	unsigned long size, off;
	char *name = ekdb_name_buf();
	char *modname;

	if (!kallsyms_lookup(addr, &size, &off, &modname, name))
		return -EKDB_ENOENT;
	ekdb_fill_sym(sym, name, addr - off, size);
	if (offset)
		*offset = off;
	return 0;
}
NOKPROBE_SYMBOL(ekdb_linux_sym_lookup);

static __ekdb_linux_nobp int ekdb_linux_sym_by_name(const char *name, struct ksym *sym)
{
	unsigned long addr = kallsyms_lookup_name(name);
	unsigned long size, off;
	char *buf;

	if (!addr)
		return -EKDB_ENOENT;
	/* a per-CPU symbol (an offset from each CPU's area) has no size here */
	if (!kallsyms_lookup_size_offset(addr, &size, &off))
		size = 0;
	buf = ekdb_name_buf();
	strscpy(buf, name, KSYM_NAME_LEN);
	ekdb_fill_sym(sym, buf, addr, size);
	return 0;
}
NOKPROBE_SYMBOL(ekdb_linux_sym_by_name);

/* kdb's summary and the bt header: uname and what else is known this early */
static __ekdb_linux_nobp int ekdb_linux_sys_info(struct ekdb_sysinfo *info)
{
	const struct new_utsname *u = &init_uts_ns.name;

	memset(info, 0, sizeof(*info));
	strscpy(info->sysname, u->sysname, sizeof(info->sysname));
	strscpy(info->release, u->release, sizeof(info->release));
	strscpy(info->version, u->version, sizeof(info->version));
	strscpy(info->machine, u->machine, sizeof(info->machine));
	info->uptime_ms = div_u64(local_clock(), NSEC_PER_MSEC);
	info->ncpus = num_online_cpus();
	return 0;
}
NOKPROBE_SYMBOL(ekdb_linux_sys_info);

const struct ekdb_port_ops ekdb_linux_port = {
	.stopped = {
		.sys_info = ekdb_linux_sys_info,
		.task_get = ekdb_linux_task_get,
		.log_read = ekdb_linux_log_read,
		.percpu_offset = ekdb_linux_percpu_offset,
	},
	.vprintk = ekdb_linux_vprintk,
	.map_phys = ekdb_linux_map_phys,
	.map_io = ekdb_linux_map_io,
	.framebuffer = ekdb_linux_framebuffer,
	.sym_lookup = ekdb_linux_sym_lookup,
	.sym_by_name = ekdb_linux_sym_by_name,
	.text_addr = ekdb_linux_text_addr,
};
