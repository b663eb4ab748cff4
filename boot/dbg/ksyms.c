/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms.c - the symbol table kdb uses in the loader: the kernel's own
 * kallsyms table (tools/gen-kallsyms.py, the .kallsyms section), read
 * where the loader placed the kernel image.  lib/kallsyms.c is built for
 * the loader with its __ksym_* tables turned into these pointers
 * (boot/dbg/dbg.mk).  Until a kernel is placed the table is empty.
 */
#include "glue.h"
#include <ekdb/fmt.h>
#include <ekdb/kallsyms.h>

static const u64 no_symbols;

const u64 *ldr_ksym_num = &no_symbols;
const u64 (*ldr_ksym_addresses)[];
const u32 (*ldr_ksym_sizes)[];
const u32 (*ldr_ksym_name_offsets)[];
const char (*ldr_ksym_names)[];

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
	ldr_ksym_addresses = (const u64 (*)[])(t + 8);
	ldr_ksym_sizes = (const u32 (*)[])(t + 8 + 8 * n);
	ldr_ksym_name_offsets = (const u32 (*)[])(t + 8 + 12 * n);
	ldr_ksym_names = (const char (*)[])(t + 8 + 16 * n);
	ldr_ksym_num = (const u64 *)t;
}

/*
 * The symbol API the debug core uses (<ekdb/kallsyms.h>), over both tables:
 * the loader's own (addresses relative to its link base 0, so the runtime
 * base is added) and the kernel's.  Indexes: the loader's first.  A name in
 * both (the debugger's own functions) is the kernel's: `bp` at the loader
 * stop is for the kernel, and the debugger refuses breakpoints in itself.
 */
unsigned long ldr_self_kallsyms_count(void);
bool ldr_self_kallsyms_get(unsigned long index, struct ksym *out);
bool ldr_self_kallsyms_lookup(u64 addr, struct ksym *sym, u64 *offset);
bool ldr_self_kallsyms_lookup_name(const char *name, struct ksym *sym);
unsigned long ldr_kern_kallsyms_count(void);
bool ldr_kern_kallsyms_get(unsigned long index, struct ksym *out);
bool ldr_kern_kallsyms_lookup(u64 addr, struct ksym *sym, u64 *offset);
bool ldr_kern_kallsyms_lookup_name(const char *name, struct ksym *sym);

unsigned long kallsyms_count(void)
{
	return ldr_self_kallsyms_count() + ldr_kern_kallsyms_count();
}

bool kallsyms_get(unsigned long index, struct ksym *out)
{
	unsigned long n = ldr_self_kallsyms_count();
	u64 base, size;

	if (index >= n)
		return ldr_kern_kallsyms_get(index - n, out);
	if (!ldr_self_kallsyms_get(index, out))
		return false;
	ldr_dbg_image_range(&base, &size);
	out->addr += base;
	return true;
}

bool kallsyms_lookup(u64 addr, struct ksym *sym, u64 *offset)
{
	u64 base, size;

	ldr_dbg_image_range(&base, &size);
	if (addr >= base && addr - base < size) {
		if (!ldr_self_kallsyms_lookup(addr - base, sym, offset))
			return false;
		sym->addr += base;
		return true;
	}
	return ldr_kern_kallsyms_lookup(addr, sym, offset);
}

bool kallsyms_lookup_name(const char *name, struct ksym *sym)
{
	u64 base, size;

	if (ldr_kern_kallsyms_lookup_name(name, sym))
		return true;
	if (!ldr_self_kallsyms_lookup_name(name, sym))
		return false;
	ldr_dbg_image_range(&base, &size);
	sym->addr += base;
	return true;
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
