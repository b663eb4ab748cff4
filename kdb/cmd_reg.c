/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_reg.c - register commands: rd (the selected CPU's registers, named
 * as in the target's register table), rm (modify one), ef (print an
 * exception frame, struct x86_regs as the entry stubs build it, found in
 * memory).
 */
#include "kdb.h"
#include <asm/regs.h>

/** kdb_cmd_rd - rd: every register up to 64 bits, "name: value", wrapped at 80 columns. */
int kdb_cmd_rd(struct kdb_session *s, int argc, const char **argv)
{
	const struct ekdb_target_ops *o = s->target->ops;
	unsigned n = o->reg_count(s->target), shown = 0, col = 0;

	if (argc)
		return -KDB_TOOMANYARGS;
	for (unsigned i = 0; i < n && !kdb_interrupted(s); i++) {
		const char *name = o->reg_name(s->target, i);
		u8 buf[64];
		size_t size = 0;
		char item[48];
		u64 v = 0;
		int len;

		if (!name || o->reg_read(s->target, i, buf, &size) < 0 || size > 8)
			continue;
		for (size_t b = 0; b < size; b++)
			v |= (u64)buf[b] << (8 * b);
		if (size == 8)
			len = ekdb_snprintf(item, sizeof(item), "%s: %016llx", name, (unsigned long long)v);
		else
			len = ekdb_snprintf(item, sizeof(item), "%s: %0*llx", name, (int)size * 2,
					    (unsigned long long)v);
		if (col && col + 2 + (unsigned)len > 80) {
			kdb_printf(s, "\n");
			col = 0;
		}
		kdb_printf(s, "%s%s", col ? "  " : "", item);
		col += (col ? 2 : 0) + (unsigned)len;
		shown++;
	}
	if (col)
		kdb_printf(s, "\n");
	if (!shown)
		kdb_printf(s, "No registers available for cpu %d\n", s->cpu);
	return 0;
}

/** kdb_cmd_rm - rm <reg> <contents>: set a register of the selected CPU. */
int kdb_cmd_rm(struct kdb_session *s, int argc, const char **argv)
{
	const struct ekdb_target_ops *o = s->target->ops;
	const char *name;
	char alt[16];
	unsigned n, count = o->reg_count(s->target);
	u8 buf[64];
	size_t size = 0;
	int next = 2, r;
	u64 v;

	if (argc != 2)
		return -KDB_ARGCOUNT;
	name = argv[1][0] == '%' ? argv[1] + 1 : argv[1];
	ekdb_snprintf(alt, sizeof(alt), "r%s", name);
	for (n = 0; n < count; n++) {
		const char *rn = o->reg_name(s->target, n);

		if (rn && (!strcmp(rn, name) || !strcmp(rn, alt)))
			break;
	}
	if (n == count)
		return -KDB_BADREG;
	r = kdb_getaddrarg(s, argc, argv, &next, &v);
	if (r)
		return r;
	memset(buf, 0, sizeof(buf));
	r = o->reg_read(s->target, n, buf, &size);
	if ((r < 0 && r != -EKDB_ENOENT) || size == 0 || size > 8)
		return -KDB_BADREG;
	for (size_t b = 0; b < size; b++)
		buf[b] = (u8)(v >> (8 * b));
	r = o->reg_write(s->target, n, buf, size);
	return r ? kdb_err_to_diag(r) : 0;
}

/** kdb_cmd_ef - ef <vaddr>: the exception frame (struct x86_regs) at vaddr. */
int kdb_cmd_ef(struct kdb_session *s, int argc, const char **argv)
{
	struct x86_regs f;
	int next = 1, r;
	u64 addr;

	if (argc < 1)
		return -KDB_ARGCOUNT;
	r = kdb_getaddrarg(s, argc, argv, &next, &addr);
	if (r)
		return r;
	if (next <= argc)
		return -KDB_TOOMANYARGS;
	if (s->target->ops->mem_read(s->target, addr, &f, sizeof(f)) != (long)sizeof(f)) {
		kdb_printf(s, "kdb_getarea: Bad address 0x%llx\n", (unsigned long long)addr);
		return -KDB_BADADDR;
	}
	kdb_printf(s, "RIP: %04llx:", (unsigned long long)f.cs);
	kdb_symbol_print(s, f.rip);
	kdb_printf(s, "\nRSP: %04llx:%016llx EFLAGS: %08llx\n", (unsigned long long)f.ss,
		   (unsigned long long)f.rsp, (unsigned long long)f.rflags);
	kdb_printf(s, "RAX: %016llx RBX: %016llx RCX: %016llx\n", (unsigned long long)f.rax,
		   (unsigned long long)f.rbx, (unsigned long long)f.rcx);
	kdb_printf(s, "RDX: %016llx RSI: %016llx RDI: %016llx\n", (unsigned long long)f.rdx,
		   (unsigned long long)f.rsi, (unsigned long long)f.rdi);
	kdb_printf(s, "RBP: %016llx R08: %016llx R09: %016llx\n", (unsigned long long)f.rbp,
		   (unsigned long long)f.r8, (unsigned long long)f.r9);
	kdb_printf(s, "R10: %016llx R11: %016llx R12: %016llx\n", (unsigned long long)f.r10,
		   (unsigned long long)f.r11, (unsigned long long)f.r12);
	kdb_printf(s, "R13: %016llx R14: %016llx R15: %016llx\n", (unsigned long long)f.r13,
		   (unsigned long long)f.r14, (unsigned long long)f.r15);
	kdb_printf(s, "vector: %llu error_code: %016llx\n", (unsigned long long)f.vector,
		   (unsigned long long)f.error_code);
	return 0;
}
