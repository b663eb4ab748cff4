/* SPDX-License-Identifier: GPL-2.0 */
/* pgwalk.h - a virtual address's physical address under the page tables in use (CR3). */
#ifndef ASM_X86_PGWALK_H
#define ASM_X86_PGWALK_H

#include <ekdb/types.h>

/*
 * x86_virt_to_phys - walk the 4-level tables CR3 names (1 GiB, 2 MiB and
 * 4 KiB pages) for @va: 0 and *@pa, or -EKDB_EFAULT when it is not mapped
 * (or a table cannot be reached through ekdb_map_phys()).  For DMA
 * addresses of static storage (the xHCI DbC's rings).
 */
int x86_virt_to_phys(const volatile void *va, u64 *pa);

#endif
