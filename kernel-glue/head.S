/* SPDX-License-Identifier: GPL-2.0 */
/*
 * head.S - the kernel's first instructions.  Entered from the loader in
 * long mode with its page tables, interrupts off, %rdi = boot-info record
 * (physical = identity-mapped).  Zeroes .bss, switches to the boot stack
 * and calls x86_64_start_kernel(bootinfo) (head64.c), which loads the
 * kernel's GDT and IDT, takes over the loader's debugger state and calls
 * start_kernel().  See include/ekdb/bootinfo.h.
 *
 * The jump window starts here (__jump_window_start = _start) and ends
 * right after the debugger's takeover in x86_64_start_kernel()
 * (__jump_window_end): no breakpoint can fire in it (no kernel IDT yet),
 * so every lifetime refuses one there (docs/debugging-early-boot.md).
 */
#define BOOT_STACK_SIZE 16384

	.section .text.head, "ax"
	.code64
	.globl _start
	.globl __jump_window_start
_start:
__jump_window_start:
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
	call	x86_64_start_kernel	/* does not return */
	ud2
	/* a function of known size: gdb names the outermost frame _start, not _text (same address) */
	.type	_start, @function
	.size	_start, . - _start

	.section .bss.boot_stack, "aw", @nobits
	.balign 16
	.globl boot_stack
boot_stack:
	.skip BOOT_STACK_SIZE
	.globl boot_stack_top
boot_stack_top:

/* Where the loader finds the jump window in kernel.elf (struct ekdb_kinfo). */
	.section .ekdb_kinfo, "a"
	.balign 8
	.globl ekdb_kinfo
ekdb_kinfo:
	.quad	0x4f464e494b424445	/* EKDB_KINFO_MAGIC, "EDBKINFO" */
	.quad	__jump_window_start
	.quad	__jump_window_end
	.quad	__ekdb_text_start
	.quad	__ekdb_text_end
