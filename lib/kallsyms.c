/* SPDX-License-Identifier: GPL-2.0 */
/* kallsyms.c - look up the kernel's built-in symbol table. */
#include <ekdb/kallsyms.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>

extern const u64 __ksym_num;
extern const u64 __ksym_addresses[];
extern const u32 __ksym_sizes[];
extern const u32 __ksym_name_offsets[];
extern const char __ksym_names[];

unsigned long kallsyms_count(void)
{
	return __ksym_num;
}

bool kallsyms_get(unsigned long i, struct ksym *out)
{
	const char *n;

	if (i >= __ksym_num)
		return false;
	n = &__ksym_names[__ksym_name_offsets[i]];
	out->type = n[0];
	out->name = n + 1;
	out->addr = __ksym_addresses[i];
	out->size = __ksym_sizes[i];
	return true;
}

bool kallsyms_lookup(u64 addr, struct ksym *sym, u64 *offset)
{
	unsigned long lo = 0, hi = __ksym_num;

	/* last entry with address <= addr */
	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (__ksym_addresses[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return false;
	/* among equal addresses prefer one with a size that covers addr */
	for (unsigned long i = lo; i-- > 0 && __ksym_addresses[i] == __ksym_addresses[lo - 1];) {
		kallsyms_get(i, sym);
		if (sym->size && addr < sym->addr + sym->size)
			goto found;
	}
	kallsyms_get(lo - 1, sym);
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

bool kallsyms_lookup_name(const char *name, struct ksym *sym)
{
	for (unsigned long i = 0; i < __ksym_num; i++) {
		const char *n = &__ksym_names[__ksym_name_offsets[i]] + 1;

		if (!strcmp(n, name))
			return kallsyms_get(i, sym);
	}
	return false;
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
