/* SPDX-License-Identifier: GPL-2.0 */
/* memblock.c - boot-time physical memory bookkeeping from the loader's memory map. */

#include <ekdb/types.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <kernel/mm.h>
#include <kernel/printk.h>

#ifdef EKDB_HOST
/* Host tests point the "direct map" at a malloc'd arena through this. */
unsigned long mm_direct_map_offset;
#endif

static struct memblock_type mb_memory = { .name = "memory" };
static struct memblock_type mb_reserved = { .name = "reserved" };
static u64 mb_limit = MEMBLOCK_ALLOC_ANYWHERE;
static u64 mb_kernel_bytes;
static u64 mb_bootdata_bytes;
static bool mb_handed_over;

/* End of [base, base + size), saturating at the top of the address space. */
static u64 range_end(u64 base, u64 size)
{
	u64 end = base + size;

	return end < base ? ~0UL : end;
}

static void report_overflow(const struct memblock_type *t, const char *what, u64 base, u64 end)
{
	printk(KERN_ERR "memblock: %s table full (MEMBLOCK_MAX_REGIONS=%u), "
	       "cannot %s [0x%016lx-0x%016lx]\n",
	       t->name, (unsigned int)MEMBLOCK_MAX_REGIONS, what, base, end - 1);
}

/*
 * Add [base, base + size) to @t, merging with every region it overlaps or
 * touches.  The table is left untouched when it would overflow.
 */
static int type_add(struct memblock_type *t, u64 base, u64 size)
{
	struct memblock_region *r = t->regions;
	u64 end = range_end(base, size);
	unsigned int i = 0, j;

	if (!size)
		return 0;
	while (i < t->cnt && range_end(r[i].base, r[i].size) < base)
		i++;
	for (j = i; j < t->cnt && r[j].base <= end; j++) {
		base = MIN(base, r[j].base);
		end = MAX(end, range_end(r[j].base, r[j].size));
	}
	if (j == i) {
		/* No neighbour: a new slot is needed. */
		if (t->cnt >= MEMBLOCK_MAX_REGIONS) {
			report_overflow(t, "add", base, end);
			return -EKDB_ENOMEM;
		}
		memmove(&r[i + 1], &r[i], (t->cnt - i) * sizeof(*r));
		t->cnt++;
	} else if (j > i + 1) {
		memmove(&r[i + 1], &r[j], (t->cnt - j) * sizeof(*r));
		t->cnt -= j - i - 1;
	}
	r[i].base = base;
	r[i].size = end - base;
	return 0;
}

/* Remove [base, base + size) from @t, trimming or splitting regions. */
static int type_remove(struct memblock_type *t, u64 base, u64 size)
{
	struct memblock_region *r = t->regions;
	u64 end = range_end(base, size);
	unsigned int i;

	if (!size)
		return 0;
	for (i = 0; i < t->cnt; i++) {
		u64 rbase = r[i].base, rend = range_end(rbase, r[i].size);

		if (rend <= base || rbase >= end)
			continue;
		if (rbase < base && rend > end) {
			/* Punch a hole: the region becomes two. */
			if (t->cnt >= MEMBLOCK_MAX_REGIONS) {
				report_overflow(t, "remove", base, end);
				return -EKDB_ENOMEM;
			}
			memmove(&r[i + 1], &r[i], (t->cnt - i) * sizeof(*r));
			t->cnt++;
			r[i].size = base - rbase;
			r[i + 1].base = end;
			r[i + 1].size = rend - end;
			return 0;
		}
		if (rbase < base) {
			r[i].size = base - rbase;
		} else if (rend > end) {
			r[i].base = end;
			r[i].size = rend - end;
		} else {
			memmove(&r[i], &r[i + 1], (t->cnt - i - 1) * sizeof(*r));
			t->cnt--;
			i--;
		}
	}
	return 0;
}

/**
 * memblock_add() - register a range of usable RAM.
 * @base: physical start
 * @size: bytes
 *
 * Return: 0, or -EKDB_ENOMEM when the memory table is full.
 */
int memblock_add(u64 base, u64 size)
{
	return type_add(&mb_memory, base, size);
}

/**
 * memblock_remove() - forget a range of RAM (e.g. beyond what the direct map covers).
 * @base: physical start
 * @size: bytes
 *
 * Reservations are kept.  Must be called before page_alloc_init().
 *
 * Return: 0, or -EKDB_ENOMEM when splitting a region overflows the table.
 */
int memblock_remove(u64 base, u64 size)
{
	if (mb_handed_over) {
		printk(KERN_ERR "memblock: remove [%#lx+%#lx] after handover to the page allocator ignored\n",
		       base, size);
		return -EKDB_EINVAL;
	}
	return type_remove(&mb_memory, base, size);
}

