/* SPDX-License-Identifier: GPL-2.0 */
/* sim_target.c - simulated ekdb_target (memory with holes, x86 registers, bp slots, threads). */
#include "sim_target.h"
#include <asm/regs_table.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>

static struct sim_target *to_sim(struct ekdb_target *t)
{
	return container_of(t, struct sim_target, t);
}

u8 *sim_target_mem(struct sim_target *s, u64 addr)
{
	unsigned i;

	for (i = 0; i < s->nregions; i++) {
		struct sim_region *r = &s->regions[i];

		if (addr >= r->base && addr - r->base < r->size)
			return r->data + (addr - r->base);
	}
	return NULL;
}

static long sim_mem_read(struct ekdb_target *t, u64 addr, void *buf, size_t len)
{
	struct sim_target *s = to_sim(t);
	size_t i;
	u8 *p;

	for (i = 0; i < len; i++) {
		p = sim_target_mem(s, addr + i);
		if (!p || addr + i < addr)
			break;
		((u8 *)buf)[i] = *p;
	}
	return i ? (long)i : -EKDB_EFAULT;
}

static long sim_mem_write(struct ekdb_target *t, u64 addr, const void *buf, size_t len)
{
	struct sim_target *s = to_sim(t);
	size_t i;
	u8 *p;

	for (i = 0; i < len; i++) {
		p = sim_target_mem(s, addr + i);
		if (!p || addr + i < addr)
			break;
		*p = ((const u8 *)buf)[i];
	}
	return i ? (long)i : -EKDB_EFAULT;
}

static unsigned sim_reg_count(struct ekdb_target *t)
{
	return x86_reg_count();
}

static int sim_reg_read(struct ekdb_target *t, unsigned regno, u8 *buf, size_t *size)
{
	struct sim_target *s = to_sim(t);

	return x86_reg_get(&s->regs[s->selected], regno, buf, size);
}

static int sim_reg_write(struct ekdb_target *t, unsigned regno, const u8 *buf, size_t size)
{
	struct sim_target *s = to_sim(t);

	return x86_reg_set(&s->regs[s->selected], regno, buf, size);
}

static const char *sim_reg_name(struct ekdb_target *t, unsigned regno)
{
	const struct x86_reg_desc *d = x86_reg_desc(regno);

	return d ? d->name : NULL;
}

static const char *sim_features_xml(struct ekdb_target *t, const char *annex, size_t *len)
{
	return x86_features_xml(annex, len);
}

static bool in_debugger(u64 addr, unsigned len)
{
	return addr < SIM_DBG_BASE + SIM_DBG_SIZE && addr + len > SIM_DBG_BASE;
}

static struct sim_bp *bp_find(struct sim_bp *tab, unsigned n, enum ekdb_bp_type type,
			      u64 addr, unsigned len)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (tab[i].used && tab[i].type == type && tab[i].addr == addr &&
		    tab[i].len == len)
			return &tab[i];
	return NULL;
}

static struct sim_bp *bp_free(struct sim_bp *tab, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (!tab[i].used)
			return &tab[i];
	return NULL;
}

static int sim_bp_set(struct ekdb_target *t, enum ekdb_bp_type type, u64 addr, unsigned len)
{
	struct sim_target *s = to_sim(t);
	struct sim_bp *tab = type == EKDB_BP_SW ? s->sw : s->hw;
	unsigned n = type == EKDB_BP_SW ? SIM_MAX_SW_BPS : SIM_HW_SLOTS;
	struct sim_bp *b;

	if (type == EKDB_BP_SW || type == EKDB_BP_HW) {
		if (len != 1)
			return -EKDB_EINVAL;
	} else if ((len != 1 && len != 2 && len != 4 && len != 8) || (addr & (len - 1))) {
		return -EKDB_EINVAL;
	}
	if (in_debugger(addr, len))
		return -EKDB_EPERM;
	if (type == EKDB_BP_SW && !sim_target_mem(s, addr))
		return -EKDB_EFAULT;
	if (bp_find(tab, n, type, addr, len))
		return 0;	/* gdb may insert twice; idempotent */
	b = bp_free(tab, n);
	if (!b)
		return -EKDB_ENOSPC;
	b->used = true;
	b->type = type;
	b->addr = addr;
	b->len = len;
	return 0;
}

static int sim_bp_remove(struct ekdb_target *t, enum ekdb_bp_type type, u64 addr, unsigned len)
{
	struct sim_target *s = to_sim(t);
	struct sim_bp *b;

	if (type == EKDB_BP_SW)
		b = bp_find(s->sw, SIM_MAX_SW_BPS, type, addr, len);
	else
		b = bp_find(s->hw, SIM_HW_SLOTS, type, addr, len);
	if (!b)
		return -EKDB_ENOENT;
	b->used = false;
	return 0;
}

int sim_target_bp_count(const struct sim_target *s, enum ekdb_bp_type type)
{
	int i, n = 0;

	for (i = 0; i < SIM_MAX_SW_BPS; i++)
		n += s->sw[i].used && s->sw[i].type == type;
	for (i = 0; i < SIM_HW_SLOTS; i++)
		n += s->hw[i].used && s->hw[i].type == type;
	return n;
}

static int sim_thread_count(struct ekdb_target *t)
{
	return to_sim(t)->nthreads;
}

static int sim_thread_get(struct ekdb_target *t, int index, struct ekdb_thread_info *info)
{
	struct sim_target *s = to_sim(t);

	if (index < 0 || index >= s->nthreads)
		return -EKDB_ENOENT;
	memset(info, 0, sizeof(*info));
	info->id = (u64)index + 1;
	info->cpu = index;
	memcpy(info->name, "CPU#", 4);
	info->name[4] = (char)('0' + index);
	if (index == s->current)
		memcpy(info->state, "stopped", 8);
	else
		memcpy(info->state, "parked", 7);
	return 0;
}

static int sim_thread_select(struct ekdb_target *t, u64 id)
{
	struct sim_target *s = to_sim(t);

	if (id < 1 || id > (u64)s->nthreads)
		return -EKDB_ENOENT;
	s->selected = (int)id - 1;
	return 0;
}

static u64 sim_thread_current(struct ekdb_target *t)
{
	return (u64)to_sim(t)->current + 1;
}

/* "echo TEXT" prints TEXT; "fail" returns -EKDB_EINVAL; anything else prints a line. */
static int sim_monitor(struct ekdb_target *t, const char *cmd,
		       void (*out)(void *arg, const char *s, size_t len), void *arg)
{
	struct sim_target *s = to_sim(t);

	s->monitor_calls++;
	memset(s->last_monitor, 0, sizeof(s->last_monitor));
	memcpy(s->last_monitor, cmd, MIN(strlen(cmd), sizeof(s->last_monitor) - 1));
	if (!strcmp(cmd, "fail"))
		return -EKDB_EINVAL;
	if (!strncmp(cmd, "echo ", 5)) {
		out(arg, cmd + 5, strlen(cmd + 5));
		out(arg, "\n", 1);
		return 0;
	}
	out(arg, "sim: ", 5);
	out(arg, cmd, strlen(cmd));
	out(arg, "\n", 1);
	return 0;
}

static const struct ekdb_target_ops sim_ops = {
	.mem_read = sim_mem_read,
	.mem_write = sim_mem_write,
	.reg_count = sim_reg_count,
	.reg_read = sim_reg_read,
	.reg_write = sim_reg_write,
	.reg_name = sim_reg_name,
	.features_xml = sim_features_xml,
	.bp_set = sim_bp_set,
	.bp_remove = sim_bp_remove,
	.thread_count = sim_thread_count,
	.thread_get = sim_thread_get,
	.thread_select = sim_thread_select,
	.thread_current = sim_thread_current,
	.monitor = sim_monitor,
};

void sim_target_init(struct sim_target *s, int nthreads)
{
	int i;
	size_t k;

	memset(s, 0, sizeof(*s));
	s->ops = sim_ops;
	s->t.ops = &s->ops;
	s->t.priv = s;
	s->nthreads = MAX(1, MIN(nthreads, SIM_MAX_THREADS));
	s->regions[0] = (struct sim_region){ SIM_RAM0_BASE, SIM_RAM0_SIZE, s->ram0 };
	s->regions[1] = (struct sim_region){ SIM_RAM1_BASE, SIM_RAM1_SIZE, s->ram1 };
	s->regions[2] = (struct sim_region){ SIM_TEXT_BASE, SIM_TEXT_SIZE, s->text };
	s->nregions = 3;
	for (k = 0; k < sizeof(s->ram0); k++)
		s->ram0[k] = (u8)k;
	for (k = 0; k < sizeof(s->text); k++)
		s->text[k] = 0x90;	/* nop */
	for (i = 0; i < SIM_MAX_THREADS; i++) {
		struct x86_cpu_state *r = &s->regs[i];
		u64 t = (u64)i << 32;

		r->rax = 0x1111111111111111ull + t; r->rbx = 0x2222;
		r->rcx = 0x3333; r->rdx = 0x4444; r->rsi = 0x5555; r->rdi = 0x6666;
		r->rbp = 0x2f00; r->rsp = 0x2f00 - 0x100 * (u64)i;
		r->r8 = 8; r->r9 = 9; r->r10 = 10; r->r11 = 11;
		r->r12 = 12; r->r13 = 13; r->r14 = 14; r->r15 = 15;
		r->rip = SIM_TEXT_BASE + 0x10 + (u64)i;
		r->eflags = 0x246;
		r->cs = 0x10; r->ss = 0x18; r->ds = 0x18; r->es = 0x18; r->fs = 0; r->gs = 0;
		r->fs_base = 0x7f0000001000ull; r->gs_base = 0xffff888000000000ull + t;
		r->k_gs_base = 0xabc;
		r->cr0 = 0x80050033; r->cr2 = 0xdead0000; r->cr3 = 0x1234000 + t;
		r->cr4 = 0x3606f0; r->cr8 = 0; r->efer = 0xd01;
		r->dr6 = 0xffff0ff0; r->dr7 = 0x400;
	}
}
