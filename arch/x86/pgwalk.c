/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pgwalk.c - translate a virtual address by walking the page tables in
 * use (the loader's, then the kernel's: whatever CR3 names), so a driver
 * can hand a device the physical address of its static storage without
 * knowing the host's memory layout.  Tables are reached through
 * ekdb_map_phys().  Static storage only; no locks.
 */
#include <asm/pgwalk.h>
#include <asm/processor.h>
#include <ekdb/errno.h>
#include <ekdb/port.h>

#define PTE_P		(1ULL << 0)
#define PTE_PS		(1ULL << 7)
#define PTE_ADDR	0x000ffffffffff000ULL

int x86_virt_to_phys(const volatile void *va, u64 *pa)
{
	u64 v = (u64)(uintptr_t)va, table = read_cr3() & PTE_ADDR;

	for (int level = 3; level >= 0; level--) {
		unsigned shift = 12 + 9 * (unsigned)level;
		const u64 *t = ekdb_map_phys(table, 4096);
		u64 e;

		if (!t)
			return -EKDB_EFAULT;
		e = t[(v >> shift) & 511];
		if (!(e & PTE_P))
			return -EKDB_EFAULT;
		if (level == 0 || ((level == 1 || level == 2) && (e & PTE_PS))) {
			u64 mask = (1ULL << shift) - 1;

			*pa = ((e & PTE_ADDR) & ~mask) | (v & mask);
			return 0;
		}
		table = e & PTE_ADDR;
	}
	return -EKDB_EFAULT;
}
