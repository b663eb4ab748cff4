/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_tdesc.c - the x86 register table (arch/x86/regs_table.c) and the
 * target description generated from it at build time (arch/x86/tdesc.mk):
 * register access by gdb number, a well-formed target.xml listing every
 * register of the table, and the annexes that are refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <ekdb/errno.h>
#include <ekdb/types.h>
#include <ekdb/gdbstub.h>		/* GDB_MIN_BUFSIZE: a 'g' reply must fit */
#include <asm/regs_table.h>

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

static void test_regs_table(void **state)
{
	static const char *const names[] = {
		"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10",
		"r11", "r12", "r13", "r14", "r15", "rip", "eflags", "cs", "ss", "ds", "es",
		"fs", "gs", "st0", "st7", "fctrl", "fop", "xmm0", "xmm15", "mxcsr",
		"fs_base", "gs_base", "k_gs_base", "cr0", "cr2", "cr3", "cr4", "cr8",
		"efer", "dr0", "dr1", "dr2", "dr3", "dr6", "dr7",
	};
	struct arch_dbg_state st;
	const char *xml;
	size_t len, i, total = 0, sz;
	u8 buf[X86_REG_MAX_BYTES];
	char want[64];

	assert_int_equal(x86_reg_count(), 72);
	assert_null(x86_reg_desc(72));
	assert_int_equal(x86_reg_lookup("rax"), 0);
	assert_int_equal(x86_reg_lookup("%RAX"), 0);
	assert_int_equal(x86_reg_lookup("rip"), X86_REGNO_RIP);
	assert_int_equal(x86_reg_lookup("rsp"), X86_REGNO_RSP);
	assert_int_equal(x86_reg_lookup("eflags"), X86_REGNO_EFLAGS);
	assert_int_equal(x86_reg_lookup("st0"), 24);
	assert_int_equal(x86_reg_lookup("xmm0"), 40);
	assert_int_equal(x86_reg_lookup("fs_base"), 57);
	assert_int_equal(x86_reg_lookup("cr3"), 62);
	assert_int_equal(x86_reg_lookup("dr7"), 71);
	assert_int_equal(x86_reg_lookup("ra"), -EKDB_ENOENT);
	assert_int_equal(x86_reg_lookup("raxx"), -EKDB_ENOENT);
	assert_int_equal(x86_reg_lookup("%%rax"), -EKDB_ENOENT);
	assert_int_equal(x86_reg_lookup(""), -EKDB_ENOENT);
	assert_int_equal(x86_reg_lookup(NULL), -EKDB_ENOENT);

	xml = x86_features_xml("target.xml", &len);
	assert_non_null(xml);
	assert_int_equal(strlen(xml), len);
	assert_null(x86_features_xml("other.xml", &len));
	assert_null(x86_features_xml(NULL, &len));
	assert_int_equal(count(xml, "<reg "), 72);
	assert_int_equal(count(xml, "<feature "), count(xml, "</feature>"));
	assert_int_equal(count(xml, "<flags "), count(xml, "</flags>"));
	assert_int_equal(count(xml, "<union "), count(xml, "</union>"));
	assert_int_equal(count(xml, "<"), count(xml, ">"));
	assert_int_equal(count(xml, "\"") % 2, 0);
	assert_non_null(strstr(xml, "org.gnu.gdb.i386.core"));
	assert_non_null(strstr(xml, "org.gnu.gdb.i386.segments"));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(want, sizeof(want), "<reg name=\"%s\"", names[i]);
		if (!strstr(xml, want))
			fail_msg("register %s missing from target.xml", names[i]);
		assert_true(x86_reg_lookup(names[i]) >= 0);
	}
	for (i = 0; i < x86_reg_count(); i++) {
		const struct x86_reg_desc *d = x86_reg_desc((unsigned)i);

		assert_true(d->bitsize / 8 <= X86_REG_MAX_BYTES);
		assert_true(d->offset < 0 || (size_t)d->offset + 8 <= sizeof(st));
		total += d->bitsize / 8;
	}
	assert_true(2 * total < GDB_MIN_BUFSIZE);

	memset(&st, 0, sizeof(st));
	st.eflags = 0xffffffff00000246ull;
	assert_int_equal(x86_reg_get(&st, X86_REGNO_EFLAGS, buf, &sz), 4);
	assert_int_equal(sz, 4);
	assert_memory_equal(buf, "\x46\x02\0\0", 4);
	assert_int_equal(x86_reg_set(&st, X86_REGNO_EFLAGS, (const u8 *)"\x02\0\0\0", 4), 0);
	assert_int_equal(st.eflags, 2);		/* zero-extended */
	assert_int_equal(x86_reg_set(&st, X86_REGNO_EFLAGS, buf, 8), -EKDB_EINVAL);
	assert_int_equal(x86_reg_get(&st, 24, buf, &sz), -EKDB_ENOENT);
	assert_int_equal(sz, 10);
	assert_int_equal(x86_reg_set(&st, 24, buf, 10), -EKDB_EPERM);
	assert_int_equal(x86_reg_get(&st, 72, buf, &sz), -EKDB_EINVAL);
	assert_int_equal(x86_reg_set(&st, 72, buf, 8), -EKDB_EINVAL);
	st.cr3 = 0x1234000;
	assert_int_equal(x86_reg_get(&st, 62, buf, &sz), 8);
	assert_memory_equal(buf, "\x00\x40\x23\x01\0\0\0\0", 8);
}

