/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallsyms.h - a symbol (struct ksym: what the port's sym_* members
 * answer, <ekdb/port.h>) and the table format tools/gen-kallsyms.py
 * generates, with its allocator-free reader (lib/ksym_table.c).  A host
 * without a symbol table of its own links the generated one and answers
 * the port from it (the reference kernel: kernel-glue/kallsyms.c).
 */
#ifndef EKDB_KALLSYMS_H
#define EKDB_KALLSYMS_H

#include <ekdb/types.h>

struct ksym {
	const char *name;
	u64 addr;
	u64 size;
	char type;		/* nm type letter: T t D d B b R r */
};

/*
 * A symbol table as tools/gen-kallsyms.py lays it out: num entries sorted
 * by address, their sizes, and per entry an offset into names (the nm type
 * letter, then the name, NUL-terminated).  lib/ksym_table.c reads any such
 * table; an image links its own as the __ksym_* symbols below.  A host
 * with more than one (the loader: its own and the placed kernel's,
 * boot/dbg/ksyms.c) describes each and answers the port over all.
 */
struct ksym_table {
	const u64 *num;		/* a pointer: the table may be found (or filled) late */
	const u64 *addresses;
	const u32 *sizes;
	const u32 *name_offsets;
	const char *names;
};

extern const u64 __ksym_num;
extern const u64 __ksym_addresses[];
extern const u32 __ksym_sizes[];
extern const u32 __ksym_name_offsets[];
extern const char __ksym_names[];

unsigned long ksym_table_count(const struct ksym_table *t);
bool ksym_table_get(const struct ksym_table *t, unsigned long index, struct ksym *out);
bool ksym_table_lookup(const struct ksym_table *t, u64 addr, struct ksym *sym, u64 *offset);
bool ksym_table_lookup_name(const struct ksym_table *t, const char *name, struct ksym *sym);

#endif
