/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallsyms.h - the kernel's own symbol table (generated at build time by
 * tools/gen-kallsyms.py, read by lib/kallsyms.c): oops backtraces, kdb
 * symbolic addresses and tab completion.  Read-only, allocator-free.
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
 * boot/dbg/ksyms.c) describes each and answers the kallsyms_* API over all.
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

/*
 * The symbol API the debugger calls: the host's tables (the kernel's:
 * lib/kallsyms.c over its own; the loader's: boot/dbg/ksyms.c).
 * kallsyms_sprint (lib/ksym_table.c) formats what kallsyms_lookup finds.
 */
unsigned long kallsyms_count(void);
bool kallsyms_get(unsigned long index, struct ksym *out);

/*
 * kallsyms_lookup - the symbol containing @addr (or the nearest one below
 * it when sizes are unknown).  Returns false when nothing is close.
 */
bool kallsyms_lookup(u64 addr, struct ksym *sym, u64 *offset);
/* kallsyms_lookup_name - exact name match; false when absent. */
bool kallsyms_lookup_name(const char *name, struct ksym *sym);
/* kallsyms_sprint - "name+0xoff/0xsize" into @buf; returns its length, 0 if unknown. */
int kallsyms_sprint(u64 addr, char *buf, size_t size);

#endif
