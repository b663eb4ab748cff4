/* SPDX-License-Identifier: GPL-2.0 */
/* handover.S - last loader instructions: interrupts off, loader page tables, jump to the kernel. */

	.text
	.globl	ekdb_handover
	.type	ekdb_handover, @function
/*
 * void ekdb_handover(u64 entry, u64 bootinfo, u64 pml4)   (System V ABI)
 * The code and the current stack are identity mapped in the new tables
 * (see paging.c), so execution continues across the CR3 write.
 */
ekdb_handover:
	cli
	cld
	movq	%rdi, %rax		/* entry */
	movq	%rsi, %rdi		/* %rdi = boot-info record for the kernel */
	movq	%rdx, %cr3
	andq	$-16, %rsp		/* as after a call: %rsp + 8 is 16-byte aligned */
	pushq	$0			/* no return address */
	xorl	%ebp, %ebp
	xorl	%esi, %esi
	xorl	%edx, %edx
	jmp	*%rax
	.size	ekdb_handover, . - ekdb_handover

	.section .note.GNU-stack, "", @progbits
