/* SPDX-License-Identifier: GPL-2.0 */
/* mm.h - the kernel's memory layout (direct map, __va/__pa) and the mm entry points. */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include <ekdb/types.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define PAGE_ALIGN(x)	ALIGN_UP((x), PAGE_SIZE)
#define PFN_UP(x)	(((x) + PAGE_SIZE - 1) >> PAGE_SHIFT)
#define PFN_DOWN(x)	((x) >> PAGE_SHIFT)
#define PFN_PHYS(pfn)	((u64)(pfn) << PAGE_SHIFT)

#define SZ_1K		0x400UL
#define SZ_1M		0x100000UL
#define SZ_1G		0x40000000UL

/*
 * The direct map: all physical memory is mapped at PAGE_OFFSET, so
 * virtual = physical + PAGE_OFFSET.  In the kernel it is a constant; host
 * unit tests set mm_direct_map_offset so that a malloc'd arena plays the
 * part of physical memory.
 */
#define PAGE_OFFSET_KERNEL	0xffff888000000000UL

#ifdef EKDB_HOST
extern unsigned long mm_direct_map_offset;
#define PAGE_OFFSET		mm_direct_map_offset
#else
#define PAGE_OFFSET		PAGE_OFFSET_KERNEL
#endif

/**
 * __va() - direct-map virtual address of a physical address.
 * @phys: physical address
 *
 * Return: @phys + PAGE_OFFSET as a pointer.
 */
static inline void *__va(u64 phys)
{
	return (void *)(uintptr_t)(phys + PAGE_OFFSET);
}

/**
 * __pa() - physical address of a direct-map virtual address.
 * @virt: an address inside the direct map (not a kernel-image address)
 *
 * Return: @virt - PAGE_OFFSET.
 */
static inline u64 __pa(const volatile void *virt)
{
	return (u64)(uintptr_t)virt - PAGE_OFFSET;
}

#include <kernel/memblock.h>
#include <kernel/page_alloc.h>
#include <kernel/slab.h>

/**
 * mm_init() - bring up the page allocator and kmalloc from memblock.
 *
 * Called once from start_kernel() after setup_arch() has filled memblock
 * (memblock_init_from_bootinfo()) and the direct map exists.  After it
 * returns, memblock_alloc() refuses to allocate.
 */
void mm_init(void);
void mm_kdb_init(void);	/* kdb_meminfo.c: registers `meminfo` */

/**
 * kmalloc_selftest() - boot self-test of the page allocator and kmalloc.
 *
 * Run for the kernel parameter "test_alloc".  Prints
 * "kmalloc selftest: passed" or "kmalloc selftest: FAILED: <what>".
 *
 * Return: 0 on success, -1 on failure.
 */
int kmalloc_selftest(void);

#endif /* KERNEL_MM_H */
