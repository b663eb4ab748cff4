/* SPDX-License-Identifier: GPL-2.0 */
/* fixup.c - the exception fixup table and the fault-safe byte accessors. */
#include <asm/fixup.h>

extern const struct x86_ex_entry __start___ex_table[], __stop___ex_table[];

/*
 * Follows the access at label 1: if it faults, the fixup at 3 sets the
 * first asm operand (%0) to -1 and resumes at 2, just after the access.
 */
#define EX_FIXUP_ERR						\
	"2:\n"							\
	"	.pushsection .fixup, \"ax\"\n"			\
	"3:	movl $-1, %0\n"					\
	"	jmp 2b\n"						\
	"	.popsection\n"						\
	"	.pushsection __ex_table, \"a\"\n"			\
	"	.balign 8\n"						\
	"	.quad 1b, 3b\n"					\
	"	.popsection\n"

/* Load one byte from @addr; returns 0, or -1 if the load faulted. */
static inline int probe_load_byte(u64 addr, u8 *out)
{
	int err = 0;
	u8 v = 0;

	__asm__ __volatile__(
		"1:	movb (%2), %1\n"
		EX_FIXUP_ERR
		: "+r"(err), "+q"(v) : "r"(addr) : "memory");
	*out = v;
	return err;
}

static inline int probe_store_byte(u64 addr, u8 v)
{
	int err = 0;

	__asm__ __volatile__(
		"1:	movb %1, (%2)\n"
		EX_FIXUP_ERR
		: "+r"(err) : "q"(v), "r"(addr) : "memory");
	return err;
}

size_t x86_probe_read(void *dst, u64 src, size_t len)
{
	u8 *d = dst;
	size_t i;

	for (i = 0; i < len; i++)
		if (probe_load_byte(src + i, &d[i]))
			break;
	return i;
}

size_t x86_probe_write(u64 dst, const void *src, size_t len)
{
	const u8 *s = src;
	size_t i;

	for (i = 0; i < len; i++)
		if (probe_store_byte(dst + i, s[i]))
			break;
	return i;
}

bool x86_fixup_exception(struct pt_regs *regs)
{
	for (const struct x86_ex_entry *e = __start___ex_table; e < __stop___ex_table; e++) {
		if (e->insn == regs->rip) {
			regs->rip = e->fixup;
			return true;
		}
	}
	return false;
}