/*
 * xml_check - is @doc (@len bytes) a well-formed gdb target description?
 * The prolog gdb expects, then one <target> element; every element closed
 * by its own name, attributes name="value" (no '<', '&' in values), no
 * text outside the root, no NUL inside and one after.  NULL if so, else
 * what is wrong.  (A checker for the subset of XML the stub serves.)
 */
static const char *xml_check(const char *doc, size_t len)
{
	static const char prolog[] = "<?xml version=\"1.0\"?>";
	const char *stack[8], *p = doc, *end = doc + len;
	size_t slen[8], depth = 0, n;
	bool root_done = false;

	if (strlen(doc) != len)
		return "NUL inside the document or length wrong";
	if (strncmp(doc, prolog, sizeof(prolog) - 1))
		return "prolog";
	p += sizeof(prolog) - 1;
	while (p < end) {
		if (*p != '<') {
			if (*p == '&' || *p == '>')
				return "stray '&' or '>' in text";
			if (!depth && !strchr(" \n\t", *p))
				return "text outside the root element";
			p++;
			continue;
		}
		if (p[1] == '/') {
			p += 2;
			n = strspn(p, "abcdefghijklmnopqrstuvwxyz_");
			if (!depth || n != slen[depth - 1] || strncmp(p, stack[depth - 1], n) ||
			    p[n] != '>')
				return "closing tag does not match";
			p += n + 1;
			if (!--depth)
				root_done = true;
			continue;
		}
		if (root_done)
			return "second root element";
		p++;
		n = strspn(p, "abcdefghijklmnopqrstuvwxyz_");
		if (!n)
			return "element without a name";
		if (!depth && (n != 6 || strncmp(p, "target", 6)))
			return "root is not <target>";
		if (depth == sizeof(stack) / sizeof(stack[0]))
			return "nested too deep";
		stack[depth] = p;
		slen[depth] = n;
		p += n;
		for (;;) {
			size_t sp = strspn(p, " "), an;

			p += sp;
			if (*p == '>' || (p[0] == '/' && p[1] == '>'))
				break;
			an = strspn(p, "abcdefghijklmnopqrstuvwxyz_");
			if (!sp || !an || p[an] != '=' || p[an + 1] != '"')
				return "malformed attribute";
			p += an + 2;
			while (*p && *p != '"') {
				if (*p == '<' || *p == '&' || *p == '\n')
					return "bad character in attribute value";
				p++;
			}
			if (*p++ != '"')
				return "unterminated attribute value";
		}
		if (*p == '>') {
			depth++;
			p++;
		} else {
			p += 2;
			if (!depth)
				root_done = true;
		}
	}
	if (depth)
		return "unclosed element";
	if (!root_done)
		return "no root element";
	return NULL;
}

/* The features in document order, as gdb knows them (enum x86_reg_feature). */
static const char *const tdesc_features[X86_FEAT_COUNT] = {
	"org.gnu.gdb.i386.core", "org.gnu.gdb.i386.sse", "org.gnu.gdb.i386.segments",
	"org.ekdb.x86.system", "org.ekdb.x86.debug",
};

/*
 * The generated target.xml against the register table: well-formed, every
 * register with its name, bitsize, type and group as gdb will read them, inside its own
 * feature, in regnum order and nothing else; any other annex is NULL.
 */
