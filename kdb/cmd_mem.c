/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_mem.c - memory commands: md (and its mdW / mdWcN forms), mdr
 * (raw bytes), mds (one word per line with the symbol it points to),
 * mdp (physical), mm (modify).  Every access goes through the target's
 * fault-safe ops; an unmapped address prints "Bad address" and stops.
 * Enter on an empty line continues the last dump.
 */
#include "kdb.h"

#define MD_BYTES_PER_LINE	16

static u64 get_word(const u8 *p, int bpw)
{
	u64 v = 0;

	for (int i = 0; i < bpw; i++)
		v |= (u64)p[i] << (8 * i);
	return v;
}

static long md_read(struct kdb_session *s, u64 addr, u8 *buf, size_t len)
{
	const struct ekdb_target_ops *o = s->target->ops;

	if (s->md_phys)
		return o->phys_read ? o->phys_read(s->target, addr, buf, len) : -EKDB_ENOSYS;
	return o->mem_read(s->target, addr, buf, len);
}

static void print_word(struct kdb_session *s, u64 v, int bpw)
{
	int w = bpw * 2;

	switch (s->md_radix) {
	case 10: kdb_printf(s, "%*llu ", bpw == 8 ? 20 : w + 1, (unsigned long long)v); break;
	case 8: kdb_printf(s, "%*llo ", bpw * 3, (unsigned long long)v); break;
	default: kdb_printf(s, "%0*llx ", w, (unsigned long long)v); break;
	}
}

/* One md line at @addr; false when nothing could be read. */
static bool md_line(struct kdb_session *s, u64 addr)
{
	u8 buf[MD_BYTES_PER_LINE];
	int bpw = s->md_bpw, i;
	long n = md_read(s, addr, buf, sizeof(buf));
	char ascii[MD_BYTES_PER_LINE + 1];

	if (n < bpw) {
		kdb_printf(s, "kdb_getarea: Bad address 0x%llx\n", (unsigned long long)addr);
		return false;
	}
	n -= n % bpw;
	if (s->md_sym) {
		u64 v = get_word(buf, 8);
		char sym[96];

		kdb_printf(s, "0x%016llx %016llx", (unsigned long long)addr, (unsigned long long)v);
		if (kdb_sym_fmt(s, v, sym, sizeof(sym)))
			kdb_printf(s, " %s", sym);
		kdb_printf(s, "\n");
		return true;
	}
	kdb_printf(s, "0x%016llx ", (unsigned long long)addr);
	for (i = 0; i < MD_BYTES_PER_LINE; i += bpw) {
		if (i < n)
			print_word(s, get_word(buf + i, bpw), bpw);
		else
			kdb_printf(s, "%*s ", bpw * 2, "");
	}
	for (i = 0; i < MD_BYTES_PER_LINE; i++)
		ascii[i] = i < n ? (isprint(buf[i]) ? (char)buf[i] : '.') : ' ';
	ascii[MD_BYTES_PER_LINE] = 0;
	kdb_printf(s, " %s\n", ascii);
	if (n < MD_BYTES_PER_LINE) {
		kdb_printf(s, "kdb_getarea: Bad address 0x%llx\n", (unsigned long long)(addr + (u64)n));
		return false;
	}
	return true;
}

static int md_raw(struct kdb_session *s, u64 addr, u64 count)
{
	u8 buf[32];

	if (count > 4096)
		return -KDB_BADLENGTH;
	while (count && !kdb_interrupted(s)) {
		long n = s->target->ops->mem_read(s->target, addr, buf, MIN(count, sizeof(buf)));

		if (n <= 0) {
			kdb_printf(s, "\nkdb_getarea: Bad address 0x%llx\n", (unsigned long long)addr);
			return 0;
		}
		for (long i = 0; i < n; i++)
			kdb_printf(s, "%02x", buf[i]);
		addr += (u64)n;
		count -= (u64)n;
	}
	kdb_printf(s, "\n");
	return 0;
}

/* Width and count from "md", "md4", "md8c3"; false: not an md form. */
static void md_form(struct kdb_session *s, const char *name, long *lines)
{
	long bpw = kdb_getenv_int(s, "BYTESPERWORD", 8);

	*lines = kdb_getenv_int(s, "MDCOUNT", 8);
	s->md_sym = !strcmp(name, "mds");
	s->md_phys = !strcmp(name, "mdp");
	if (name[2] >= '1' && name[2] <= '8') {
		bpw = name[2] - '0';
		if (name[3] == 'c') {
			u64 words = 0;

			kdb_getularg(name + 4, &words);
			*lines = (long)((words * (u64)bpw + MD_BYTES_PER_LINE - 1) / MD_BYTES_PER_LINE);
		}
	}
	if (s->md_sym)
		bpw = 8;
	s->md_bpw = (bpw == 1 || bpw == 2 || bpw == 4 || bpw == 8) ? (int)bpw : 8;
}

/**
 * kdb_cmd_md - md/mdW/mdWcN [vaddr [lines [radix]]], mds vaddr [lines],
 * mdp paddr bytes, mdr vaddr bytes.  No arguments: continue the last dump.
 */
int kdb_cmd_md(struct kdb_session *s, int argc, const char **argv)
{
	int next = 1, r;
	long lines;
	u64 addr, v;

	if (!strcmp(argv[0], "mdr")) {
		if (argc != 2)
			return -KDB_ARGCOUNT;
		r = kdb_getaddrarg(s, argc, argv, &next, &addr);
		if (r)
			return r;
		if (next != 2 || kdb_getularg(argv[2], &v))
			return next != 2 ? -KDB_ARGCOUNT : -KDB_BADINT;
		return md_raw(s, addr, v);
	}
	if (argc == 0) {
		if (!s->md_valid)
			return -KDB_ARGCOUNT;
		addr = s->md_next;
		lines = s->md_lines;
		goto dump;
	}
	md_form(s, argv[0], &lines);
	s->md_radix = (int)kdb_getenv_int(s, "RADIX", 16);
	r = kdb_getaddrarg(s, argc, argv, &next, &addr);
	if (r)
		return r;
	if (s->md_phys) {
		if (next > argc)
			return -KDB_ARGCOUNT;
		if (kdb_getularg(argv[next], &v))
			return -KDB_BADINT;
		lines = (long)((v + MD_BYTES_PER_LINE - 1) / MD_BYTES_PER_LINE);
		next++;
	} else if (next <= argc) {
		if (kdb_getularg(argv[next], &v))
			return -KDB_BADINT;
		lines = (long)v;
		next++;
		if (next <= argc) {
			if (kdb_getularg(argv[next], &v) || (v != 8 && v != 10 && v != 16))
				return -KDB_BADRADIX;
			s->md_radix = (int)v;
			next++;
		}
	}
	if (next <= argc)
		return -KDB_TOOMANYARGS;
	if (s->md_radix != 8 && s->md_radix != 10)
		s->md_radix = 16;
	if (lines <= 0 || lines > 4096)
		return -KDB_BADLENGTH;
	addr &= ~(u64)(s->md_bpw - 1);
	s->md_valid = true;
	s->md_lines = (int)lines;
dump:
	for (long i = 0; i < lines && !kdb_interrupted(s); i++) {
		if (!md_line(s, addr))
			break;
		addr += s->md_sym ? 8 : MD_BYTES_PER_LINE;
	}
	s->md_next = addr;
	return 0;
}

/**
 * kdb_cmd_mm - mm vaddr contents: write one BYTESPERWORD-sized word and
 * print "0xADDR = 0xNEW" read back from memory.
 */
int kdb_cmd_mm(struct kdb_session *s, int argc, const char **argv)
{
	const struct ekdb_target_ops *o = s->target->ops;
	long bpw = kdb_getenv_int(s, "BYTESPERWORD", 8);
	int next = 1, r;
	u64 addr, v, back = 0;
	u8 buf[8];

	if (argc < 2)
		return -KDB_ARGCOUNT;
	r = kdb_getaddrarg(s, argc, argv, &next, &addr);
	if (r)
		return r;
	if (next != argc)
		return -KDB_ARGCOUNT;
	r = kdb_getaddrarg(s, argc, argv, &next, &v);
	if (r)
		return r;
	if (bpw != 1 && bpw != 2 && bpw != 4)
		bpw = 8;
	for (int i = 0; i < bpw; i++)
		buf[i] = (u8)(v >> (8 * i));
	if (o->mem_write(s->target, addr, buf, (size_t)bpw) != bpw) {
		kdb_printf(s, "kdb_putarea: Bad address 0x%llx\n", (unsigned long long)addr);
		return -KDB_BADADDR;
	}
	if (o->mem_read(s->target, addr, buf, (size_t)bpw) == bpw)
		back = get_word(buf, (int)bpw);
	kdb_printf(s, "0x%llx = 0x%llx\n", (unsigned long long)addr, (unsigned long long)back);
	return 0;
}
