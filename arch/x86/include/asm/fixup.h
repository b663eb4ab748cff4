/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixup.h - fault-safe memory access through an exception fixup table.
 *
 * Every load or store done on behalf of a debugger user goes through
 * x86_probe_read()/x86_probe_write().  The instruction that touches the
 * user's address has an entry in the __ex_table section; if it faults
 * (#PF, #GP for a non-canonical address, #SS), x86_trap_dispatch() finds the
 * entry and resumes at the fixup, so a bad address becomes an error return,
 * never a crash.  Works from the first instruction (no allocator, no IDT
 * state other than the shared dispatcher).
 */
#ifndef ASM_X86_FIXUP_H
#define ASM_X86_FIXUP_H

#include <ekdb/types.h>
#include <asm/regs.h>

struct x86_ex_entry {
	u64 insn;	/* address of the instruction that may fault */
	u64 fixup;	/* where to resume if it does */
};

/**
 * x86_probe_read - copy @len bytes from kernel address @src.
 * Returns the number of bytes copied before the first fault (== @len when
 * all went well).
 */
size_t x86_probe_read(void *dst, u64 src, size_t len);

/**
 * x86_probe_write - copy @len bytes to kernel address @dst.
 * Returns the number of bytes written before the first fault.  Does not
 * lift write protection: callers that patch text use x86_text_poke().
 */
size_t x86_probe_write(u64 dst, const void *src, size_t len);

/* Called by x86_trap_dispatch: true when regs->rip was redirected. */
bool x86_fixup_exception(struct pt_regs *regs);

#endif
