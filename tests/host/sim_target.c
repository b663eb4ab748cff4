/* SPDX-License-Identifier: GPL-2.0 */
/* sim_target.c - simulated ekdb_target (memory with holes, x86 registers, bp slots, threads). */
#include "sim_target.h"
#include "sim_port.h"
#include <asm/regs_table.h>
#include <ekdb/errno.h>
#include <ekdb/range.h>
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

static bool in_debugger(u64 addr, u64 len);

static long sim_mem_read(struct ekdb_target *t, u64 addr, void *buf, size_t len)
{
	struct sim_target *s = to_sim(t);
	size_t i;
	u8 *p;

	if (len && addr + (len - 1) < addr)
		s->wrap_asks++;

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

	if (len && addr + (len - 1) < addr)
		s->wrap_asks++;
	if (len && in_debugger(addr, len))
		return -EKDB_EPERM;	/* as core/mem.c: the debugger's own bytes */

	for (i = 0; i < len; i++) {
		p = sim_target_mem(s, addr + i);
		if (!p || addr + i < addr)
			break;
		*p = ((const u8 *)buf)[i];
	}
	return i ? (long)i : -EKDB_EFAULT;
}

/* A plain store: the text is mapped read-only (as the kernel's is). */
static long sim_mem_store(struct ekdb_target *t, u64 addr, const void *buf, size_t len)
{
	size_t n = 0;

	if (len && in_debugger(addr, len))
		return -EKDB_EPERM;	/* as core/target.c: the debugger's own bytes first */
	while (n < len && !(addr + n >= SIM_TEXT_BASE && addr + n < SIM_TEXT_BASE + SIM_TEXT_SIZE))
		n++;
	if (!n)
		return len ? -EKDB_EFAULT : 0;
	return sim_mem_write(t, addr, buf, n);
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

static bool in_debugger(u64 addr, u64 len)
{
	return ekdb_range_overlaps(addr, len, SIM_DBG_BASE, SIM_DBG_BASE + SIM_DBG_SIZE);
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

/* Plant (type, addr) unless it is there: 0 or an error. */
static int sim_bp_plant(struct ekdb_target *t, enum ekdb_bp_type type, u64 addr, unsigned len)
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
int sim_monitor(void *sim, const char *cmd,
		void (*out)(void *arg, const char *s, size_t len), void *arg)
{
	struct sim_target *s = sim;

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


/* ---- kdb extras: shared breakpoint table view ---- */

static struct sim_bp *bp_at(struct sim_target *s, int index)
{
	if (index < 0)
		return NULL;
	if (index < SIM_MAX_SW_BPS)
		return &s->sw[index];
	if (index < SIM_MAX_SW_BPS + SIM_HW_SLOTS)
		return &s->hw[index - SIM_MAX_SW_BPS];
	return NULL;
}

static int bp_index_of(struct sim_target *s, enum ekdb_bp_type type, u64 addr)
{
	for (int i = 0; i < SIM_MAX_SW_BPS + SIM_HW_SLOTS; i++) {
		struct sim_bp *b = bp_at(s, i);

		if (b->used && b->type == type && b->addr == addr)
			return i;
	}
	return -EKDB_ENOENT;
}

/* gdb's (idempotent, as gdb may insert twice) or kdb's (enables it again): its index. */
static int sim_bp_set(struct ekdb_target *t, enum ekdb_bp_owner owner, enum ekdb_bp_type type,
		      u64 addr, unsigned len)
{
	struct sim_target *s = to_sim(t);
	int i = bp_index_of(s, type, addr), r;

	if (i >= 0 && owner == EKDB_BP_BY_KDB) {
		bp_at(s, i)->disabled = false;
		bp_at(s, i)->by_kdb = true;
		return i;
	}
	r = sim_bp_plant(t, type, addr, len);
	if (r < 0)
		return r;
	i = bp_index_of(s, type, addr);
	if (i >= 0 && owner == EKDB_BP_BY_KDB)
		bp_at(s, i)->by_kdb = true;
	return i;
}

static int sim_bp_get(struct ekdb_target *t, int index, struct ekdb_bp_info *info)
{
	struct sim_target *s = to_sim(t);
	struct sim_bp *b = bp_at(s, index);

	if (!b)
		return -EKDB_ERANGE;
	if (!b->used)
		return -EKDB_ENOENT;
	memset(info, 0, sizeof(*info));
	info->type = b->type;
	info->addr = b->addr;
	info->len = b->len;
	info->enabled = !b->disabled;
	info->installed = false;	/* stopped: everything is out of memory */
	info->by_kdb = b->by_kdb;
	info->by_gdb = !b->by_kdb;
	info->slot = index < SIM_MAX_SW_BPS ? -1 : index - SIM_MAX_SW_BPS;
	info->hits = s->bp_hits[index];
	return 0;
}

static int sim_bp_enable(struct ekdb_target *t, int index, bool enable)
{
	struct sim_bp *b = bp_at(to_sim(t), index);

	if (!b || !b->used)
		return -EKDB_ENOENT;
	b->disabled = !enable;
	return 0;
}

static int sim_bp_clear(struct ekdb_target *t, int index)
{
	struct sim_bp *b = bp_at(to_sim(t), index);

	if (!b || !b->used)
		return -EKDB_ENOENT;
	memset(b, 0, sizeof(*b));
	return 0;
}

/* ---- kdb extras: symbols ---- */

#define SIM_NMANY 40
static char many_names[SIM_NMANY][8];

static const struct ksym sim_fixed_syms[] = {
	{ "start_kernel", SIM_TEXT_BASE + 0x000, 0x100, 'T' },
	{ "setup_arch", SIM_TEXT_BASE + 0x100, 0x200, 'T' },
	{ "setup_boot_params", SIM_TEXT_BASE + 0x300, 0x80, 'T' },
	{ "mm_init", SIM_TEXT_BASE + 0x400, 0x100, 'T' },
	{ "kgdb_breakpoint", SIM_DBG_BASE, 0x10, 'T' },
	{ "jiffies", SIM_RAM0_BASE + 0x100, 8, 'D' },
	{ "init_task", SIM_RAM0_BASE + 0x200, 0x100, 'D' },
};

static int sim_sym_get(struct ekdb_target *t, unsigned long index, struct ksym *sym)
{
	if (index < ARRAY_SIZE(sim_fixed_syms)) {
		*sym = sim_fixed_syms[index];
		return 0;
	}
	index -= ARRAY_SIZE(sim_fixed_syms);
	if (index >= SIM_NMANY)
		return -EKDB_ENOENT;
	if (!many_names[index][0]) {
		memcpy(many_names[index], "many_", 5);
		many_names[index][5] = (char)('0' + index / 10);
		many_names[index][6] = (char)('0' + index % 10);
	}
	sym->name = many_names[index];
	sym->addr = SIM_RAM1_BASE + 0x10 * index;
	sym->size = 0x10;
	sym->type = 'd';
	return 0;
}

static int sim_sym_by_name(struct ekdb_target *t, const char *name, struct ksym *sym)
{
	struct ksym k;

	for (unsigned long i = 0; sim_sym_get(t, i, &k) == 0; i++)
		if (!strcmp(k.name, name)) {
			*sym = k;
			return 0;
		}
	return -EKDB_ENOENT;
}

static int sim_sym_by_addr(struct ekdb_target *t, u64 addr, struct ksym *sym)
{
	struct ksym k;

	for (unsigned long i = 0; sim_sym_get(t, i, &k) == 0; i++)
		if (addr >= k.addr && addr < k.addr + k.size) {
			*sym = k;
			return 0;
		}
	return -EKDB_ENOENT;
}

static int sim_cpu_select(struct ekdb_target *t, unsigned cpu)
{
	struct sim_target *s = to_sim(t);

	if (cpu >= (unsigned)s->nthreads)
		return -EKDB_ENOENT;
	s->selected = (int)cpu;
	return 0;
}

static unsigned sim_cpu_count(struct ekdb_target *t)
{
	return (unsigned)to_sim(t)->nthreads;
}

void sim_target_setup_frames(struct sim_target *s)
{
	/* frame at SIM_FRAME_BASE: [saved rbp][return address] */
	static const u64 rets[] = { SIM_TEXT_BASE + 0x410, SIM_TEXT_BASE + 0x150,
				    SIM_TEXT_BASE + 0x020 };
	u64 fp = SIM_FRAME_BASE;

	for (unsigned i = 0; i < ARRAY_SIZE(rets); i++) {
		u64 next = i + 1 < ARRAY_SIZE(rets) ? fp + 0x40 : 0;

		memcpy(sim_target_mem(s, fp), &next, 8);
		memcpy(sim_target_mem(s, fp + 8), &rets[i], 8);
		fp = next;
	}
	s->regs[0].rbp = SIM_FRAME_BASE;
	/*
	 * CPU 0's stack: rsp a little below the first frame, holding a stale
	 * text address (bt shows it as "? ") and data that is no text.
	 */
	s->regs[0].rsp = SIM_FRAME_BASE - 0x18;
	memcpy(sim_target_mem(s, SIM_FRAME_BASE - 0x18), &(u64){ SIM_TEXT_BASE + 0x305 }, 8);
	memcpy(sim_target_mem(s, SIM_FRAME_BASE - 0x10), &(u64){ SIM_RAM0_BASE + 0x104 }, 8);	/* in jiffies */
	memset(sim_target_mem(s, SIM_FRAME_BASE - 0x8), 0, 8);
	/* r15, r14, r13, r12, rbx, rbp, return address: pushed by the switch that put it to sleep */
	memset(sim_target_mem(s, SIM_SLEEP_SP), 0, 5 * 8);
	memcpy(sim_target_mem(s, SIM_SLEEP_SP + 5 * 8), &(u64){ SIM_FRAME_BASE }, 8);
	memcpy(sim_target_mem(s, SIM_SLEEP_SP + 6 * 8), &(u64){ SIM_SLEEP_IP }, 8);
}

static void sim_reg_layout(struct ekdb_target *t, struct ekdb_reg_layout *l)
{
	x86_reg_layout(l);
}

static const struct ekdb_target_ops sim_ops = {
	.mem_read = sim_mem_read,
	.mem_write = sim_mem_write,
	.mem_store = sim_mem_store,
	.reg_count = sim_reg_count,
	.reg_read = sim_reg_read,
	.reg_write = sim_reg_write,
	.reg_name = sim_reg_name,
	.reg_layout = sim_reg_layout,
	.features_xml = sim_features_xml,
	.bp_set = sim_bp_set,
	.bp_remove = sim_bp_remove,
	.thread_count = sim_thread_count,
	.thread_get = sim_thread_get,
	.thread_select = sim_thread_select,
	.thread_current = sim_thread_current,
	.bp_get = sim_bp_get,
	.bp_enable = sim_bp_enable,
	.bp_clear = sim_bp_clear,
	.sym_by_name = sim_sym_by_name,
	.sym_by_addr = sim_sym_by_addr,
	.sym_get = sim_sym_get,
	.cpu_select = sim_cpu_select,
	.cpu_count = sim_cpu_count,
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
	s->regions[3] = (struct sim_region){ SIM_TOP_BASE, SIM_TOP_SIZE, s->top };
	s->nregions = 4;
	memset(s->top, 0xa5, sizeof(s->top));
	sim_port_attach(s);	/* the simulated kernel's services: log, tasks ... */
	for (k = 0; k < sizeof(s->ram0); k++)
		s->ram0[k] = (u8)k;
	for (k = 0; k < sizeof(s->text); k++)
		s->text[k] = 0x90;	/* nop */
	for (i = 0; i < SIM_MAX_THREADS; i++) {
		struct arch_dbg_state *r = &s->regs[i];
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