/**
 * memblock_reserve() - mark a physical range as in use.
 * @base: physical start
 * @size: bytes
 *
 * The range may lie outside registered memory.  Reservations made after
 * the page allocator took over have no effect and are reported.
 *
 * Return: 0, or -EKDB_ENOMEM when the reserved table is full.
 */
int memblock_reserve(u64 base, u64 size)
{
	if (mb_handed_over) {
		printk(KERN_ERR "memblock: reserve [%#lx+%#lx] after handover to the page allocator ignored\n",
		       base, size);
		return -EKDB_EINVAL;
	}
	return type_add(&mb_reserved, base, size);
}

/**
 * memblock_free() - release a range reserved or allocated earlier.
 * @base: physical start
 * @size: bytes
 *
 * Return: 0, or -EKDB_ENOMEM when splitting a reservation overflows the table.
 */
int memblock_free(u64 base, u64 size)
{
	if (mb_handed_over) {
		printk(KERN_ERR "memblock: free [%#lx+%#lx] after handover to the page allocator ignored\n",
		       base, size);
		return -EKDB_EINVAL;
	}
	return type_remove(&mb_reserved, base, size);
}

/**
 * memblock_set_current_limit() - keep memblock_alloc() below @limit.
 * @limit: first physical address not to hand out (MEMBLOCK_ALLOC_ANYWHERE: none)
 */
void memblock_set_current_limit(u64 limit)
{
	mb_limit = limit;
}

/**
 * memblock_for_each_free_range() - call @fn for each memory range not reserved.
 * @fn: called with [base, end) in ascending order
 * @arg: passed through to @fn
 */
void memblock_for_each_free_range(void (*fn)(u64 base, u64 end, void *arg), void *arg)
{
	unsigned int m, k;

	for (m = 0; m < mb_memory.cnt; m++) {
		u64 cur = mb_memory.regions[m].base;
		u64 mend = range_end(cur, mb_memory.regions[m].size);

		for (k = 0; k < mb_reserved.cnt && cur < mend; k++) {
			u64 rb = mb_reserved.regions[k].base;
			u64 re = range_end(rb, mb_reserved.regions[k].size);

			if (re <= cur)
				continue;
			if (rb >= mend)
				break;
			if (rb > cur)
				fn(cur, rb, arg);
			cur = re;
		}
		if (cur < mend)
			fn(cur, mend, arg);
	}
}

struct alloc_search {
	u64 size, align, found;
};

static void alloc_candidate(u64 base, u64 end, void *arg)
{
	struct alloc_search *s = arg;
	u64 cand;

	end = MIN(end, mb_limit);
	if (end <= base || end - base < s->size)
		return;
	cand = ALIGN_DOWN(end - s->size, s->align);
	/* Ranges come in ascending order: the last fit is the highest. */
	if (cand >= base && cand != 0)
		s->found = cand;
}

/**
 * memblock_alloc() - allocate physical memory before the page allocator exists.
 * @size: bytes (not rounded)
 * @align: power of two (0 means PAGE_SIZE)
 *
 * Takes the highest free range that fits below the current limit and
 * reserves it.  The memory is not zeroed (it may not be mapped yet).
 *
 * Return: the physical address, or 0 when nothing fits, @align is not a
 * power of two, or the page allocator has already taken over.
 */
u64 memblock_alloc(u64 size, u64 align)
{
	struct alloc_search s = { .size = size, .align = align ? align : PAGE_SIZE };

	if (mb_handed_over) {
		printk(KERN_ERR "memblock: memblock_alloc(%#lx) after handover; use alloc_pages()/kmalloc()\n",
		       size);
		return 0;
	}
	if (!size || (s.align & (s.align - 1)))
		return 0;
	memblock_for_each_free_range(alloc_candidate, &s);
	if (!s.found) {
		printk(KERN_ERR "memblock: out of memory allocating %#lx bytes (align %#lx)\n",
		       size, s.align);
		return 0;
	}
	if (type_add(&mb_reserved, s.found, size))
		return 0;
	return s.found;
}

/**
 * memblock_init_from_bootinfo() - fill memblock from the loader's memory map.
 * @map: the entries (struct ekdb_bootinfo::mmap)
 * @count: how many
 *
 * USABLE ranges (rounded inward to pages) become memory; KERNEL and
 * BOOTDATA ranges become memory and are reserved (rounded outward); the
 * first MEMBLOCK_LOW_RESERVE bytes are reserved.  Other types are ignored.
 * Call once from setup_arch(), before any memblock_alloc().
 */
