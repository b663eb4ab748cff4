/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms.c - the symbol table kdb uses in the loader: the kernel's own
 * kallsyms table (tools/gen-kallsyms.py, the .kallsyms section), read
 * where the loader placed the kernel image.  lib/kallsyms.c is built for
 * the loader with its __ksym_* tables turned into these pointers
 * (boot/dbg/dbg.mk).  Until a kernel is placed the table is empty.
 */
#include "glue.h"

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
