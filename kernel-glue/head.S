/* SPDX-License-Identifier: GPL-2.0 */
/*
 * head.S - the kernel's first instructions.  Entered from the loader in
 * long mode with its page tables, interrupts off, %rdi = boot-info record
 * (physical = identity-mapped).  Zeroes .bss, switches to the boot stack
 * and calls start_kernel(bootinfo).  See include/ekdb/bootinfo.h.
 */
#define BOOT_STACK_SIZE 16384

	.section .text.entry, "ax"
	.code64
	.globl _start
_start:
	cli
	cld
	movq	%rdi, %r12
	/* zero .bss (the loader does too; do not rely on it) */
	leaq	__bss_start(%rip), %rdi
	leaq	__bss_end(%rip), %rcx
	subq	%rdi, %rcx
	xorl	%eax, %eax
	rep stosb
	leaq	boot_stack_top(%rip), %rsp
	xorl	%ebp, %ebp
	pushq	$0			/* fake return address: ends backtraces */
	movq	%r12, %rdi
	call	start_kernel
1:	cli
	hlt
	jmp	1b

	.section .bss.boot_stack, "aw", @nobits
	.balign 16
	.globl boot_stack
boot_stack:
	.skip BOOT_STACK_SIZE
	.globl boot_stack_top
boot_stack_top:
