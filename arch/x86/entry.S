/* SPDX-License-Identifier: GPL-2.0 */
/*
 * entry.S - the 256 interrupt/exception entry stubs.  Each builds a
 * struct pt_regs on the stack (see asm/regs.h) and calls
 * x86_trap_dispatch(regs); on return the frame (possibly edited by the
 * debugger: rip, rflags, registers) is restored and iretq resumes.
 */
#include <asm/regs.h>

/* Vectors for which the CPU pushes an error code (SDM vol. 3, 6.13) */
#define HAS_ERR(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)

	.section .text.entry, "ax"
	.code64

	.align 16
x86_trap_common:
	cld
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%rax
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, %rdi
	/* Align the stack for C; keep the frame pointer chain intact. */
	movq	%rsp, %rbx
	andq	$-16, %rsp
	call	x86_trap_dispatch
	movq	%rbx, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rax
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	addq	$16, %rsp		/* vector, error code */
	iretq

	.altmacro
	.macro STUB v
	.align 16
x86_stub_\v:
	.if !HAS_ERR(\v)
	pushq	$0
	.endif
	pushq	$\v
	jmp	x86_trap_common
	.endm

	.macro STUBADDR v
	.quad	x86_stub_\v
	.endm

	.set vec, 0
	.rept 256
	STUB %vec
	.set vec, vec + 1
	.endr

	.section .rodata
	.align 8
	.globl x86_idt_stubs
	.hidden x86_idt_stubs		/* the debugger's name only (docs/porting.md, "Names") */
x86_idt_stubs:
	.set vec, 0
	.rept 256
	STUBADDR %vec
	.set vec, vec + 1
	.endr
