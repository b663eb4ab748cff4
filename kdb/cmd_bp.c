/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_bp.c - breakpoint commands over the ONE breakpoint table the core
 * keeps for gdb and kdb alike: bp (software), bph (hardware: inst,
 * datar, dataw), bl (list, also what gdb planted), bc/be/bd (clear,
 * enable, disable by number, address, or `*` for all).
 */
#include "kdb.h"

#define KDB_BP_SCAN_MAX	(1 << 20)	/* bound on bp_get indices looked at (the table ends with -ERANGE) */
#define KDB_HW_BP_SLOTS	4		/* x86 debug registers DR0-DR3 */

static const char *const bp_kind[] = {
	[EKDB_BP_SW] = "Instruction(i)",
	[EKDB_BP_HW] = "Instruction(Register)",
	[EKDB_BP_WRITE] = "Data Write",
	[EKDB_BP_READ] = "Data Read",
	[EKDB_BP_ACCESS] = "Data Access",
};

static int bp_get(struct kdb_session *s, int i, struct ekdb_bp_info *b)
{
	return s->target->ops->bp_get(s->target, i, b);
}

/*
 * Linux's kdb_printbp(): two lines and a blank one; hardtype is the kind's
 * number.  ekdb: once a breakpoint has fired, a line "    hits=N" (the
 * stops it caused) comes before the blank one; Linux's kdb counts no hits,
 * so a breakpoint that never fired prints exactly Linux's lines.
 */
static void print_bp(struct kdb_session *s, int i, const struct ekdb_bp_info *b)
{
	kdb_printf(s, "%s BP #%d at ", b->type <= EKDB_BP_ACCESS ? bp_kind[b->type] : "", i);
	kdb_symbol_print(s, b->addr);
	kdb_printf(s, "\n    is %s  addr at %016llx, hardtype=%d installed=%d\n",
		   b->enabled ? "enabled " : "disabled", (unsigned long long)b->addr,
		   (int)b->type, b->installed);
	if (b->hits)
		kdb_printf(s, "    hits=%lu\n", b->hits);
	kdb_printf(s, "\n");
}

static int list_bps(struct kdb_session *s)
{
	struct ekdb_bp_info b;
	int n = 0, r;

	for (int i = 0; i < KDB_BP_SCAN_MAX && !kdb_interrupted(s); i++) {
		r = bp_get(s, i, &b);
		if (r == -EKDB_ERANGE)
			break;
		if (r == 0) {
			print_bp(s, i, &b);
			n++;
		}
	}
	return 0;	/* Linux prints nothing for an empty table */
}

/*
 * A full table and four hardware entries both come back as -EKDB_ENOSPC:
 * it is the debug registers (Linux's -11) only for a hardware kind when
 * every slot is taken; otherwise the table itself is full (Linux's -10).
 */
static bool hw_slots_full(struct kdb_session *s, enum ekdb_bp_type type)
{
	struct ekdb_bp_info b;
	int n = 0, r;

	if (type == EKDB_BP_SW)
		return false;
	for (int i = 0; i < KDB_BP_SCAN_MAX && (r = bp_get(s, i, &b)) != -EKDB_ERANGE; i++)
		if (r == 0 && b.type != EKDB_BP_SW)
			n++;
	return n >= KDB_HW_BP_SLOTS;
}

/* A kdb-owned entry (gdb's detach leaves it): its table index, or an error. */
static int add_bp(struct kdb_session *s, enum ekdb_bp_type type, u64 addr, unsigned len)
{
	const struct ekdb_target_ops *o = s->target->ops;

	if (!o->bp_set)
		return -EKDB_ENOSYS;
	return o->bp_set(s->target, EKDB_BP_BY_KDB, type, addr, len);
}

/**
 * kdb_cmd_bp - bp/bl [vaddr]: list, or set a software breakpoint;
 * bph vaddr [inst|datar|dataw [len]]: hardware breakpoint or watchpoint.
 */
