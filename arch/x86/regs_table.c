/* SPDX-License-Identifier: GPL-2.0 */
/*
 * regs_table.c - the x86-64 register table in gdb's amd64 order and the
 * target description XML generated from it.
 *
 * gdb numbers amd64 registers: rax rbx rcx rdx rsi rdi rbp rsp r8-r15 rip
 * eflags cs ss ds es fs gs st0-st7 fctrl fstat ftag fiseg fioff foseg fooff
 * fop (the org.gnu.gdb.i386.core feature, required), then xmm0-15 mxcsr
 * (org.gnu.gdb.i386.sse), then fs_base gs_base (org.gnu.gdb.i386.segments).
 * Our own features follow so gdb shows k_gs_base, cr*, efer and dr* by name.
 * The x87/SSE state is not saved by the debugger entry (the kernel runs
 * with -mgeneral-regs-only): those registers are "unavailable".
 */
#include <asm/regs_table.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>

#define OFF(f)		((s16)offsetof(struct x86_cpu_state, f))
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

_Static_assert(sizeof(struct x86_cpu_state) < 0x7fff, "offsets must fit s16");

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

int x86_reg_get(const struct x86_cpu_state *st, unsigned n, u8 *buf, size_t *size)
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

int x86_reg_set(struct x86_cpu_state *st, unsigned n, const u8 *buf, size_t size)
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

/* ---- target description ---- */

static const char *const x86_feature_names[X86_FEAT_COUNT] = {
	[X86_FEAT_CORE] = "org.gnu.gdb.i386.core",
	[X86_FEAT_SSE] = "org.gnu.gdb.i386.sse",
	[X86_FEAT_SEGMENTS] = "org.gnu.gdb.i386.segments",
	[X86_FEAT_SYSTEM] = "org.ekdb.x86.system",
	[X86_FEAT_DEBUG] = "org.ekdb.x86.debug",
};

/* Types each feature defines before its registers (bit numbers from the SDM). */
static const char x86_core_types[] =
	"<flags id=\"i386_eflags\" size=\"4\">"
	"<field name=\"CF\" start=\"0\" end=\"0\"/>"
	"<field name=\"PF\" start=\"2\" end=\"2\"/>"
	"<field name=\"AF\" start=\"4\" end=\"4\"/>"
	"<field name=\"ZF\" start=\"6\" end=\"6\"/>"
	"<field name=\"SF\" start=\"7\" end=\"7\"/>"
	"<field name=\"TF\" start=\"8\" end=\"8\"/>"
	"<field name=\"IF\" start=\"9\" end=\"9\"/>"
	"<field name=\"DF\" start=\"10\" end=\"10\"/>"
	"<field name=\"OF\" start=\"11\" end=\"11\"/>"
	"<field name=\"NT\" start=\"14\" end=\"14\"/>"
	"<field name=\"RF\" start=\"16\" end=\"16\"/>"
	"<field name=\"VM\" start=\"17\" end=\"17\"/>"
	"<field name=\"AC\" start=\"18\" end=\"18\"/>"
	"<field name=\"VIF\" start=\"19\" end=\"19\"/>"
	"<field name=\"VIP\" start=\"20\" end=\"20\"/>"
	"<field name=\"ID\" start=\"21\" end=\"21\"/>"
	"</flags>\n";

