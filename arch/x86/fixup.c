/* SPDX-License-Identifier: GPL-2.0 */
/* fixup.c - the exception fixup table and the fault-safe byte accessors. */
#include <asm/fixup.h>
#include <ekdb/ekdb.h>

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

static size_t probe_read_raw(void *dst, u64 src, size_t len)
{
	u8 *d = dst;
	size_t i;

	for (i = 0; i < len; i++)
		if (probe_load_byte(src + i, &d[i]))
			break;
	return i;
}

static size_t probe_write_raw(u64 dst, const void *src, size_t len)
{
	const u8 *s = src;
	size_t i;

	for (i = 0; i < len; i++)
		if (probe_store_byte(dst + i, s[i]))
			break;
	return i;
}

/* The host's address translation (arch_dbg_probe_set_xlate), NULL: none. */
static arch_dbg_probe_xlate_fn probe_xlate;

void arch_dbg_probe_set_xlate(arch_dbg_probe_xlate_fn fn)
{
	probe_xlate = fn;
}

/*
 * Through the host's translation, one contiguous chunk at a time; stops at
 * the first byte that faults.
 */
static size_t probe_xlated(u64 addr, u8 *buf, size_t len, bool write)
{
	size_t done = 0;

	while (done < len) {
		size_t chunk, n;
		u64 a = probe_xlate(addr + done, len - done, &chunk);

		n = write ? probe_write_raw(a, buf + done, chunk) : probe_read_raw(buf + done, a, chunk);
		done += n;
		if (n < chunk)
			break;
	}
	return done;
}

size_t arch_dbg_probe_read(void *dst, u64 src, size_t len)
{
	if (probe_xlate)
		return probe_xlated(src, dst, len, false);
	return probe_read_raw(dst, src, len);
}

size_t arch_dbg_probe_write(u64 dst, const void *src, size_t len)
{
	if (probe_xlate)
		return probe_xlated(dst, (u8 *)src, len, true);
	return probe_write_raw(dst, src, len);
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

/* A fault in a fault-safe accessor, reported by a kernel that owns its fault path. */
bool ekdb_trap_fault(struct pt_regs *regs)
{
	return x86_fixup_exception(regs);
}