static void test_target_xml(void **state)
{
	static const char *const bad_annex[] = {
		"", "other.xml", "target.xm", "target.xmlx", "TARGET.XML", " target.xml",
		"target.xml ", "i386-64bit.xml", "target", "/target.xml",
	};
	static const char *const bad_docs[] = {
		"<target version=\"1.0\"></target>\n",			/* no prolog */
		"<a/>",							/* no prolog */
	};
	static const char *const bad_bodies[] = {
		"<target version=\"1.0\"><feature name=\"x\"></target>\n",	/* unclosed */
		"<target version=\"1.0\"></feature></target>\n",		/* wrong close */
		"<target version=1.0></target>\n",				/* unquoted */
		"<target version=\"1.0\"/>\n<target/>\n",			/* two roots */
		"<feature name=\"x\"/>\n",					/* root */
		"<target version=\"1.0\"/>\njunk\n",				/* trailing */
		"<target version=\"1.0\"><reg name=\"a<b\"/></target>\n",	/* '<' in value */
		"<target version=\"1.0\"><reg name=\"a\"></target>\n",	/* unclosed reg */
		"",								/* no root */
	};
	const char *xml, *why, *p;
	char want[160], doc[512];
	size_t len, i, n;
	long prev = -1;

	xml = x86_features_xml("target.xml", &len);
	assert_non_null(xml);
	why = xml_check(xml, len);
	if (why)
		fail_msg("target.xml not well-formed: %s", why);
	assert_int_equal(xml[len], '\0');
	assert_int_equal(xml[len - 1], '\n');
	/* gdb reads it on every attach: no line breaks, no DOCTYPE (it was
	 * 7285 bytes with them and every attribute spelt out) */
	assert_int_equal(count(xml, "\n"), 1);
	assert_null(strstr(xml, "DOCTYPE"));
	assert_true(len <= 5200);

	/* the checker itself rejects broken documents */
	for (i = 0; i < sizeof(bad_docs) / sizeof(bad_docs[0]); i++)
		assert_non_null(xml_check(bad_docs[i], strlen(bad_docs[i])));
	for (i = 0; i < sizeof(bad_bodies) / sizeof(bad_bodies[0]); i++) {
		snprintf(doc, sizeof(doc), "<?xml version=\"1.0\"?>%s", bad_bodies[i]);
		if (!xml_check(doc, strlen(doc)))
			fail_msg("checker accepted bad document %zu", i);
	}
	snprintf(doc, sizeof(doc), "<?xml version=\"1.0\"?><target version=\"1.0\"/>\n");
	assert_null(xml_check(doc, strlen(doc)));

	/* every register of the table, exactly as described, in its feature */
	assert_int_equal(count(xml, "<reg "), x86_reg_count());
	assert_int_equal(count(xml, "<feature "), X86_FEAT_COUNT);
	assert_non_null(strstr(xml, "<architecture>i386:x86-64</architecture>"));
	for (i = 0; i < x86_reg_count(); i++) {
		const struct x86_reg_desc *d = x86_reg_desc((unsigned)i);
		const char *feat, *feat_end;

		/* only what gdb cannot infer: type unless "int", no regnum (the
		 * numbers follow document order), group where gdb's i386 code
		 * does not file the register itself */
		snprintf(want, sizeof(want), "<reg name=\"%s\" bitsize=\"%u\"%s%s%s%s%s%s/>",
			 d->name, d->bitsize, strcmp(d->type, "int") ? " type=\"" : "",
			 strcmp(d->type, "int") ? d->type : "", strcmp(d->type, "int") ? "\"" : "",
			 d->group && d->feature > X86_FEAT_SSE ? " group=\"" : "",
			 d->group && d->feature > X86_FEAT_SSE ? d->group : "",
			 d->group && d->feature > X86_FEAT_SSE ? "\"" : "");
		p = strstr(xml, want);
		if (!p)
			fail_msg("register %zu (%s) missing or wrong in target.xml: %s", i, d->name, want);
		assert_int_equal(count(xml, want), 1);
		assert_true(d->feature < X86_FEAT_COUNT);
		snprintf(want, sizeof(want), "<feature name=\"%s\">", tdesc_features[d->feature]);
		feat = strstr(xml, want);
		assert_non_null(feat);
		feat_end = strstr(feat, "</feature>");
		if (!(feat < p && p < feat_end))
			fail_msg("register %s outside feature %s", d->name, tdesc_features[d->feature]);
	}
	/* the numbers gdb gives in document order (an explicit regnum, else the
	 * previous one plus one) are the table's: 0, 1, 2, ... */
	for (p = xml, n = 0; (p = strstr(p, "<reg ")); p++, n++) {
		const char *close = strstr(p, "/>"), *rn = strstr(p, " regnum=\"");
		long r = rn && rn < close ? strtol(rn + 9, NULL, 10) : prev + 1;
		const char *name = x86_reg_desc((unsigned)n)->name;

		assert_int_equal(r, (long)n);
		assert_int_equal(strncmp(p + 11, name, strlen(name)), 0);
		assert_int_equal(p[11 + strlen(name)], '"');
		prev = r;
	}
	assert_int_equal(n, x86_reg_count());
	/* features in enum order */
	for (i = 1; i < X86_FEAT_COUNT; i++)
		assert_true(strstr(xml, tdesc_features[i - 1]) < strstr(xml, tdesc_features[i]));

	/* wrong annexes: NULL, *len untouched */
	for (i = 0; i < sizeof(bad_annex) / sizeof(bad_annex[0]); i++) {
		len = 12345;
		assert_null(x86_features_xml(bad_annex[i], &len));
		assert_int_equal(len, 12345);
	}
	len = 12345;
	assert_null(x86_features_xml(NULL, &len));
	assert_int_equal(len, 12345);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regs_table),
		cmocka_unit_test(test_target_xml),
	};

	return cmocka_run_group_tests_name("tdesc", tests, NULL, NULL);
}