int kdb_cmd_bp(struct kdb_session *s, int argc, const char **argv)
{
	enum ekdb_bp_type type = EKDB_BP_SW;
	struct ekdb_bp_info b;
	unsigned len = 1;
	int next = 1, r, i;
	u64 addr, v;

	if (!s->target->ops->bp_get)
		return -KDB_NOTAVAIL;
	if (argc == 0 || !strcmp(argv[0], "bl")) {
		if (argc && strcmp(argv[0], "bl"))
			return -KDB_ARGCOUNT;
		return list_bps(s);
	}
	r = kdb_getaddrarg(s, argc, argv, &next, &addr);
	if (r)
		return r;
	if (!addr)
		return -KDB_BADINT;	/* Linux's kdb_bp(): address 0 is not a number it takes */
	if (!strcmp(argv[0], "bph")) {
		type = EKDB_BP_HW;
		if (next <= argc) {
			if (!strcmp(argv[next], "dataw"))
				type = EKDB_BP_WRITE;
			else if (!strcmp(argv[next], "datar"))
				type = EKDB_BP_ACCESS;	/* Linux: BP_ACCESS_WATCHPOINT */
			else if (strcmp(argv[next], "inst"))
				return -KDB_BADMODE;
			next++;
		}
		if (next <= argc) {
			if (type == EKDB_BP_HW)
				return -KDB_ARGCOUNT;
			if (kdb_getularg(argv[next], &v) ||
			    (v != 1 && v != 2 && v != 4 && v != 8))
				return -KDB_BADLENGTH;
			len = (unsigned)v;
			next++;
		}
	}
	if (next <= argc)
		return -KDB_TOOMANYARGS;
	if (kdb_check_range(s, argv[0], addr, len))
		return -KDB_BADADDR;
	/* Linux: one kdb breakpoint per address, whatever its kind */
	for (i = 0; i < KDB_BP_SCAN_MAX && (r = bp_get(s, i, &b)) != -EKDB_ERANGE; i++) {
		if (r == 0 && b.by_kdb && b.addr == addr) {
			kdb_printf(s, "You already have a breakpoint at 0x%016llx\n",
				   (unsigned long long)addr);
			return -KDB_DUPBPT;
		}
	}
	i = add_bp(s, type, addr, len);
	if (i < 0) {
		if (i == -EKDB_EINVAL && type >= EKDB_BP_WRITE)
			return -KDB_BADLENGTH;	/* not aligned to its length */
		if (i == -EKDB_EJUMPWIN)
			kdb_printf(s, "%s: in the kernel's jump window (_start to the debugger's "
				   "takeover, before any debug vector): a breakpoint there cannot "
				   "fire, refused\n", argv[1]);
		if (i == -EKDB_EPERM)
			kdb_printf(s, "%s: the debugger cannot stop there (its own code, or code "
				   "that runs before the CPU can take a trap)\n", argv[1]);
		if (i == -EKDB_ENOSPC && !hw_slots_full(s, type))
			return -KDB_TOOMANYBPT;	/* the table is full: Linux's -10 */
		return kdb_err_to_diag(i);
	}
	if (bp_get(s, i, &b) == 0)
		print_bp(s, i, &b);
	return 0;
}

/* Apply bc/be/bd to entry @i. */
static int bc_one(struct kdb_session *s, const char *cmd, int i, const struct ekdb_bp_info *b)
{
	const struct ekdb_target_ops *o = s->target->ops;
	int r;

	if (cmd[1] == 'c') {
		r = o->bp_clear ? o->bp_clear(s->target, i) : -EKDB_ENOSYS;
		if (!r)
			kdb_printf(s, "Breakpoint %d at 0x%llx cleared\n", i, (unsigned long long)b->addr);
	} else {
		bool en = cmd[1] == 'e';

		if (b->enabled == en)
			return 0;	/* Linux: nothing to do, nothing printed */
		r = o->bp_enable ? o->bp_enable(s->target, i, en) : -EKDB_ENOSYS;
		if (!r)
			kdb_printf(s, "Breakpoint %d at 0x%llx %s\n", i, (unsigned long long)b->addr,
				   en ? "enabled" : "disabled");
	}
	return r ? kdb_err_to_diag(r) : 0;
}

/** kdb_cmd_bc - bc/be/bd <bpnum>|<vaddr>|*: clear, enable or disable. */
int kdb_cmd_bc(struct kdb_session *s, int argc, const char **argv)
{
	struct ekdb_bp_info b;
	bool all, found = false;
	int next = 1, r;
	u64 v = 0;

	if (!s->target->ops->bp_get)
		return -KDB_NOTAVAIL;
	if (argc != 1)
		return argc ? -KDB_TOOMANYARGS : -KDB_ARGCOUNT;
	all = !strcmp(argv[1], "*");
	if (!all) {
		r = kdb_getaddrarg(s, argc, argv, &next, &v);
		if (r)
			return r;
		if (v < KDB_BP_SCAN_MAX) {
			r = bp_get(s, (int)v, &b);
			if (r)
				return -KDB_BPTNOTFOUND;
			return bc_one(s, argv[0], (int)v, &b);
		}
	}
	for (int i = 0; i < KDB_BP_SCAN_MAX; i++) {
		r = bp_get(s, i, &b);
		if (r == -EKDB_ERANGE)
			break;
		if (r || (!all && b.addr != v))
			continue;
		found = true;
		r = bc_one(s, argv[0], i, &b);
		if (r || !all)
			return r;	/* Linux: an address names its first breakpoint */
	}
	return found || all ? 0 : -KDB_BPTNOTFOUND;
}
