/* SPDX-License-Identifier: GPL-2.0 */
/*
 * switch.S - the context switch and the first code of a new kernel thread.
 * The saved layout (struct inactive_task_frame, thread.sp/bp/ip) is
 * documented in include/kernel/sched.h.
 */
#include <kernel/sched.h>

	.text
	.code64

/*
 * struct task_struct *__switch_to_asm(prev = %rdi, next = %rsi)
 * Called by __schedule() with interrupts off and the run-queue lock held.
 * Saves the callee-saved registers on prev's stack, switches to next's
 * stack and returns there, in next's context, with %rax = prev.
 */
	.globl __switch_to_asm
	.type __switch_to_asm, @function
__switch_to_asm:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, TASK_THREAD_SP(%rdi)
	movq	%rbp, TASK_THREAD_BP(%rdi)	/* caller's frame: backtrace start */
	movq	48(%rsp), %rax			/* return address into the caller */
	movq	%rax, TASK_THREAD_IP(%rdi)

	movq	TASK_THREAD_SP(%rsi), %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	movq	%rdi, %rax
	ret
	.size __switch_to_asm, . - __switch_to_asm

/*
 * A new thread's first instructions: __switch_to_asm "returns" here with
 * %rax = the task switched away from, %rbx = fn, %r12 = arg, %rbp = 0
 * (ends backtraces) and %rsp 16-byte aligned.  Finish the switch (drops
 * the run-queue lock), enable interrupts, run fn(arg), then exit with
 * its return value.
 */
	.globl ret_from_kthread
	.type ret_from_kthread, @function
ret_from_kthread:
	movq	%rax, %rdi
	call	schedule_tail
	sti
	movq	%r12, %rdi
	call	*%rbx
	movl	%eax, %edi
	call	kthread_exit
1:	cli
	hlt
	jmp	1b
	.size ret_from_kthread, . - ret_from_kthread
