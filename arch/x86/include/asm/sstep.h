/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sstep.h - single stepping with RFLAGS.TF that does not wander into
 * interrupt handlers (IF is cleared for the step) and leaves no trace of
 * itself in the program's flags: pushf stores the program's own flags,
 * popf/iretq keep what they loaded, cli/sti take effect.
 */
#ifndef ASM_X86_SSTEP_H
#define ASM_X86_SSTEP_H

#include <asm/regs.h>

enum x86_step_insn {
	X86_STEP_OTHER = 0,
	X86_STEP_PUSHF,
	X86_STEP_POPF,
	X86_STEP_IRET,
	X86_STEP_CLI,
	X86_STEP_STI,
};

struct arch_dbg_step {
	bool active;
	enum x86_step_insn insn;
	u64 orig_if;		/* the program's IF before the step */
	u64 orig_tf;		/* the program's own TF (rare: it was tracing itself) */
};

/* x86_classify_insn - which flag-touching instruction the bytes start with. Pure. */
enum x86_step_insn x86_classify_insn(const u8 *code, size_t len);

/* arch_dbg_step_prepare - arm TF for one instruction at regs->rip. */
void arch_dbg_step_prepare(struct pt_regs *regs, struct arch_dbg_step *st);
/* arch_dbg_step_finish - after the step's #DB: undo what prepare did. */
/*
 * arch_dbg_step_cancel - the stepped instruction did not complete (it
 * faulted): @regs are from before it; put the program's TF and IF back.
 */
void arch_dbg_step_cancel(struct pt_regs *regs, struct arch_dbg_step *st);
void arch_dbg_step_finish(struct pt_regs *regs, struct arch_dbg_step *st);

#endif