void memblock_init_from_bootinfo(const struct ekdb_mmap_entry *map, unsigned int count)
{
	unsigned int i;

	for (i = 0; i < count; i++) {
		u64 base = map[i].base, end = range_end(base, map[i].length);

		if (!map[i].length)
			continue;
		switch (map[i].type) {
		case EKDB_MEM_USABLE:
			base = ALIGN_UP(base, PAGE_SIZE);
			end = ALIGN_DOWN(end, PAGE_SIZE);
			if (end > base)
				memblock_add(base, end - base);
			break;
		case EKDB_MEM_KERNEL:
		case EKDB_MEM_BOOTDATA:
			base = ALIGN_DOWN(base, PAGE_SIZE);
			end = end > ~0UL - PAGE_SIZE ? ~0UL & PAGE_MASK : ALIGN_UP(end, PAGE_SIZE);
			memblock_add(base, end - base);
			type_add(&mb_reserved, base, end - base);
			if (map[i].type == EKDB_MEM_KERNEL)
				mb_kernel_bytes += end - base;
			else
				mb_bootdata_bytes += end - base;
			break;
		default:
			break;
		}
	}
	type_add(&mb_reserved, 0, MEMBLOCK_LOW_RESERVE);
}

static u64 type_size(const struct memblock_type *t)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < t->cnt; i++)
		sum += t->regions[i].size;
	return sum;
}

static void add_size(u64 base, u64 end, void *arg)
{
	*(u64 *)arg += end - base;
}

/** memblock_phys_mem_size() - bytes of RAM registered (free + reserved). */
u64 memblock_phys_mem_size(void)
{
	return type_size(&mb_memory);
}

/** memblock_reserved_size() - bytes reserved (including reservations outside RAM). */
u64 memblock_reserved_size(void)
{
	return type_size(&mb_reserved);
}

/** memblock_free_size() - bytes of RAM not reserved: what the page allocator gets. */
u64 memblock_free_size(void)
{
	u64 sum = 0;

	memblock_for_each_free_range(add_size, &sum);
	return sum;
}

/** memblock_kernel_size() - bytes of the kernel image (EKDB_MEM_KERNEL). */
u64 memblock_kernel_size(void)
{
	return mb_kernel_bytes;
}

/** memblock_bootdata_size() - bytes of loader data (EKDB_MEM_BOOTDATA). */
u64 memblock_bootdata_size(void)
{
	return mb_bootdata_bytes;
}

/** memblock_start_of_DRAM() - lowest registered RAM address (0 if none). */
u64 memblock_start_of_DRAM(void)
{
	return mb_memory.cnt ? mb_memory.regions[0].base : 0;
}

/** memblock_end_of_DRAM() - end of the highest registered RAM range (0 if none). */
u64 memblock_end_of_DRAM(void)
{
	const struct memblock_region *r;

	if (!mb_memory.cnt)
		return 0;
	r = &mb_memory.regions[mb_memory.cnt - 1];
	return range_end(r->base, r->size);
}

/** memblock_memory() - the memory table, read-only. */
const struct memblock_type *memblock_memory(void)
{
	return &mb_memory;
}

/** memblock_reserved() - the reserved table, read-only. */
const struct memblock_type *memblock_reserved(void)
{
	return &mb_reserved;
}

/**
 * memblock_handover() - the page allocator now owns the free ranges.
 *
 * Called by page_alloc_init(); afterwards memblock_alloc(),
 * memblock_reserve() and memblock_free() refuse and report.
 */
void memblock_handover(void)
{
	mb_handed_over = true;
}

/** memblock_is_handed_over() - true once page_alloc_init() has run. */
bool memblock_is_handed_over(void)
{
	return mb_handed_over;
}

/**
 * memblock_reset() - forget everything (host tests start each case with it).
 */
void memblock_reset(void)
{
	mb_memory.cnt = 0;
	mb_reserved.cnt = 0;
	mb_limit = MEMBLOCK_ALLOC_ANYWHERE;
	mb_kernel_bytes = 0;
	mb_bootdata_bytes = 0;
	mb_handed_over = false;
}

static void dump_type(const struct memblock_type *t)
{
	unsigned int i;

	printk(KERN_DEBUG " %s.cnt  = 0x%x\n", t->name, t->cnt);
	for (i = 0; i < t->cnt; i++) {
		const struct memblock_region *r = &t->regions[i];

		printk(KERN_DEBUG " %s[0x%x]\t[0x%016lx-0x%016lx], 0x%016lx bytes\n",
		       t->name, i, r->base, range_end(r->base, r->size) - 1, r->size);
	}
}

/**
 * memblock_dump() - print both tables at KERN_DEBUG, like memblock=debug.
 */
void memblock_dump(void)
{
	printk(KERN_DEBUG "MEMBLOCK configuration:\n");
	printk(KERN_DEBUG " memory size = 0x%016lx reserved size = 0x%016lx free = 0x%016lx\n",
	       memblock_phys_mem_size(), memblock_reserved_size(), memblock_free_size());
	dump_type(&mb_memory);
	dump_type(&mb_reserved);
}
