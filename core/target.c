/* SPDX-License-Identifier: GPL-2.0 */
/*
 * target.c - struct ekdb_target for the live machine: what gdbstub and kdb
 * see.  Threads are CPUs for now (thread id = CPU number + 1); registers
 * come from the stopped CPU's captured state.
 */
#include "debug_core.h"
#include <asm/regs_table.h>
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>

static unsigned selected_cpu;

void dbg_target_select_cpu(unsigned cpu)
{
	selected_cpu = cpu;
}

static long t_mem_read(struct ekdb_target *t, u64 addr, void *buf, size_t len)
{
	return dbg_mem_read(addr, buf, len);
}

static long t_mem_write(struct ekdb_target *t, u64 addr, const void *buf, size_t len)
{
	return dbg_mem_write(addr, buf, len);
}

static unsigned t_reg_count(struct ekdb_target *t)
{
	return x86_reg_count();
}

static int t_reg_read(struct ekdb_target *t, unsigned regno, u8 *buf, size_t *size)
{
	struct dbg_cpu *c = &dbg_cpus[selected_cpu];
	const struct x86_reg_desc *d = x86_reg_desc(regno);

	if (!d)
		return -EKDB_EINVAL;
	if (!c->stopped) {
		*size = d->bitsize / 8;
		return -EKDB_ENOENT;	/* that CPU is not stopped: registers unknown */
	}
	return x86_reg_get(&c->state, regno, buf, size);
}

static int t_reg_write(struct ekdb_target *t, unsigned regno, const u8 *buf, size_t size)
{
	struct dbg_cpu *c = &dbg_cpus[selected_cpu];
	const struct x86_reg_desc *d = x86_reg_desc(regno);

	if (!d)
		return -EKDB_EINVAL;
	if (!c->stopped)
		return -EKDB_EPERM;
	/* only what x86_state_writeback() puts back may change */
	if (d->offset < 0 || (u64)d->offset > offsetof(struct x86_cpu_state, eflags))
		return -EKDB_EPERM;
	return x86_reg_set(&c->state, regno, buf, size);
}

static const char *t_reg_name(struct ekdb_target *t, unsigned regno)
{
	const struct x86_reg_desc *d = x86_reg_desc(regno);

	return d ? d->name : NULL;
}

static const char *t_features_xml(struct ekdb_target *t, const char *annex, size_t *len)
{
	return x86_features_xml(annex, len);
}

static int t_bp_set(struct ekdb_target *t, enum ekdb_bp_type type, u64 addr, unsigned len)
{
	int r = dbg_bp_set(type, addr, len, DBG_OWNER_GDB);

	return r < 0 ? r : 0;
}

static int t_bp_remove(struct ekdb_target *t, enum ekdb_bp_type type, u64 addr, unsigned len)
{
	return dbg_bp_remove(type, addr, len);
}

static int t_thread_count(struct ekdb_target *t)
{
	return (int)dbg_cpu_count();
}

static int t_thread_get(struct ekdb_target *t, int index, struct ekdb_thread_info *info)
{
	const struct dbg_cpu *c;

	if (index < 0 || (unsigned)index >= dbg_cpu_count())
		return -EKDB_ENOENT;
	c = &dbg_cpus[index];
	info->id = (u64)index + 1;
	info->cpu = index;
	ekdb_snprintf(info->name, sizeof(info->name), "CPU#%d", index);
	strlcpy(info->state, c->stopped ? "stopped" : (c->online ? "running" : "not started"),
		sizeof(info->state));
	return 0;
}

static int t_thread_select(struct ekdb_target *t, u64 id)
{
	if (id == 0 || id == (u64)-1) {
		selected_cpu = dbg_this_cpu();
		return 0;
	}
	if (id > dbg_cpu_count())
		return -EKDB_ENOENT;
	selected_cpu = (unsigned)(id - 1);
	return 0;
}

static u64 t_thread_current(struct ekdb_target *t)
{
	return (u64)dbg_this_cpu() + 1;
}

static const struct ekdb_target_ops dbg_target_ops = {
	.mem_read = t_mem_read,
	.mem_write = t_mem_write,
	.reg_count = t_reg_count,
	.reg_read = t_reg_read,
	.reg_write = t_reg_write,
	.reg_name = t_reg_name,
	.features_xml = t_features_xml,
	.bp_set = t_bp_set,
	.bp_remove = t_bp_remove,
	.thread_count = t_thread_count,
	.thread_get = t_thread_get,
	.thread_select = t_thread_select,
	.thread_current = t_thread_current,
	.monitor = NULL,	/* kdb wires `monitor` */
};

struct ekdb_target dbg_target = {
	.ops = &dbg_target_ops,
	.text_offset = 0,	/* the kernel runs at its link address */
};
