/* SPDX-License-Identifier: GPL-2.0 */
/*
 * early_ioremap.c - device registers reachable before any allocator, for
 * the early debugger's drivers (the USB debug port).  Kept apart from
 * paging.c so that tools/check-early.sh can link it into the
 * allocator-free set: it only reads the page tables paging.c built.
 */
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <asm/processor.h>

#define PTE_PWT		(1ULL << 3)
#define PTE_PCD		(1ULL << 4)
#define CR3_ADDR	0x000ffffffffff000ULL
#define IDENTITY_LIMIT	(4ULL << 30)	/* the loader's identity map */

extern u64 direct_pd[][512];		/* paging.c: the direct map's 2 MiB entries */

/**
 * early_ioremap_uc - where registers at physical @phys..+@len can be
 * reached now, uncached; NULL if they cannot.  Under the loader's tables
 * (before init_mem_mapping) that is the identity map (MMIO there is
 * uncached by the firmware's MTRRs); under the kernel's tables it is the
 * direct map, whose 2 MiB pages covering the range get PCD|PWT here.
 */
void *early_ioremap_uc(u64 phys, u64 len)
{
	if ((read_cr3() & CR3_ADDR) == (boot_params.loader_pml4 & CR3_ADDR))
		return phys + len <= IDENTITY_LIMIT ? (void *)(uintptr_t)phys : NULL;
	if (phys + len > direct_map_end)
		return NULL;
	for (u64 a = phys & ~0x1fffffULL; a < phys + len; a += 0x200000ULL) {
		u64 *pde = &direct_pd[a / SZ_1G][(a % SZ_1G) >> 21];

		if ((*pde & (PTE_PCD | PTE_PWT)) != (PTE_PCD | PTE_PWT)) {
			*pde |= PTE_PCD | PTE_PWT;
			invlpg((u64)__va(a));
		}
	}
	return __va(phys);
}
