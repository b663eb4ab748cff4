/* SPDX-License-Identifier: GPL-2.0 */
/*
 * regs_table.c - the x86-64 register table in gdb's amd64 order.
 *
 * gdb numbers amd64 registers: rax rbx rcx rdx rsi rdi rbp rsp r8-r15 rip
 * eflags cs ss ds es fs gs st0-st7 fctrl fstat ftag fiseg fioff foseg fooff
 * fop (the org.gnu.gdb.i386.core feature, required), then xmm0-15 mxcsr
 * (org.gnu.gdb.i386.sse), then fs_base gs_base (org.gnu.gdb.i386.segments).
 * Our own features follow so gdb shows k_gs_base, cr*, efer and dr* by name.
 * The x87/SSE state is not saved by the debugger entry (the kernel runs
 * with -mgeneral-regs-only): those registers are "unavailable".
 *
 * gdb's target.xml is generated from this table at build time: the host
 * program arch/x86/tools/gen_tdesc.c links this file and prints the
 * document as a const array (arch/x86/tdesc.mk); arch/x86/tdesc.c serves it.
 * So this file must stay buildable for the host (no kernel-only calls).
 */
#include <asm/regs_table.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <ekdb/target.h>

#define OFF(f)		((s16)offsetof(struct arch_dbg_state, f))
#define GPR(n, t)	{ #n, 64, OFF(n), t, "general", X86_FEAT_CORE }
#define SEG(n)		{ #n, 32, OFF(n), "int32", "general", X86_FEAT_CORE }
#define ST(n)		{ "st" #n, 80, -1, "i387_ext", "float", X86_FEAT_CORE }
#define FPC(n)		{ #n, 32, -1, "int", "float", X86_FEAT_CORE }
#define XMM(n)		{ "xmm" #n, 128, -1, "vec128", "vector", X86_FEAT_SSE }
#define SYS(n, f)	{ #n, 64, OFF(n), "int", "system", f }

static const struct x86_reg_desc x86_regs[] = {
	GPR(rax, "int64"), GPR(rbx, "int64"), GPR(rcx, "int64"), GPR(rdx, "int64"),
	GPR(rsi, "int64"), GPR(rdi, "int64"), GPR(rbp, "data_ptr"), GPR(rsp, "data_ptr"),
	GPR(r8, "int64"), GPR(r9, "int64"), GPR(r10, "int64"), GPR(r11, "int64"),
	GPR(r12, "int64"), GPR(r13, "int64"), GPR(r14, "int64"), GPR(r15, "int64"),
	GPR(rip, "code_ptr"),
	{ "eflags", 32, OFF(eflags), "i386_eflags", "general", X86_FEAT_CORE },
	SEG(cs), SEG(ss), SEG(ds), SEG(es), SEG(fs), SEG(gs),
	ST(0), ST(1), ST(2), ST(3), ST(4), ST(5), ST(6), ST(7),
	FPC(fctrl), FPC(fstat), FPC(ftag), FPC(fiseg),
	FPC(fioff), FPC(foseg), FPC(fooff), FPC(fop),
	XMM(0), XMM(1), XMM(2), XMM(3), XMM(4), XMM(5), XMM(6), XMM(7),
	XMM(8), XMM(9), XMM(10), XMM(11), XMM(12), XMM(13), XMM(14), XMM(15),
	{ "mxcsr", 32, -1, "i386_mxcsr", "vector", X86_FEAT_SSE },
	{ "fs_base", 64, OFF(fs_base), "int", NULL, X86_FEAT_SEGMENTS },
	{ "gs_base", 64, OFF(gs_base), "int", NULL, X86_FEAT_SEGMENTS },
	SYS(k_gs_base, X86_FEAT_SYSTEM),
	SYS(cr0, X86_FEAT_SYSTEM), SYS(cr2, X86_FEAT_SYSTEM), SYS(cr3, X86_FEAT_SYSTEM),
	SYS(cr4, X86_FEAT_SYSTEM), SYS(cr8, X86_FEAT_SYSTEM), SYS(efer, X86_FEAT_SYSTEM),
	SYS(dr0, X86_FEAT_DEBUG), SYS(dr1, X86_FEAT_DEBUG), SYS(dr2, X86_FEAT_DEBUG),
	SYS(dr3, X86_FEAT_DEBUG), SYS(dr6, X86_FEAT_DEBUG), SYS(dr7, X86_FEAT_DEBUG),
};

_Static_assert(sizeof(struct arch_dbg_state) < 0x7fff, "offsets must fit s16");

void x86_reg_layout(struct ekdb_reg_layout *l)
{
	/* rdi rsi rdx rcx r8 r9: the SysV argument registers */
	static const unsigned args[] = { 5, 4, 3, 2, 8, 9 };
	unsigned i;

	l->g_count = X86_REG_G_COUNT;
	l->pc_regno = X86_REGNO_RIP;
	l->gprs = X86_REG_G_COUNT;		/* all of g: the caller may need eflags, cs.. */
	l->n_expedite = 3;
	l->expedite[0] = X86_REGNO_RBP;
	l->expedite[1] = X86_REGNO_RSP;
	l->expedite[2] = X86_REGNO_RIP;
	l->n_expedite_break = ARRAY_SIZE(args);
	for (i = 0; i < ARRAY_SIZE(args); i++)
		l->expedite_break[i] = args[i];
}

unsigned x86_reg_count(void)
{
	return ARRAY_SIZE(x86_regs);
}

const struct x86_reg_desc *x86_reg_desc(unsigned n)
{
	return n < ARRAY_SIZE(x86_regs) ? &x86_regs[n] : NULL;
}

int x86_reg_lookup(const char *name)
{
	unsigned n;
	size_t i;

	if (!name)
		return -EKDB_ENOENT;
	if (*name == '%')
		name++;
	for (n = 0; n < ARRAY_SIZE(x86_regs); n++) {
		const char *r = x86_regs[n].name;

		for (i = 0; r[i] && tolower((unsigned char)name[i]) == r[i]; i++)
			;
		if (!r[i] && !name[i])
			return (int)n;
	}
	return -EKDB_ENOENT;
}

int x86_reg_get(const struct arch_dbg_state *st, unsigned n, u8 *buf, size_t *size)
{
	const struct x86_reg_desc *d = x86_reg_desc(n);

	if (!d)
		return -EKDB_EINVAL;
	*size = d->bitsize / 8;
	if (d->offset < 0)
		return -EKDB_ENOENT;
	/* x86 is little-endian: a 32-bit register is the low half of its u64. */
	memcpy(buf, (const u8 *)st + d->offset, *size);
	return (int)*size;
}

int x86_reg_set(struct arch_dbg_state *st, unsigned n, const u8 *buf, size_t size)
{
	const struct x86_reg_desc *d = x86_reg_desc(n);
	u64 v = 0;

	if (!d || size != (size_t)d->bitsize / 8)
		return -EKDB_EINVAL;
	if (d->offset < 0)
		return -EKDB_EPERM;
	memcpy(&v, buf, size);
	memcpy((u8 *)st + d->offset, &v, sizeof(v));
	return 0;
}
