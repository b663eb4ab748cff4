/* SPDX-License-Identifier: GPL-2.0 */
/* memblock.h - boot-time physical memory bookkeeping, before the page allocator exists. */
#ifndef KERNEL_MEMBLOCK_H
#define KERNEL_MEMBLOCK_H

#include <ekdb/types.h>
#include <ekdb/bootinfo.h>

/* Capacity of each region table (memory and reserved); static storage. */
#define MEMBLOCK_MAX_REGIONS	128

/* Physical memory below this is always reserved (BIOS data, trampolines, ...). */
#define MEMBLOCK_LOW_RESERVE	0x100000UL

/* No upper limit for memblock_alloc(). */
#define MEMBLOCK_ALLOC_ANYWHERE	(~0UL)

struct memblock_region {
	u64 base;
	u64 size;
};

/* Sorted, non-overlapping, non-adjacent (merged) regions. */
struct memblock_type {
	const char *name;
	unsigned int cnt;
	struct memblock_region regions[MEMBLOCK_MAX_REGIONS];
};

void memblock_init_from_bootinfo(const struct ekdb_mmap_entry *map, unsigned int count);
int memblock_add(u64 base, u64 size);
int memblock_remove(u64 base, u64 size);
int memblock_reserve(u64 base, u64 size);
u64 memblock_alloc(u64 size, u64 align);
int memblock_free(u64 base, u64 size);
void memblock_set_current_limit(u64 limit);
void memblock_dump(void);

u64 memblock_phys_mem_size(void);
u64 memblock_reserved_size(void);
u64 memblock_free_size(void);
u64 memblock_kernel_size(void);
u64 memblock_bootdata_size(void);
u64 memblock_start_of_DRAM(void);
u64 memblock_end_of_DRAM(void);

const struct memblock_type *memblock_memory(void);
const struct memblock_type *memblock_reserved(void);

void memblock_for_each_free_range(void (*fn)(u64 base, u64 end, void *arg), void *arg);
void memblock_handover(void);
bool memblock_is_handed_over(void);
void memblock_reset(void);

#endif /* KERNEL_MEMBLOCK_H */
