/* SPDX-License-Identifier: GPL-2.0 */
/*
 * target.c - struct ekdb_target for the live machine: what gdbstub and kdb
 * see.  Threads are CPUs for now (thread id = CPU number + 1); registers
 * come from the stopped CPU's captured state.
 */
#include "debug_core.h"
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/range.h>
#include <ekdb/kallsyms.h>
#include <ekdb/kdb.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>

static unsigned selected_cpu;
void ekdb_set_text_offset(u64 offset)
{
	dbg_target.text_offset = offset;
}

void ekdb_set_text_base(u64 base)
{
	dbg_target.text_base = base;
}

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

/* kdb's mm: a plain store (no write-protect window), so read-only pages fault as in Linux. */
static long t_mem_store(struct ekdb_target *t, u64 addr, const void *buf, size_t len)
{
	size_t n;

	if (ekdb_range_wraps(addr, len))
		return -EKDB_ERANGE;	/* the checks of dbg_mem_write(), without its text poke */
	if (len && dbg_addr_is_debugger(addr, len))
		return -EKDB_EPERM;
	n = arch_dbg_probe_write(addr, buf, len);
	return n || !len ? (long)n : -EKDB_EFAULT;
}

static unsigned t_reg_count(struct ekdb_target *t)
{
	return arch_dbg_reg_count();
}

static int t_reg_read(struct ekdb_target *t, unsigned regno, u8 *buf, size_t *size)
{
	struct dbg_cpu *c = &dbg_cpus[selected_cpu];

	if (!arch_dbg_reg_size(regno))
		return -EKDB_EINVAL;
	if (!c->stopped) {
		*size = arch_dbg_reg_size(regno);
		return -EKDB_ENOENT;	/* that CPU is not stopped: registers unknown */
	}
	return arch_dbg_reg_get(&c->state, regno, buf, size);
}

static int t_reg_write(struct ekdb_target *t, unsigned regno, const u8 *buf, size_t size)
{
	struct dbg_cpu *c = &dbg_cpus[selected_cpu];

	if (!arch_dbg_reg_size(regno))
		return -EKDB_EINVAL;
	if (!c->stopped)
		return -EKDB_EPERM;
	return arch_dbg_reg_set(&c->state, regno, buf, size);
}

static const char *t_reg_name(struct ekdb_target *t, unsigned regno)
{
	return arch_dbg_reg_name(regno);
}

static const char *t_features_xml(struct ekdb_target *t, const char *annex, size_t *len)
{
	return arch_dbg_features_xml(annex, len);
}

static enum dbg_bp_owner owner_of(enum ekdb_bp_owner owner)
{
	return owner == EKDB_BP_BY_KDB ? DBG_OWNER_KDB : DBG_OWNER_GDB;
}

