/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trampoline.S - where an application processor starts: real mode ->
 * protected mode -> long mode on the kernel's page tables, then a jump to
 * smp_ap_start(cpu) on its own stack.  smp.c copies trampoline_start ..
 * trampoline_end to the page below 1 MiB the loader reserved, fills
 * trampoline_data (struct trampoline_data in smp.c) and sends the SIPI
 * with vector = page >> 12, so the AP begins at CS = page >> 4, IP = 0.
 * Everything is addressed relative to that page (in %ebx), so the code is
 * position independent.  The low 2 MiB are identity mapped while APs start.
 */
#define X86_CR0_PE		0x00000001
#define X86_CR0_WP		0x00010000
#define X86_CR0_PG		0x80000000
#define X86_CR4_PAE		0x00000020
#define X86_CR4_PGE		0x00000080
#define MSR_EFER		0xc0000080
#define EFER_LME_NXE		0x00000900	/* long mode enable, no-execute enable */
#define MSR_GS_BASE		0xc0000101

#define TR(label)	(label - trampoline_start)

	.section .rodata.trampoline, "a"
	.balign 16
	.globl trampoline_start
trampoline_start:
	.code16
	cli
	cld
	movw	%cs, %ax
	movw	%ax, %ds
	xorl	%ebx, %ebx
	movw	%ax, %bx
	shll	$4, %ebx			/* %ebx = physical address of this page */
	lgdtl	TR(tr_gdtr)
	movl	%cr0, %eax
	orl	$X86_CR0_PE, %eax
	movl	%eax, %cr0
	ljmpl	*TR(tr_jmp32)			/* -> tr_protected, CS = 0x08 */

	.code32
	.globl trampoline_protected
trampoline_protected:
	movw	$0x10, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	movl	%cr4, %eax
	orl	$(X86_CR4_PAE | X86_CR4_PGE), %eax
	movl	%eax, %cr4
	movl	TR(tr_cr3)(%ebx), %eax		/* the kernel's PML4 (below 4 GiB) */
	movl	%eax, %cr3
	movl	$MSR_EFER, %ecx
	rdmsr
	orl	$EFER_LME_NXE, %eax		/* NX: the kernel's tables use it */
	wrmsr
	movl	%cr0, %eax
	orl	$(X86_CR0_PG | X86_CR0_WP | X86_CR0_PE), %eax
	movl	%eax, %cr0
	ljmpl	*TR(tr_jmp64)(%ebx)		/* -> tr_long, CS = 0x18 (64-bit) */

	.code64
	.globl trampoline_long
trampoline_long:
	movl	%ebx, %ebx			/* upper half undefined after the mode switch */
	movl	$MSR_GS_BASE, %ecx		/* per-CPU data before any C runs */
	movl	TR(tr_gsbase)(%rbx), %eax
	movl	TR(tr_gsbase) + 4(%rbx), %edx
	wrmsr
	movq	TR(tr_stack)(%rbx), %rsp
	movq	TR(tr_cpu)(%rbx), %rdi
	movq	TR(tr_entry)(%rbx), %rax
	xorl	%ebp, %ebp
	pushq	$0				/* fake return address: ends backtraces */
	jmpq	*%rax

/* Filled by smp.c for each AP: layout = struct trampoline_data. */
	.balign 8
	.globl trampoline_data
trampoline_data:
tr_gdt:
	.quad	0
	.quad	0x00cf9a000000ffff		/* 0x08: 32-bit code */
	.quad	0x00cf92000000ffff		/* 0x10: data */
	.quad	0x00af9a000000ffff		/* 0x18: 64-bit code */
tr_gdtr:	.word 0
		.long 0
		.word 0
tr_jmp32:	.long 0
		.word 0
		.word 0
tr_jmp64:	.long 0
		.word 0
		.word 0
tr_cr3:		.long 0
		.long 0
tr_stack:	.quad 0
tr_entry:	.quad 0
tr_cpu:		.quad 0
tr_gsbase:	.quad 0
	.globl trampoline_end
trampoline_end:
