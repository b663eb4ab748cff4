/* SPDX-License-Identifier: GPL-2.0 */
/*
 * expr.c - kdb address expressions and symbols: a term is a symbol, a
 * number (decimal, 0x hex, bare hex), %reg or $VAR; terms join with + and
 * -, inside one word ("setup_arch+0x10") or as separate words
 * ("setup_arch + 0x10").  Symbols come from the target's sym_* ops.
 */
#include "kdb.h"
#include <ekdb/parse.h>

int kdb_getularg(const char *arg, u64 *value)
{
	if (!arg || !*arg)
		return -KDB_BADINT;
	if (!parse_u64(arg, 0, value) || !parse_u64(arg, 16, value))
		return 0;
	return -KDB_BADINT;
}

/**
 * kdb_reg_value - value of register @name ("rip", "%rsp", Linux's short
 * "ip"/"sp"/"flags" too) of the selected CPU.  0, -KDB_BADREG, or
 * -KDB_NOTAVAIL when the target cannot supply it.
 */
int kdb_reg_value(struct kdb_session *s, const char *name, u64 *value)
{
	const struct ekdb_target_ops *o = s->target->ops;
	char alt[16];
	u8 buf[64];
	size_t size = 0;
	unsigned n;
	int r;

	if (*name == '%')
		name++;
	if (!strcmp(name, "flags"))
		name = "eflags";
	ekdb_snprintf(alt, sizeof(alt), "r%s", name);
	for (n = 0; n < o->reg_count(s->target); n++) {
		const char *rn = o->reg_name(s->target, n);

		if (rn && (!strcmp(rn, name) || !strcmp(rn, alt)))
			break;
	}
	if (n == o->reg_count(s->target))
		return -KDB_BADREG;
	memset(buf, 0, sizeof(buf));
	r = o->reg_read(s->target, n, buf, &size);
	if (r < 0 || size > 8)
		return -KDB_NOTAVAIL;
	*value = 0;
	for (size_t i = 0; i < size; i++)
		*value |= (u64)buf[i] << (8 * i);
	return 0;
}

/* One term: %reg, $VAR, symbol or number. */
static int eval_term(struct kdb_session *s, const char *t, u64 *v, int depth)
{
	const struct ekdb_target_ops *o = s->target->ops;
	struct ksym k;

	if (!*t)
		return -KDB_INVADDRFMT;
	if (*t == '%')
		return kdb_reg_value(s, t, v);
	if (*t == '$') {
		const char *e = kdb_getenv(s, t + 1);

		if (!e)
			return -KDB_NOTENV;
		if (depth > 2)
			return -KDB_BADINT;
		return eval_term(s, e, v, depth + 1);
	}
	if (o->sym_by_name && o->sym_by_name(s->target, t, &k) == 0) {
		*v = k.addr;
		return 0;
	}
	if (!kdb_getularg(t, v))
		return 0;
	if (isalpha((unsigned char)*t) || *t == '_' || *t == '.')
		return -KDB_NOSYM;
	return -KDB_BADINT;
}

/* A word of terms joined by + and -; @acc accumulates, @sign applies to the first term. */
static int eval_word(struct kdb_session *s, const char *w, u64 *acc, int sign)
{
	char term[KDB_LINE_MAX];
	const char *p = w;
	u64 v;
	int r;

	if (*p == '+' || *p == '-') {
		sign = *p == '-' ? -1 : 1;
		p++;
	}
	for (;;) {
		size_t n = 0;

		/* a register or variable name may not contain + or -; neither may symbols */
		while (p[n] && p[n] != '+' && p[n] != '-')
			n++;
		if (!n || n >= sizeof(term))
			return -KDB_INVADDRFMT;
		memcpy(term, p, n);
		term[n] = 0;
		r = eval_term(s, term, &v, 0);
		if (r)
			return r;
		*acc = sign < 0 ? *acc - v : *acc + v;
		p += n;
		if (!*p)
			return 0;
		sign = *p == '-' ? -1 : 1;
		p++;
	}
}

int kdb_getaddrarg(struct kdb_session *s, int argc, const char **argv, int *nextarg,
		   u64 *value)
{
	int i = *nextarg, r;
	u64 acc = 0;

	if (i > argc)
		return -KDB_ARGCOUNT;
	r = eval_word(s, argv[i], &acc, 1);
	if (r)
		return r;
	i++;
	/* "sym + 8", "sym +8", "sym - 0x10" */
	while (i <= argc && (argv[i][0] == '+' || argv[i][0] == '-')) {
		if (!argv[i][1]) {
			if (i + 1 > argc)
				return -KDB_INVADDRFMT;
			r = eval_word(s, argv[i + 1], &acc, argv[i][0] == '-' ? -1 : 1);
			i += 2;
		} else {
			r = eval_word(s, argv[i], &acc, 1);
			i++;
		}
		if (r)
			return r;
	}
	*nextarg = i;
	*value = acc;
	return 0;
}

/** kdb_sym_by_addr - the symbol holding @addr and the offset into it. */
bool kdb_sym_by_addr(struct kdb_session *s, u64 addr, struct ksym *sym, u64 *off)
{
	const struct ekdb_target_ops *o = s->target->ops;

	/* Linux's kdbnearsym(): nothing below 4096, nothing 8 MiB past a symbol */
	if (addr < 4096 || !o->sym_by_addr || o->sym_by_addr(s->target, addr, sym) ||
	    addr < sym->addr || addr - sym->addr > 8 * 1024 * 1024)
		return false;
	*off = addr - sym->addr;
	return true;
}

/** kdb_sym_fmt - "name+0xoff/0xsize" for @addr into @buf; false when unknown. */
bool kdb_sym_fmt(struct kdb_session *s, u64 addr, char *buf, size_t size)
{
	struct ksym k;
	u64 off;

	if (!kdb_sym_by_addr(s, addr, &k, &off))
		return false;
	ekdb_snprintf(buf, size, "%s+0x%llx/0x%llx", k.name, (unsigned long long)off,
		      (unsigned long long)k.size);
	return true;
}

/** kdb_symbol_print - "0xADDR (name+0xoff)" or "0xADDR" (Linux's kdb_symbol_print layout). */
void kdb_symbol_print(struct kdb_session *s, u64 addr)
{
	struct ksym k;
	u64 off;

	kdb_printf(s, "0x%016llx", (unsigned long long)addr);
	if (!kdb_sym_by_addr(s, addr, &k, &off))
		return;
	if (off)
		kdb_printf(s, " (%s+0x%llx)", k.name, (unsigned long long)off);
	else
		kdb_printf(s, " (%s)", k.name);
}