static int t_bp_set(struct ekdb_target *t, enum ekdb_bp_owner owner, enum ekdb_bp_type type,
		    u64 addr, unsigned len)
{
	return dbg_bp_set(type, addr, len, owner_of(owner));
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

static int t_thread_resume_check(struct ekdb_target *t, u64 id)
{
	if (id == 0 || id > dbg_cpu_count() || !dbg_cpus[id - 1].online)
		return -EKDB_ENOENT;
	return dbg_cpus[id - 1].stopped ? 0 : -EKDB_EBUSY;
}

static u64 t_thread_current(struct ekdb_target *t)
{
	return (u64)dbg_this_cpu() + 1;
}

/* The host's task list: the task running on the CPU of thread @id (bounded walk). */
#define TASK_SCAN_MAX	(1 << 22)

static int t_thread_task(struct ekdb_target *t, u64 id, int *pid, char comm[16])
{
	const struct ekdb_stopped_ops *ops = &ekdb_port()->stopped;
	struct ekdb_task task;

	if (id == 0 || id > dbg_cpu_count() || !ops->task_get)
		return -EKDB_ENOENT;
	for (int i = 0; i < TASK_SCAN_MAX && ops->task_get(i, &task) == 0; i++) {
		if (task.running && task.cpu == (int)(id - 1)) {
			*pid = task.pid;
			strlcpy(comm, task.comm, 16);
			return 0;
		}
	}
	return -EKDB_ENOENT;
}

/* ---- the breakpoint table, by index (kdb bp/bl/bc/be/bd) ---- */
static int t_bp_get(struct ekdb_target *t, int index, struct ekdb_bp_info *info)
{
	const struct dbg_bp *b;

	if (index < 0 || index >= dbg_bp_capacity())
		return -EKDB_ERANGE;
	b = dbg_bp_get(index);
	if (!b)
		return -EKDB_ENOENT;
	*info = (struct ekdb_bp_info){ .type = b->type, .addr = b->addr, .len = b->len,
		.enabled = b->enabled, .installed = b->installed,
		.by_gdb = b->owner & DBG_OWNER_GDB, .by_kdb = b->owner & DBG_OWNER_KDB,
		.slot = b->slot, .hits = b->hits };
	return 0;
}

static int t_bp_enable(struct ekdb_target *t, int index, bool enable)
{
	return dbg_bp_enable_index(index, enable);
}

static int t_bp_clear(struct ekdb_target *t, int index)
{
	return dbg_bp_clear_index(index);
}

/* ---- symbols: the host's (the port's sym_* members) ---- */
static int t_sym_by_name(struct ekdb_target *t, const char *name, struct ksym *sym)
{
	return ekdb_sym_by_name(name, sym);
}

static int t_sym_by_addr(struct ekdb_target *t, u64 addr, struct ksym *sym)
{
	return ekdb_sym_lookup(addr, sym, NULL);
}

static int t_sym_get(struct ekdb_target *t, unsigned long index, struct ksym *sym)
{
	return ekdb_sym_get(index, sym);
}

/* ---- CPUs ---- */
static int t_cpu_select(struct ekdb_target *t, unsigned cpu)
{
	if (cpu >= dbg_cpu_count() || !dbg_cpus[cpu].online)
		return -EKDB_ENOENT;
	if (!dbg_cpus[cpu].stopped)
		return -EKDB_EBUSY;
	dbg_target_select_cpu(cpu);
	return 0;
}

static unsigned t_cpu_count(struct ekdb_target *t)
{
	return dbg_cpu_count();
}

static void t_bp_drop_owner(struct ekdb_target *t, enum ekdb_bp_owner owner)
{
	dbg_bp_remove_owner(owner_of(owner));
}

static const char *(*libraries_fn)(size_t *len);
static const char *(*libraries_svr4_fn)(size_t *len);

void dbg_target_set_libraries(const char *(*fn)(size_t *len))
{
	libraries_fn = fn;
}

void dbg_target_set_libraries_svr4(const char *(*fn)(size_t *len))
{
	libraries_svr4_fn = fn;
}

static const char *t_libraries_xml(struct ekdb_target *t, size_t *len)
{
	return libraries_fn ? libraries_fn(len) : NULL;
}

static const char *t_libraries_svr4_xml(struct ekdb_target *t, size_t *len)
{
	return libraries_svr4_fn ? libraries_svr4_fn(len) : NULL;
}

static void t_reg_layout(struct ekdb_target *t, struct ekdb_reg_layout *l)
{
	arch_dbg_reg_layout(l);
}

static const struct ekdb_target_ops dbg_target_ops = {
	.mem_read = t_mem_read,
	.mem_write = t_mem_write,
	.mem_store = t_mem_store,
	.reg_count = t_reg_count,
	.reg_read = t_reg_read,
	.reg_write = t_reg_write,
	.reg_name = t_reg_name,
	.reg_layout = t_reg_layout,
	.features_xml = t_features_xml,
	.bp_set = t_bp_set,
	.bp_remove = t_bp_remove,
	.bp_get = t_bp_get,
	.bp_enable = t_bp_enable,
	.bp_clear = t_bp_clear,
	.bp_drop_owner = t_bp_drop_owner,
	.thread_count = t_thread_count,
	.thread_get = t_thread_get,
	.thread_select = t_thread_select,
	.thread_current = t_thread_current,
	.thread_resume_check = t_thread_resume_check,
	.thread_task = t_thread_task,
	.sym_by_name = t_sym_by_name,
	.sym_by_addr = t_sym_by_addr,
	.sym_get = t_sym_get,
	.cpu_select = t_cpu_select,
	.cpu_count = t_cpu_count,
	.libraries_xml = t_libraries_xml,
	.libraries_svr4_xml = t_libraries_svr4_xml,
};

struct ekdb_target dbg_target = {
	.ops = &dbg_target_ops,
	.text_offset = 0,	/* ekdb_set_text_offset(): the KASLR offset */
};
