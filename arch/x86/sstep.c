/* SPDX-License-Identifier: GPL-2.0 */
/* sstep.c - arm and disarm RFLAGS.TF for one instruction, fixing up flag-moving instructions. */
#include <asm/sstep.h>
#include <asm/fixup.h>
#include <asm/processor.h>

enum x86_step_insn x86_classify_insn(const u8 *code, size_t len)
{
	size_t i = 0;

	/* legacy prefixes and REX */
	while (i < len && (code[i] == 0x66 || code[i] == 0x67 || code[i] == 0xf0 ||
			   code[i] == 0xf2 || code[i] == 0xf3 || code[i] == 0x2e ||
			   code[i] == 0x36 || code[i] == 0x3e || code[i] == 0x26 ||
			   code[i] == 0x64 || code[i] == 0x65 || (code[i] & 0xf0) == 0x40))
		i++;
	if (i >= len)
		return X86_STEP_OTHER;
	switch (code[i]) {
	case 0x9c: return X86_STEP_PUSHF;
	case 0x9d: return X86_STEP_POPF;
	case 0xcf: return X86_STEP_IRET;
	case 0xfa: return X86_STEP_CLI;
	case 0xfb: return X86_STEP_STI;
	default: return X86_STEP_OTHER;
	}
}

void arch_dbg_step_prepare(struct pt_regs *regs, struct arch_dbg_step *st)
{
	u8 code[16];
	size_t n = arch_dbg_probe_read(code, regs->rip, sizeof(code));

	st->active = true;
	st->insn = x86_classify_insn(code, n);
	st->orig_if = regs->rflags & X86_EFLAGS_IF;
	st->orig_tf = regs->rflags & X86_EFLAGS_TF;
	regs->rflags |= X86_EFLAGS_TF;
	regs->rflags &= ~X86_EFLAGS_IF;		/* no interrupt handler in between */
}

void arch_dbg_step_cancel(struct pt_regs *regs, struct arch_dbg_step *st)
{
	if (!st->active)
		return;
	st->active = false;
	regs->rflags = (regs->rflags & ~(X86_EFLAGS_TF | X86_EFLAGS_IF)) | st->orig_if | st->orig_tf;
}

void arch_dbg_step_finish(struct pt_regs *regs, struct arch_dbg_step *st)
{
	u64 pushed;

	if (!st->active)
		return;
	st->active = false;
	switch (st->insn) {
	case X86_STEP_PUSHF:
		/* the stored flags carry our TF and cleared IF: put the program's back */
		if (arch_dbg_probe_read(&pushed, regs->rsp, 8) == 8) {
			pushed = (pushed & ~(X86_EFLAGS_TF | X86_EFLAGS_IF)) | st->orig_if | st->orig_tf;
			arch_dbg_probe_write(regs->rsp, &pushed, 8);
		}
		regs->rflags = (regs->rflags & ~(X86_EFLAGS_TF | X86_EFLAGS_IF)) | st->orig_if | st->orig_tf;
		break;
	case X86_STEP_POPF:
	case X86_STEP_IRET:
		/* flags were loaded by the instruction: keep them, IF included */
		break;
	case X86_STEP_CLI:
		regs->rflags = (regs->rflags & ~(X86_EFLAGS_TF | X86_EFLAGS_IF)) | st->orig_tf;
		break;
	case X86_STEP_STI:
		regs->rflags = (regs->rflags & ~X86_EFLAGS_TF) | X86_EFLAGS_IF | st->orig_tf;
		break;
	default:
		regs->rflags = (regs->rflags & ~(X86_EFLAGS_TF | X86_EFLAGS_IF)) | st->orig_if | st->orig_tf;
		break;
	}
}
