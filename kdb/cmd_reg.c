/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_reg.c - register commands: rd (Linux's 24 x86-64 registers, named
 * and ordered as Linux's dbg_reg_def[], then the registers ekdb has on
 * top), rm (modify one, by Linux's or gdb's name), ef (an exception frame
 * in memory, printed as Linux's show_regs()).
 */
#include "kdb.h"

/* Linux's x86-64 dbg_reg_def[]: name, size in bytes, ekdb target register name. */
static const struct {
	const char *name;
	int size;
	const char *target;
} linux_regs[] = {
	{ "ax", 8, "rax" }, { "bx", 8, "rbx" }, { "cx", 8, "rcx" }, { "dx", 8, "rdx" },
	{ "si", 8, "rsi" }, { "di", 8, "rdi" }, { "bp", 8, "rbp" }, { "sp", 8, "rsp" },
	{ "r8", 8, "r8" }, { "r9", 8, "r9" }, { "r10", 8, "r10" }, { "r11", 8, "r11" },
	{ "r12", 8, "r12" }, { "r13", 8, "r13" }, { "r14", 8, "r14" }, { "r15", 8, "r15" },
	{ "ip", 8, "rip" }, { "flags", 4, "eflags" }, { "cs", 4, "cs" }, { "ss", 4, "ss" },
	{ "ds", 4, "ds" }, { "es", 4, "es" }, { "fs", 4, "fs" }, { "gs", 4, "gs" },
};

/* Target register number of @name, or -1. */
static int target_regno(struct kdb_session *s, const char *name)
{
	const struct ekdb_target_ops *o = s->target->ops;
	unsigned n = o->reg_count(s->target);

	for (unsigned i = 0; i < n; i++) {
		const char *rn = o->reg_name(s->target, i);

		if (rn && !strcmp(rn, name))
			return (int)i;
	}
	return -1;
}

static bool is_linux_target_name(const char *rn)
{
	for (unsigned i = 0; i < ARRAY_SIZE(linux_regs); i++)
		if (!strcmp(linux_regs[i].target, rn))
			return true;
	return false;
}

/* Linux's kdb_rd() layout: "name: value" items, two blanks apart, wrapped before 80 columns. */
static void rd_item(struct kdb_session *s, unsigned *len, const char *name, int size, u64 v,
		    bool known)
{
	int rsize = size * 2;

	if (*len + strlen(name) + 4 + (unsigned)rsize > 80) {
		*len = 0;
		kdb_printf(s, "\n");
	}
	if (*len) {
		kdb_printf(s, "  ");
		*len += 2;
	}
	if (!known)
		*len += (unsigned)kdb_printf(s, "%s: ??", name);
	else
		*len += (unsigned)kdb_printf(s, "%s: %0*llx", name, rsize, (unsigned long long)v);
}

static bool read_reg(struct kdb_session *s, int regno, u64 *v, size_t *size)
{
	u8 buf[64];

	*size = 0;
	*v = 0;
	if (regno < 0 || s->target->ops->reg_read(s->target, (unsigned)regno, buf, size) < 0 ||
	    *size > 8)
		return false;
	for (size_t b = 0; b < *size; b++)
		*v |= (u64)buf[b] << (8 * b);
	return true;
}

/*
 * Linux's kdb_check_regs(): the task `pid` selected has registers only while
 * it runs on a CPU (they are that CPU's); one that is not running has none
 * kdb shows.  Returns the CPU whose registers to use, or -KDB_BADREG after
 * Linux's message.
 */
static int regs_cpu(struct kdb_session *s)
{
	struct ekdb_task t;

	if (s->pid < 0 || !kdb_find_task_pid(s, s->pid, &t))
		return s->cpu;
	if (t.running)
		return t.cpu;
	kdb_printf(s, "No current kdb registers.  You may need to select another task\n");
	return -KDB_BADREG;
}

/**
 * kdb_cmd_rd - rd: Linux's 24 registers in its order and widths, then
 * (ekdb) every further register of 8 bytes or less the target has
 * (fs_base, gs_base, control and debug registers) in the same layout.
 */
int kdb_cmd_rd(struct kdb_session *s, int argc, const char **argv)
{
	const struct ekdb_target_ops *o = s->target->ops;
	unsigned n = o->reg_count(s->target), len = 0;
	size_t size;
	u64 v;

	int cpu = regs_cpu(s);

	(void)argc;	/* Linux ignores arguments */
	(void)argv;
	if (cpu < 0)
		return cpu;
	if (cpu != s->cpu && kdb_select_cpu(s, cpu))
		return -KDB_BADCPUNUM;
	for (unsigned i = 0; i < ARRAY_SIZE(linux_regs); i++) {
		bool ok = read_reg(s, target_regno(s, linux_regs[i].target), &v, &size);

		rd_item(s, &len, linux_regs[i].name, linux_regs[i].size, v, ok);
	}
	for (unsigned i = 0; i < n && !kdb_interrupted(s); i++) {
		const char *rn = o->reg_name(s->target, i);

		if (!rn || is_linux_target_name(rn) || !read_reg(s, (int)i, &v, &size) || !size)
			continue;
		rd_item(s, &len, rn, (int)size, v, true);
	}
	kdb_printf(s, "\n");
	if (cpu != s->cpu)
		kdb_select_cpu(s, s->cpu);
	return 0;
}

/**
 * kdb_cmd_rm - rm <reg> <contents>: set a register of the selected CPU,
 * named as rd shows it (Linux's "ax", "ip", "flags"; also gdb's "rax").
 */
int kdb_cmd_rm(struct kdb_session *s, int argc, const char **argv)
{
	const char *name;
	int next = 2, r, regno = -1, cpu;
	u8 buf[64];
	size_t size = 0;
	u64 v;

	if (argc != 2)
		return -KDB_ARGCOUNT;
	name = argv[1][0] == '%' ? argv[1] + 1 : argv[1];
	r = kdb_getaddrarg(s, argc, argv, &next, &v);
	if (r)
		return r;
	for (unsigned i = 0; i < ARRAY_SIZE(linux_regs); i++)
		if (!strcmp(linux_regs[i].name, name))
			regno = target_regno(s, linux_regs[i].target);
	/* gdb's names of Linux's 24 (rax, rip) too; the others rd shows are not Linux's to set */
	if (regno < 0 && is_linux_target_name(name))
		regno = target_regno(s, name);
	if (regno < 0)
		return -KDB_BADREG;
	cpu = regs_cpu(s);
	if (cpu < 0)
		return cpu;
	if (cpu != s->cpu && kdb_select_cpu(s, cpu))
		return -KDB_BADCPUNUM;
	memset(buf, 0, sizeof(buf));
	r = s->target->ops->reg_read(s->target, (unsigned)regno, buf, &size);
	if ((r < 0 && r != -EKDB_ENOENT) || size == 0 || size > 8) {
		r = -EKDB_EINVAL;
	} else {
		for (size_t b = 0; b < size; b++)
			buf[b] = (u8)(v >> (8 * b));
		r = s->target->ops->reg_write(s->target, (unsigned)regno, buf, size);
	}
	if (cpu != s->cpu)
		kdb_select_cpu(s, s->cpu);
	if (r == -EKDB_EINVAL)
		return -KDB_BADREG;
	return r ? kdb_err_to_diag(r) : 0;
}

/**
 * kdb_reg_frame - the selected CPU's registers as a frame for
 * kdb_show_regs(); false when the target cannot give rip and rsp.
 */
bool kdb_reg_frame(struct kdb_session *s, struct kdb_frame *f)
{
	static const char *const names[] = {
		"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11",
		"r12", "r13", "r14", "r15", "rip", "eflags", "cs", "ss", "ds", "es", "fs", "gs",
		"fs_base", "gs_base", "k_gs_base", "cr0", "cr2", "cr3", "cr4",
		"dr0", "dr1", "dr2", "dr3", "dr6", "dr7",
	};
	u64 *dst[] = {
		&f->ax, &f->bx, &f->cx, &f->dx, &f->si, &f->di, &f->bp, &f->sp, &f->r8, &f->r9,
		&f->r10, &f->r11, &f->r12, &f->r13, &f->r14, &f->r15, &f->ip, &f->flags, &f->cs,
		&f->ss, &f->ds, &f->es, &f->fs, &f->gs, &f->fs_base, &f->gs_base, &f->k_gs_base,
		&f->cr0, &f->cr2, &f->cr3, &f->cr4, &f->dr[0], &f->dr[1], &f->dr[2], &f->dr[3],
		&f->dr[4], &f->dr[5],
	};
	size_t size;

	memset(f, 0, sizeof(*f));
	f->orig_ax = ~0ull;
	for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
		if (!read_reg(s, target_regno(s, names[i]), dst[i], &size) && i == 16)
			return false;
	f->have_sys = true;
	return true;
}

/**
 * kdb_cmd_ef - ef <vaddr>: the exception frame (struct pt_regs, as the
 * entry stubs push it; its layout is the arch's: arch_dbg_frame_reg()) at
 * vaddr, printed as Linux's show_regs() does: the CPU line, the registers
 * (segment, control and debug registers are the selected CPU's, as Linux
 * reads them live), the call trace.
 */
int kdb_cmd_ef(struct kdb_session *s, int argc, const char **argv)
{
	static const char *const names[] = {
		"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10",
		"r11", "r12", "r13", "r14", "r15", "rip", "eflags", "cs", "ss", "orig_ax",
	};
	u64 raw[ARCH_DBG_FRAME_MAX / 8];
	size_t len = arch_dbg_frame_size();
	struct kdb_frame f, live;
	int next = 1, r;
	u64 addr;

	if (argc != 1)
		return -KDB_ARGCOUNT;
	r = kdb_getaddrarg(s, argc, argv, &next, &addr);
	if (r)
		return r;
	if (len > sizeof(raw) ||
	    s->target->ops->mem_read(s->target, addr, raw, len) != (long)len) {
		kdb_printf(s, "kdb_getarea_size: Bad address 0x%llx\n", (unsigned long long)addr);
		return -KDB_BADADDR;
	}
	if (!kdb_reg_frame(s, &live))
		memset(&live, 0, sizeof(live));
	f = live;
	{
		u64 *dst[] = {
			&f.ax, &f.bx, &f.cx, &f.dx, &f.si, &f.di, &f.bp, &f.sp, &f.r8, &f.r9, &f.r10,
			&f.r11, &f.r12, &f.r13, &f.r14, &f.r15, &f.ip, &f.flags, &f.cs, &f.ss, &f.orig_ax,
		};

		for (unsigned i = 0; i < ARRAY_SIZE(names); i++)
			arch_dbg_frame_reg(raw, names[i], dst[i]);
	}
	kdb_show_cpu_line(s, s->cpu);
	kdb_show_regs(s, &f, true);
	kdb_show_trace(s, &f, false, 0);
	return 0;
}
