/* SPDX-License-Identifier: GPL-2.0 */
/* glue.h - private to boot/dbg/: what the loader lifetime's files share. */
#ifndef BOOT_DBG_GLUE_H
#define BOOT_DBG_GLUE_H

#include <ekdb/types.h>
#include "xlate.h"

/* The kernel image's placement, read from the boot-info record now (size 0: not yet). */
void ldr_dbg_kernel_map(struct ldr_xlate_map *m);
/* ldr_mem_init - arch_dbg_probe_read/write take link addresses (mem.c). */
void ldr_mem_init(void);

/* The loader image's runtime base and size (LoadedImage). */
void ldr_dbg_image_range(u64 *base, u64 *size);

/* ksyms.c: kdb's symbols are the kernel's kallsyms table inside the placed image. */
void ldr_ksyms_attach(const struct ldr_xlate_map *m, u64 table_virt);
/* The port's sym_* members (<ekdb/port.h>) over the loader's table and the placed kernel's. */
struct ksym;
int ldr_sym_lookup(u64 addr, struct ksym *sym, u64 *offset);
int ldr_sym_by_name(const char *name, struct ksym *sym);
int ldr_sym_get(unsigned long index, struct ksym *sym);

#endif
