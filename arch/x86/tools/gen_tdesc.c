/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gen_tdesc.c - build-time generator of gdb's target description.
 *
 * A host program (arch/x86/tdesc.mk) linked with arch/x86/regs_table.c,
 * the very table the kernel uses for g/G/p/P and kdb rd/rm.  It writes the
 * complete target.xml as a C file: const char x86_tdesc_xml[] (.rodata),
 * compiled into the kernel and into the host builds; arch/x86/tdesc.c
 * serves it.  Linking the real table (rather than describing the registers
 * again in a data file) leaves one source of truth and nothing to keep in
 * sync: a register added to x86_regs[] appears in target.xml on the next
 * build.  What only the document needs (feature names, the eflags/mxcsr
 * flag types, the vec128 union) lives here, not in the kernel.
 *
 * Usage: gen_tdesc > x86_tdesc.c.  Exits 1 (and writes nothing useful) if
 * the table is inconsistent: a feature out of range, a missing name or
 * type, a bit size gdb cannot take.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <asm/regs_table.h>

static const char *const feature_names[X86_FEAT_COUNT] = {
	[X86_FEAT_CORE] = "org.gnu.gdb.i386.core",
	[X86_FEAT_SSE] = "org.gnu.gdb.i386.sse",
	[X86_FEAT_SEGMENTS] = "org.gnu.gdb.i386.segments",
	[X86_FEAT_SYSTEM] = "org.ekdb.x86.system",
	[X86_FEAT_DEBUG] = "org.ekdb.x86.debug",
};

/* Types each feature defines before its registers (bit numbers from the SDM). */
static const char core_types[] =
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
	"</flags>";

static const char sse_types[] =
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
	"</flags>";

/* The document, built in memory, then printed as C (emit()). */
static char *doc;
static size_t doc_len, doc_cap;

static void put(const char *s)
{
	size_t n = strlen(s);

	if (doc_len + n + 1 > doc_cap) {
		doc_cap = (doc_len + n + 1) * 2;
		doc = realloc(doc, doc_cap);
		if (!doc) {
			perror("gen_tdesc");
			exit(1);
		}
	}
	memcpy(doc + doc_len, s, n + 1);
	doc_len += n;
}

static void put_uint(unsigned v)
{
	char d[16];

	snprintf(d, sizeof(d), "%u", v);
	put(d);
}

static int check_reg(const struct x86_reg_desc *d, unsigned n)
{
	if (!d || !d->name || !*d->name || !d->type || !*d->type ||
	    d->feature >= X86_FEAT_COUNT ||
	    (d->bitsize != 32 && d->bitsize != 64 && d->bitsize != 80 && d->bitsize != 128)) {
		fprintf(stderr, "gen_tdesc: register %u of x86_regs[] is malformed\n", n);
		return -1;
	}
	return 0;
}

/*
 * One register, saying only what gdb cannot infer: the number when it is
 * not the previous one's plus one, the type unless it is "int" (the
 * default: an integer of the register's size), the group where gdb's
 * i386 code does not know the register.
 */
static void put_reg(const struct x86_reg_desc *d, unsigned n, unsigned *next)
{
	put("<reg name=\"");
	put(d->name);
	put("\" bitsize=\"");
	put_uint(d->bitsize);
	if (strcmp(d->type, "int")) {
		put("\" type=\"");
		put(d->type);
	}
	if (n != *next) {
		put("\" regnum=\"");
		put_uint(n);
	}
	/* gdb's i386 code files the core and SSE registers in their groups
	 * itself (its own 64bit-core.xml names none); ours it cannot know */
	if (d->group && d->feature != X86_FEAT_CORE && d->feature != X86_FEAT_SSE) {
		put("\" group=\"");
		put(d->group);
	}
	put("\"/>");
	*next = n + 1;
}

/*
 * The document gdb reads on every attach, so as short as the format
 * allows (it is most of an attach's bytes): no line breaks, no DOCTYPE
 * (gdb does not need one), no attribute that repeats a default.
 */
static int build(void)
{
	unsigned f, n, next = 0, count = x86_reg_count();

	for (n = 0; n < count; n++)
		if (check_reg(x86_reg_desc(n), n))
			return -1;
	put("<?xml version=\"1.0\"?>"
	    "<target version=\"1.0\">"
	    "<architecture>i386:x86-64</architecture>");
	for (f = 0; f < X86_FEAT_COUNT; f++) {
		put("<feature name=\"");
		put(feature_names[f]);
		put("\">");
		if (f == X86_FEAT_CORE)
			put(core_types);
		if (f == X86_FEAT_SSE)
			put(sse_types);
		for (n = 0; n < count; n++)
			if (x86_reg_desc(n)->feature == f)
				put_reg(x86_reg_desc(n), n, &next);
		put("</feature>");
	}
	put("</target>\n");
	return 0;
}

/* The document as C string literals, one per line of XML. */
static void emit(void)
{
	size_t i;
	int open = 0;

	printf("/* Generated by arch/x86/tools/gen_tdesc.c from x86_regs[]"
	       " (arch/x86/regs_table.c): do not edit. */\n"
	       "#include <asm/regs_table.h>\n\n"
	       "const char x86_tdesc_xml[] =");
	for (i = 0; i < doc_len; i++) {
		unsigned char c = (unsigned char)doc[i];

		if (!open) {
			printf("\n\t\"");
			open = 1;
		}
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			printf("\\n\"");
		else if (c >= 0x20 && c < 0x7f)
			putchar(c);
		else
			printf("\\%03o", c);
		if (c == '\n')
			open = 0;
	}
	if (open)
		putchar('"');
	printf(";\n\nconst size_t x86_tdesc_xml_len = sizeof(x86_tdesc_xml) - 1;\n");
}

int main(void)
{
	if (build())
		return 1;
	emit();
	if (fflush(stdout) || ferror(stdout)) {
		perror("gen_tdesc");
		return 1;
	}
	return 0;
}
