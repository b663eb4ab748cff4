/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms.c - the symbol table kdb uses in the loader: the kernel's own
 * kallsyms table (tools/gen-kallsyms.py, the .kallsyms section), read
 * where the loader placed the kernel image, and the loader's own, both
 * read by lib/ksym_table.c (struct ksym_table).  Until a kernel is placed
 * its table is empty.
 */
#include "glue.h"
#include <ekdb/fmt.h>
#include <ekdb/kallsyms.h>
#include <ekdb/errno.h>

static const u64 no_symbols;

/* The placed kernel's table (found by ldr_ksyms_attach), empty until then. */
static struct ksym_table kern_table = { .num = &no_symbols };
/* The loader's own, linked in as the __ksym_* symbols (gen-kallsyms.py). */
static const struct ksym_table self_table = {
	.num = &__ksym_num,
	.addresses = __ksym_addresses,
	.sizes = __ksym_sizes,
	.name_offsets = __ksym_name_offsets,
	.names = __ksym_names,
};

/*
 * The table at link address @table_virt: num (u64), addresses[num] (u64),
 * sizes[num] (u32), name_offsets[num] (u32), names (see gen-kallsyms.py).
 */
void ldr_ksyms_attach(const struct ldr_xlate_map *m, u64 table_virt)
{
	u64 n, t;
	size_t chunk;

	if (!ldr_xlate_in_kernel(m, table_virt, 8))
		return;
	t = ldr_xlate(m, table_virt, 8, &chunk);
	n = *(const u64 *)t;
	if (!n || !ldr_xlate_in_kernel(m, table_virt, 8 + 16 * n))
		return;
	kern_table.addresses = (const u64 *)(t + 8);
	kern_table.sizes = (const u32 *)(t + 8 + 8 * n);
	kern_table.name_offsets = (const u32 *)(t + 8 + 12 * n);
	kern_table.names = (const char *)(t + 8 + 16 * n);
	kern_table.num = (const u64 *)t;
}

/*
 * The port's symbol members (<ekdb/port.h>: sym_*), over both tables:
 * the loader's own (addresses relative to its link base 0, so the runtime
 * base is added) and the kernel's.  Indexes: the loader's first.  A name in
 * both (the debugger's own functions) is the kernel's: `bp` at the loader
 * stop is for the kernel, and the debugger refuses breakpoints in itself.
 */
int ldr_sym_get(unsigned long index, struct ksym *out)
{
	unsigned long n = ksym_table_count(&self_table);
	u64 base, size;

	if (index >= n)
		return ksym_table_get(&kern_table, index - n, out) ? 0 : -EKDB_ENOENT;
	if (!ksym_table_get(&self_table, index, out))
		return -EKDB_ENOENT;
	ldr_dbg_image_range(&base, &size);
	out->addr += base;
	return 0;
}

int ldr_sym_lookup(u64 addr, struct ksym *sym, u64 *offset)
{
	u64 base, size;

	ldr_dbg_image_range(&base, &size);
	if (addr >= base && addr - base < size) {
		if (!ksym_table_lookup(&self_table, addr - base, sym, offset))
			return -EKDB_ENOENT;
		sym->addr += base;
		return 0;
	}
	return ksym_table_lookup(&kern_table, addr, sym, offset) ? 0 : -EKDB_ENOENT;
}

int ldr_sym_by_name(const char *name, struct ksym *sym)
{
	u64 base, size;

	if (ksym_table_lookup_name(&kern_table, name, sym))
		return 0;
	if (!ksym_table_lookup_name(&self_table, name, sym))
		return -EKDB_ENOENT;
	ldr_dbg_image_range(&base, &size);
	sym->addr += base;
	return 0;
}
