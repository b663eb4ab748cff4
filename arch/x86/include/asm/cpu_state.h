/* SPDX-License-Identifier: GPL-2.0 */
/* cpu_state.h - capture a stopped CPU into struct x86_cpu_state and write edits back. */
#ifndef ASM_X86_CPU_STATE_H
#define ASM_X86_CPU_STATE_H

#include <asm/regs.h>

/* x86_state_capture - fill @st from the trap frame @regs and the live CPU. */
void x86_state_capture(struct x86_cpu_state *st, const struct pt_regs *regs);
/*
 * x86_state_writeback - copy the user-editable registers (general purpose,
 * rip, eflags) from @st back into the frame @regs.  Control, segment and
 * debug registers are not written back (the debugger owns DR0-7).
 */
void x86_state_writeback(const struct x86_cpu_state *st, struct pt_regs *regs);

#endif
