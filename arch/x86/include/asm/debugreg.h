/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugreg.h - x86 debug registers DR0-DR3, DR6, DR7 (Intel SDM vol. 3,
 * 17.2): encoding a slot into DR7 and decoding DR6 on a #DB.  Programmed
 * directly: no allocator, no perf-style layer, usable from early boot.
 */
#ifndef ASM_X86_DEBUGREG_H
#define ASM_X86_DEBUGREG_H

#include <ekdb/types.h>

#define X86_HW_SLOTS	4

/* DR7 R/W field values */
#define DR_RW_EXEC	0x0
#define DR_RW_WRITE	0x1
#define DR_RW_IO	0x2
#define DR_RW_ACCESS	0x3	/* read or write (x86 has no read-only watch) */

/* DR6 bits */
#define DR6_B0		0x1	/* B0..B3: slot n condition met */
#define DR6_BD		(1UL << 13)
#define DR6_BS		(1UL << 14)	/* single step */
#define DR6_RESERVED	0xffff0ff0UL	/* reads as 1s */
#define DR7_GE		(1UL << 9)
#define DR7_RESERVED1	(1UL << 10)

/* A DR0-DR3 address must be canonical (48-bit: bits 63..47 all equal). */
static inline bool x86_addr_canonical(u64 addr)
{
	return (u64)((s64)(addr << 16) >> 16) == addr;
}

u64 x86_get_dr(unsigned n);		/* n = 0..3, 6, 7 */
void x86_set_dr(unsigned n, u64 v);

/*
 * x86_dr7_slot - DR7 bits enabling slot @slot (global enable) for @rw
 * (DR_RW_*) and @len bytes (1, 2, 4, 8).  Pure.
 */
u64 x86_dr7_slot(unsigned slot, unsigned rw, unsigned len);
/* x86_dr7_slot_mask - the DR7 bits that belong to @slot. */
u64 x86_dr7_slot_mask(unsigned slot);

/*
 * x86_dr6_hit_slot - the slot whose condition DR6 reports met (B0-B3; the
 * lowest when several are), or -1 for none.  Pure.
 */
int x86_dr6_hit_slot(u64 dr6);
/* x86_dr6_single_step - does DR6 report a completed TF step (BS)?  Pure. */
bool x86_dr6_single_step(u64 dr6);

#endif