static const char x86_sse_types[] =
	"<vector id=\"v4f\" type=\"ieee_single\" count=\"4\"/>"
	"<vector id=\"v2d\" type=\"ieee_double\" count=\"2\"/>"
	"<vector id=\"v16i8\" type=\"int8\" count=\"16\"/>"
	"<vector id=\"v8i16\" type=\"int16\" count=\"8\"/>"
	"<vector id=\"v4i32\" type=\"int32\" count=\"4\"/>"
	"<vector id=\"v2i64\" type=\"int64\" count=\"2\"/>"
	"<union id=\"vec128\">"
	"<field name=\"v4_float\" type=\"v4f\"/>"
	"<field name=\"v2_double\" type=\"v2d\"/>"
	"<field name=\"v16_int8\" type=\"v16i8\"/>"
	"<field name=\"v8_int16\" type=\"v8i16\"/>"
	"<field name=\"v4_int32\" type=\"v4i32\"/>"
	"<field name=\"v2_int64\" type=\"v2i64\"/>"
	"<field name=\"uint128\" type=\"uint128\"/>"
	"</union>"
	"<flags id=\"i386_mxcsr\" size=\"4\">"
	"<field name=\"IE\" start=\"0\" end=\"0\"/>"
	"<field name=\"DE\" start=\"1\" end=\"1\"/>"
	"<field name=\"ZE\" start=\"2\" end=\"2\"/>"
	"<field name=\"OE\" start=\"3\" end=\"3\"/>"
	"<field name=\"UE\" start=\"4\" end=\"4\"/>"
	"<field name=\"PE\" start=\"5\" end=\"5\"/>"
	"<field name=\"DAZ\" start=\"6\" end=\"6\"/>"
	"<field name=\"IM\" start=\"7\" end=\"7\"/>"
	"<field name=\"DM\" start=\"8\" end=\"8\"/>"
	"<field name=\"ZM\" start=\"9\" end=\"9\"/>"
	"<field name=\"OM\" start=\"10\" end=\"10\"/>"
	"<field name=\"UM\" start=\"11\" end=\"11\"/>"
	"<field name=\"PM\" start=\"12\" end=\"12\"/>"
	"<field name=\"FZ\" start=\"15\" end=\"15\"/>"
	"</flags>\n";

/* Room for the whole document; x86_features_xml() fails loudly if it grows past this. */
#define X86_TDESC_MAX	8192	/* the generated target.xml is ~7.3 KiB; overflow makes qXfer fail, raise it then */

struct xml_buf {
	char *p;
	size_t len, cap;
	bool overflow;
};

static void xml_put(struct xml_buf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->len + n >= b->cap) {
		b->overflow = true;
		return;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void xml_put_uint(struct xml_buf *b, unsigned v)
{
	char d[12];
	int i = (int)sizeof(d) - 1;

	d[i] = '\0';
	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	xml_put(b, &d[i]);
}

static void xml_reg(struct xml_buf *b, const struct x86_reg_desc *d, unsigned n)
{
	xml_put(b, "<reg name=\"");
	xml_put(b, d->name);
	xml_put(b, "\" bitsize=\"");
	xml_put_uint(b, d->bitsize);
	xml_put(b, "\" type=\"");
	xml_put(b, d->type);
	xml_put(b, "\" regnum=\"");
	xml_put_uint(b, n);
	if (d->group) {
		xml_put(b, "\" group=\"");
		xml_put(b, d->group);
	}
	xml_put(b, "\"/>\n");
}

static void xml_build(struct xml_buf *b)
{
	unsigned f, n;

	xml_put(b, "<?xml version=\"1.0\"?>\n"
		   "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
		   "<target version=\"1.0\">\n"
		   "<architecture>i386:x86-64</architecture>\n");
	for (f = 0; f < X86_FEAT_COUNT; f++) {
		xml_put(b, "<feature name=\"");
		xml_put(b, x86_feature_names[f]);
		xml_put(b, "\">\n");
		if (f == X86_FEAT_CORE)
			xml_put(b, x86_core_types);
		if (f == X86_FEAT_SSE)
			xml_put(b, x86_sse_types);
		for (n = 0; n < ARRAY_SIZE(x86_regs); n++)
			if (x86_regs[n].feature == f)
				xml_reg(b, &x86_regs[n], n);
		xml_put(b, "</feature>\n");
	}
	xml_put(b, "</target>\n");
}

const char *x86_features_xml(const char *annex, size_t *len)
{
	static char doc[X86_TDESC_MAX];
	static size_t doc_len;
	struct xml_buf b = { doc, 0, sizeof(doc), false };

	if (!annex || strcmp(annex, "target.xml"))
		return NULL;
	if (!doc_len) {
		xml_build(&b);
		if (b.overflow)
			return NULL;	/* raise X86_TDESC_MAX */
		doc_len = b.len;
	}
	*len = doc_len;
	return doc;
}
