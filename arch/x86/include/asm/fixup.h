/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixup.h - fault-safe memory access through an exception fixup table.
 *
 * Every load or store done on behalf of a debugger user goes through
 * arch_dbg_probe_read()/arch_dbg_probe_write().  The instruction that touches the
 * user's address has an entry in the __ex_table section; if it faults
 * (#PF, #GP for a non-canonical address, #SS), x86_trap_dispatch() finds the
 * entry and resumes at the fixup, so a bad address becomes an error return,
 * never a crash.  Works from the first instruction (no allocator, no IDT
 * state other than the shared dispatcher).
 */
#ifndef ASM_X86_FIXUP_H
#define ASM_X86_FIXUP_H

#include <ekdb/types.h>
#include <ekdb/arch.h>
#include <asm/regs.h>

struct x86_ex_entry {
	u64 insn;	/* address of the instruction that may fault */
	u64 fixup;	/* where to resume if it does */
};

/*
 * arch_dbg_probe_read/arch_dbg_probe_write/arch_dbg_probe_set_xlate:
 * declared in <ekdb/arch.h>, implemented in fixup.c.
 */

/* Called by x86_trap_dispatch: true when regs->rip was redirected. */
bool x86_fixup_exception(struct pt_regs *regs);

#endif
