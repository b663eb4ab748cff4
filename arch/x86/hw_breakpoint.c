/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hw_breakpoint.c - the armed hardware breakpoint set and its loading
 * into DR0-DR3/DR7 on each CPU (asm/hw_breakpoint.h).  Programmed
 * directly (no perf-style layer), static storage: usable from early boot.
 */
#include <asm/hw_breakpoint.h>
#include <ekdb/string.h>

/* The set every CPU carries, as register values; seq is odd while it is rewritten. */
static struct {
	u64 addr[X86_HW_SLOTS];
	u64 dr7;
	unsigned seq;
} hw_armed = { .dr7 = DR7_RESERVED1 };

bool arch_hw_bp_len_ok(u64 addr, unsigned len)
{
	return (len == 1 || len == 2 || len == 4 || len == 8) && !(addr & (len - 1));
}

bool arch_hw_bp_addr_ok(u64 addr)
{
	return x86_addr_canonical(addr);	/* DR0-DR3 cannot hold anything else */
}

static unsigned dr_rw(enum ekdb_bp_type t)
{
	switch (t) {
	case EKDB_BP_HW: return DR_RW_EXEC;
	case EKDB_BP_WRITE: return DR_RW_WRITE;
	default: return DR_RW_ACCESS;	/* x86 cannot watch reads alone */
	}
}

u64 x86_hw_bp_dr7(const struct arch_hw_bp_slot *slots)
{
	u64 dr7 = DR7_RESERVED1;

	for (unsigned s = 0; s < X86_HW_SLOTS; s++)
		if (slots[s].on)
			dr7 |= x86_dr7_slot(s, dr_rw(slots[s].type), slots[s].len);
	return dr7;
}

void arch_hw_bp_arm(const struct arch_hw_bp_slot *slots)
{
	u64 addr[X86_HW_SLOTS] = { 0 }, dr7 = x86_hw_bp_dr7(slots);

	for (unsigned s = 0; s < X86_HW_SLOTS; s++)
		if (slots[s].on)
			addr[s] = slots[s].addr;
	__atomic_add_fetch(&hw_armed.seq, 1, __ATOMIC_ACQ_REL);
	memcpy(hw_armed.addr, addr, sizeof(addr));
	__atomic_store_n(&hw_armed.dr7, dr7, __ATOMIC_RELAXED);
	__atomic_add_fetch(&hw_armed.seq, 1, __ATOMIC_ACQ_REL);
}

void arch_hw_bp_load(void)
{
	u64 addr[X86_HW_SLOTS], dr7;
	unsigned seq;

	do {
		while ((seq = __atomic_load_n(&hw_armed.seq, __ATOMIC_ACQUIRE)) & 1)
			;
		memcpy(addr, hw_armed.addr, sizeof(addr));
		dr7 = __atomic_load_n(&hw_armed.dr7, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&hw_armed.seq, __ATOMIC_RELAXED) != seq);
	x86_set_dr(7, DR7_RESERVED1);
	for (unsigned s = 0; s < X86_HW_SLOTS; s++)
		x86_set_dr(s, addr[s]);
	x86_set_dr(6, 0);
	x86_set_dr(7, dr7);
}

void arch_hw_bp_disarm(void)
{
	x86_set_dr(7, DR7_RESERVED1);
}
