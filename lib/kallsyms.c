/* SPDX-License-Identifier: GPL-2.0 */
/* kallsyms.c - the kernel's symbol API over its built-in table (the __ksym_* symbols). */
#include <ekdb/kallsyms.h>

static const struct ksym_table builtin = {
	.num = &__ksym_num,
	.addresses = __ksym_addresses,
	.sizes = __ksym_sizes,
	.name_offsets = __ksym_name_offsets,
	.names = __ksym_names,
};

unsigned long kallsyms_count(void)
{
	return ksym_table_count(&builtin);
}

bool kallsyms_get(unsigned long i, struct ksym *out)
{
	return ksym_table_get(&builtin, i, out);
}

bool kallsyms_lookup(u64 addr, struct ksym *sym, u64 *offset)
{
	return ksym_table_lookup(&builtin, addr, sym, offset);
}

bool kallsyms_lookup_name(const char *name, struct ksym *sym)
{
	return ksym_table_lookup_name(&builtin, name, sym);
}
