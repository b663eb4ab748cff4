/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallsyms.h - the reference kernel's symbol API over its built-in table
 * (the __ksym_* symbols tools/gen-kallsyms.py generates, <ekdb/kallsyms.h>):
 * oops backtraces, and the debugger's symbols through the port.
 */
#ifndef KERNEL_KALLSYMS_H
#define KERNEL_KALLSYMS_H

#include <ekdb/kallsyms.h>

unsigned long kallsyms_count(void);
bool kallsyms_get(unsigned long index, struct ksym *out);
/* kallsyms_lookup - the symbol holding @addr (nearest below when sizes are unknown); false: none close. */
bool kallsyms_lookup(u64 addr, struct ksym *sym, u64 *offset);
bool kallsyms_lookup_name(const char *name, struct ksym *sym);
/* kallsyms_sprint - "name+0xoff/0xsize" into @buf: its length, 0 if unknown. */
int kallsyms_sprint(u64 addr, char *buf, size_t size);

/* The port's sym_* members over the table (kernel-glue/debug_port.h). */
int kallsyms_port_lookup(u64 addr, struct ksym *sym, u64 *offset);
int kallsyms_port_by_name(const char *name, struct ksym *sym);
int kallsyms_port_get(unsigned long index, struct ksym *sym);

#endif
