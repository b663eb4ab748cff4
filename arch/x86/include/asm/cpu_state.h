/* SPDX-License-Identifier: GPL-2.0 */
/* cpu_state.h - capture a stopped CPU into struct arch_dbg_state and write edits back. */
#ifndef ASM_X86_CPU_STATE_H
#define ASM_X86_CPU_STATE_H

#include <asm/regs.h>

/* arch_dbg_state_capture - fill @st from the trap frame @regs and the live CPU. */
void arch_dbg_state_capture(struct arch_dbg_state *st, const struct pt_regs *regs);
/*
 * arch_dbg_state_writeback - copy the user-editable registers (general purpose,
 * rip, eflags) from @st back into the frame @regs.  Control, segment and
 * debug registers are not written back (the debugger owns DR0-7).
 */
void arch_dbg_state_writeback(const struct arch_dbg_state *st, struct pt_regs *regs);

/* The program counter the CPU resumes at (gdb's "pc"), and setting it. */
static inline u64 arch_dbg_state_pc(const struct arch_dbg_state *st)
{
	return st->rip;
}

static inline void arch_dbg_state_set_pc(struct arch_dbg_state *st, u64 pc)
{
	st->rip = pc;
}

#endif
