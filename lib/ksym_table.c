/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksym_table.c - look up a symbol table laid out by tools/gen-kallsyms.py
 * (struct ksym_table, <ekdb/kallsyms.h>).
 */
#include <ekdb/kallsyms.h>
#include <ekdb/string.h>

unsigned long ksym_table_count(const struct ksym_table *t)
{
	return *t->num;
}

bool ksym_table_get(const struct ksym_table *t, unsigned long i, struct ksym *out)
{
	const char *n;

	if (i >= *t->num)
		return false;
	n = &t->names[t->name_offsets[i]];
	out->type = n[0];
	out->name = n + 1;
	out->addr = t->addresses[i];
	out->size = t->sizes[i];
	return true;
}

bool ksym_table_lookup(const struct ksym_table *t, u64 addr, struct ksym *sym, u64 *offset)
{
	unsigned long lo = 0, hi = *t->num;

	/* last entry with address <= addr */
	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (t->addresses[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return false;
	/* among equal addresses prefer one with a size that covers addr */
	for (unsigned long i = lo; i-- > 0 && t->addresses[i] == t->addresses[lo - 1];) {
		ksym_table_get(t, i, sym);
		if (sym->size && addr < sym->addr + sym->size)
			goto found;
	}
	ksym_table_get(t, lo - 1, sym);
	/* sized symbol that ends before addr: not ours (gap, padding) */
	if (sym->size && addr >= sym->addr + sym->size)
		return false;
	if (!sym->size && addr - sym->addr > 0x10000)
		return false;
found:
	if (offset)
		*offset = addr - sym->addr;
	return true;
}

bool ksym_table_lookup_name(const struct ksym_table *t, const char *name, struct ksym *sym)
{
	for (unsigned long i = 0; i < *t->num; i++) {
		const char *n = &t->names[t->name_offsets[i]] + 1;

		if (!strcmp(n, name))
			return ksym_table_get(t, i, sym);
	}
	return false;
}
