/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hw_breakpoint.h - the hardware breakpoint slots as the debug core sees
 * them: a fixed number of slots, each off or holding (address, kind,
 * length).  The core keeps the table (numbers, owners, enable/disable,
 * which entry owns which slot); the arch turns a set of slots into its
 * registers (x86: DR0-DR3 and DR7) and loads it on each CPU.
 *
 * Debug registers are per CPU, the set is not: the master publishes the
 * armed set with arch_hw_bp_arm() while the machine is stopped, and every
 * CPU loads it with arch_hw_bp_load() as it leaves the debugger and when
 * it comes online (Linux: correct_hw_break).  Static storage only; usable
 * from early boot and from NMI context.
 */
#ifndef ASM_X86_HW_BREAKPOINT_H
#define ASM_X86_HW_BREAKPOINT_H

#include <ekdb/target.h>
#include <asm/debugreg.h>

/* How many slots there are (x86: DR0-DR3). */
#define ARCH_HW_BP_SLOTS	X86_HW_SLOTS

/* One slot of the set to arm; @on false leaves it off (the rest is ignored). */
struct arch_hw_bp_slot {
	bool on;
	enum ekdb_bp_type type;	/* EKDB_BP_HW, _WRITE, _READ or _ACCESS */
	unsigned len;		/* bytes watched; 1 for EKDB_BP_HW */
	u64 addr;
};

/*
 * arch_hw_bp_len_ok - can a slot watch @len bytes at @addr?  x86: 1, 2, 4
 * or 8 bytes, aligned to the length.  Pure.
 */
bool arch_hw_bp_len_ok(u64 addr, unsigned len);
/* arch_hw_bp_addr_ok - can a slot hold @addr at all?  x86: canonical.  Pure. */
bool arch_hw_bp_addr_ok(u64 addr);

/*
 * arch_hw_bp_arm - publish @slots (ARCH_HW_BP_SLOTS entries) as the set
 * every CPU carries.  The master, machine stopped.  Does not load it: see
 * arch_hw_bp_load().
 */
void arch_hw_bp_arm(const struct arch_hw_bp_slot *slots);
/* arch_hw_bp_load - load the published set into this CPU (any CPU, any time). */
void arch_hw_bp_load(void);
/* arch_hw_bp_disarm - this CPU's slots off (while it is inside the debugger). */
void arch_hw_bp_disarm(void);

/* x86_hw_bp_dr7 - the DR7 value that arms @slots (ARCH_HW_BP_SLOTS entries).  Pure. */
u64 x86_hw_bp_dr7(const struct arch_hw_bp_slot *slots);

#endif
