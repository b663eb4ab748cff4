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
