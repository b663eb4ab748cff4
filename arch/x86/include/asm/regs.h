/* SPDX-License-Identifier: GPL-2.0 */
/*
 * regs.h - x86-64 register layouts.
 *
 * struct pt_regs is the trap frame every entry stub in arch/x86/entry.S
 * builds on the stack (same field order as Linux's pt_regs).
 *
 * struct arch_dbg_state is the debugger's flat copy of everything gdb and
 * kdb can see of one stopped CPU: the frame plus segment selectors, the
 * segment base MSRs, control registers, EFER and the debug registers.
 * arch/x86/regs_table.c describes it ({name, size, offset}) in gdb's amd64
 * register order; that one table serves g/G/p/P, kdb rd/rm, and the
 * target description XML.
 */
#ifndef ASM_X86_REGS_H
#define ASM_X86_REGS_H

#ifndef __ASSEMBLY__
#include <ekdb/types.h>

struct pt_regs {
	u64 r15, r14, r13, r12, rbp, rbx;
	u64 r11, r10, r9, r8, rax, rcx, rdx, rsi, rdi;
	u64 vector;		/* pushed by the stub */
	u64 error_code;		/* pushed by the CPU, or 0 by the stub */
	/* hardware interrupt frame */
	u64 rip, cs, rflags, rsp, ss;
};

struct arch_dbg_state {
	/* general purpose, gdb amd64 order */
	u64 rax, rbx, rcx, rdx, rsi, rdi, rbp, rsp;
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
	u64 rip;
	u64 eflags;
	u64 cs, ss, ds, es, fs, gs;	/* selectors (gdb sends 32 bits) */
	/* segment bases */
	u64 fs_base, gs_base, k_gs_base;
	/* system */
	u64 cr0, cr2, cr3, cr4, cr8, efer;
	/* debug registers */
	u64 dr0, dr1, dr2, dr3, dr6, dr7;
};
#endif

/* x86_regs offsets for entry.S */
#define X86_REGS_R15		0
#define X86_REGS_VECTOR		(15 * 8)
#define X86_REGS_ERROR		(16 * 8)
#define X86_REGS_RIP		(17 * 8)
#define X86_REGS_CS		(18 * 8)
#define X86_REGS_RFLAGS		(19 * 8)
#define X86_REGS_RSP		(20 * 8)
#define X86_REGS_SS		(21 * 8)
#define X86_REGS_SIZE		(22 * 8)

#endif
