/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallsyms.c - the kernel's symbol API over its built-in table (the
 * __ksym_* symbols), and the debugger's symbols (the port's sym_*
 * members) from it.  The debugger calls these while the machine is
 * stopped: no breakpoint may go here (__ekdb_nobp), and lib/ksym_table.c
 * under them is the debugger's own code.
 */
#include <kernel/kallsyms.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/fmt.h>

static const struct ksym_table builtin = {
	.num = &__ksym_num,
	.addresses = __ksym_addresses,
	.sizes = __ksym_sizes,
	.name_offsets = __ksym_name_offsets,
	.names = __ksym_names,
};

__ekdb_nobp unsigned long kallsyms_count(void)
{
	return ksym_table_count(&builtin);
}

__ekdb_nobp bool kallsyms_get(unsigned long i, struct ksym *out)
{
	return ksym_table_get(&builtin, i, out);
}

__ekdb_nobp bool kallsyms_lookup(u64 addr, struct ksym *sym, u64 *offset)
{
	return ksym_table_lookup(&builtin, addr, sym, offset);
}

__ekdb_nobp bool kallsyms_lookup_name(const char *name, struct ksym *sym)
{
	return ksym_table_lookup_name(&builtin, name, sym);
}

int kallsyms_sprint(u64 addr, char *buf, size_t size)
{
	struct ksym s;
	u64 off;

	if (!kallsyms_lookup(addr, &s, &off))
		return 0;
	return ekdb_snprintf(buf, size, "%s+0x%llx/0x%llx", s.name,
			     (unsigned long long)off, (unsigned long long)s.size);
}

__ekdb_nobp int kallsyms_port_lookup(u64 addr, struct ksym *sym, u64 *offset)
{
	return kallsyms_lookup(addr, sym, offset) ? 0 : -EKDB_ENOENT;
}

__ekdb_nobp int kallsyms_port_by_name(const char *name, struct ksym *sym)
{
	return kallsyms_lookup_name(name, sym) ? 0 : -EKDB_ENOENT;
}

__ekdb_nobp int kallsyms_port_get(unsigned long index, struct ksym *sym)
{
	return kallsyms_get(index, sym) ? 0 : -EKDB_ENOENT;
}
