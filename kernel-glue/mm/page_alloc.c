/* SPDX-License-Identifier: GPL-2.0 */
/* page_alloc.c - buddy allocator for 4 KiB pages, initialised from memblock's free ranges. */

#include <ekdb/types.h>
#include <ekdb/ekdb.h>
#include <ekdb/string.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>

/*
 * One zone covering [base_pfn, base_pfn + nr_pages).  base_pfn is aligned
 * to the largest block, so an index's alignment equals the pfn's and a
 * block's buddy is simply idx ^ (1 << order).  Pages outside the free
 * ranges memblock handed over are PG_reserved and never merge.
 */
static DEFINE_SPINLOCK(zone_lock);
static struct page *mem_map;
static u64 base_pfn;
static u32 nr_pages;
static u32 free_head[MAX_ORDER];
static unsigned long free_blocks[MAX_ORDER];
static unsigned long nr_free;
static unsigned long nr_managed;
static unsigned long nr_bad_frees;

static __ekdb_nobp void list_add_head(u32 idx, unsigned int order)
{
	struct page *p = &mem_map[idx];

	p->prev = PAGE_NONE;
	p->next = free_head[order];
	if (p->next != PAGE_NONE)
		mem_map[p->next].prev = idx;
	free_head[order] = idx;
	free_blocks[order]++;
}

static __ekdb_nobp void list_del_entry(u32 idx, unsigned int order)
{
	struct page *p = &mem_map[idx];

	if (p->prev != PAGE_NONE)
		mem_map[p->prev].next = p->next;
	else
		free_head[order] = p->next;
	if (p->next != PAGE_NONE)
		mem_map[p->next].prev = p->prev;
	p->next = p->prev = PAGE_NONE;
	free_blocks[order]--;
}

/* Put the block at @idx on the free lists, merging with free buddies.  Lock held. */
static void free_block_locked(u32 idx, unsigned int order)
{
	while (order < MAX_ORDER - 1) {
		u32 buddy = idx ^ (1U << order);
		struct page *b;

		if (buddy >= nr_pages)
			break;
		b = &mem_map[buddy];
		if (!(b->flags & PG_buddy) || b->order != order)
			break;
		list_del_entry(buddy, order);
		b->flags = 0;
		b->order = 0;
		idx &= ~(1U << order);
		order++;
	}
	mem_map[idx].flags = PG_buddy;
	mem_map[idx].order = order;
	list_add_head(idx, order);
}

static void add_free_range(u64 base, u64 end, void *arg)
{
	u64 s = PFN_UP(base) - base_pfn;	/* base_pfn <= every free pfn */
	u64 e = MIN(PFN_DOWN(end) - base_pfn, (u64)nr_pages);
	u64 i;

	while (s < e) {
		unsigned int order = MAX_ORDER - 1;

		while (order && ((s & ((1UL << order) - 1)) || s + (1UL << order) > e))
			order--;
		for (i = s; i < s + (1UL << order); i++)
			mem_map[i].flags = 0;
		nr_managed += 1UL << order;
		nr_free += 1UL << order;
		free_block_locked((u32)s, order);
		s += 1UL << order;
	}
}

/**
 * page_alloc_init() - take over memblock's free memory.
 *
 * Allocates the struct page array with memblock_alloc(), hands memblock
 * over (no more memblock_alloc()), and puts every free page on the buddy
 * free lists in the largest aligned blocks possible.  Calling it again
 * starts from scratch (host tests do).
 */
void page_alloc_init(void)
{
	u64 start = memblock_start_of_DRAM(), end = memblock_end_of_DRAM();
	u64 end_pfn, span, meta;
	unsigned long flags;
	unsigned int o;
	u32 i;

	spin_lock_irqsave(&zone_lock, flags);
	mem_map = NULL;
	nr_pages = 0;
	nr_free = nr_managed = nr_bad_frees = 0;
	for (o = 0; o < MAX_ORDER; o++) {
		free_head[o] = PAGE_NONE;
		free_blocks[o] = 0;
	}
	spin_unlock_irqrestore(&zone_lock, flags);

	if (!end) {
		printk(KERN_ERR "page_alloc: memblock has no memory\n");
		return;
	}
	base_pfn = ALIGN_DOWN(PFN_DOWN(start), 1UL << (MAX_ORDER - 1));
	end_pfn = PFN_UP(end);
	span = end_pfn - base_pfn;
	if (span >= PAGE_NONE) {
		printk(KERN_WARNING "page_alloc: only the first %u pages of memory are managed\n",
		       PAGE_NONE - 1);
		span = PAGE_NONE - 1;
	}
	meta = memblock_alloc(PAGE_ALIGN(span * sizeof(struct page)), PAGE_SIZE);
	if (!meta) {
		printk(KERN_ERR "page_alloc: no memory for %lu struct pages\n", span);
		return;
	}

	spin_lock_irqsave(&zone_lock, flags);
	mem_map = __va(meta);
	nr_pages = (u32)span;
	memset(mem_map, 0, span * sizeof(struct page));
	for (i = 0; i < nr_pages; i++) {
		mem_map[i].flags = PG_reserved;
		mem_map[i].next = mem_map[i].prev = PAGE_NONE;
	}
	memblock_handover();
	memblock_for_each_free_range(add_free_range, NULL);
	spin_unlock_irqrestore(&zone_lock, flags);
}

/**
 * alloc_pages() - allocate 2^@order physically contiguous pages.
 * @order: 0 .. MAX_ORDER - 1
 *
 * Return: the direct-map address of the first page (aligned to its own
 * size, physically), or NULL when no block is free or @order is too big.
 * The memory is not zeroed.
 */
/* Take a 2^@order block off the free lists; zone_lock held. */
static __ekdb_nobp void *alloc_pages_locked(unsigned int order)
{
	unsigned int o;
	struct page *p;
	u32 idx;

	for (o = order; o < MAX_ORDER && free_head[o] == PAGE_NONE; o++)
		;
	if (o == MAX_ORDER || !mem_map)
		return NULL;
	idx = free_head[o];
	list_del_entry(idx, o);
	while (o > order) {
		u32 half;

		o--;
		half = idx + (1U << o);
		mem_map[half].flags = PG_buddy;
		mem_map[half].order = o;
		list_add_head(half, o);
	}
	p = &mem_map[idx];
	p->flags = PG_head;
	p->order = order;
	p->kind = PAGE_KIND_NONE;
	p->private = 0;
	nr_free -= 1UL << order;
	return __va(PFN_PHYS(base_pfn + idx));
}

void *alloc_pages(unsigned int order)
{
	unsigned long flags;
	void *p;

	if (order >= MAX_ORDER)
		return NULL;
	spin_lock_irqsave(&zone_lock, flags);
	p = alloc_pages_locked(order);
	spin_unlock_irqrestore(&zone_lock, flags);
	return p;
}

/**
 * alloc_pages_nowait() - alloc_pages() for a context that must not wait
 * on the allocator's lock (the debugger, with every other CPU stopped
 * where it was, maybe inside the allocator): NULL when the lock is held.
 */
__ekdb_nobp void *alloc_pages_nowait(unsigned int order)
{
	unsigned long flags;
	void *p;

	if (order >= MAX_ORDER)
		return NULL;
	flags = __spin_irq_save();
	if (!spin_trylock(&zone_lock)) {
		__spin_irq_restore(flags);
		return NULL;
	}
	p = alloc_pages_locked(order);
	spin_unlock(&zone_lock);
	__spin_irq_restore(flags);
	return p;
}

/**
 * free_reserved_range() - pages the kernel kept for itself (part of its
 * image, e.g. the early debugger's storage) become free memory.
 * @phys_start, @phys_end: page-aligned physical range
 */
void free_reserved_range(u64 phys_start, u64 phys_end)
{
	unsigned long flags;

	spin_lock_irqsave(&zone_lock, flags);
	if (mem_map && phys_end > phys_start && PFN_DOWN(phys_start) >= base_pfn)
		add_free_range(phys_start, phys_end, NULL);
	spin_unlock_irqrestore(&zone_lock, flags);
}

/**
 * free_pages() - give back a block from alloc_pages().
 * @addr: the address alloc_pages() returned (NULL is ignored)
 * @order: the order it was allocated with
 *
 * A double free, a wrong order, or an address that is not the start of
 * an allocated block is reported at KERN_ERR, counted, and otherwise
 * ignored: the allocator's state is not touched.
 */
void free_pages(void *addr, unsigned int order)
{
	const char *why = NULL;
	unsigned long flags;
	int had = -1;	/* the block's real order, when known */
	u64 phys = __pa(addr), pfn = PFN_DOWN(phys), idx = pfn - base_pfn;

	if (!addr)
		return;
	spin_lock_irqsave(&zone_lock, flags);
	if (order >= MAX_ORDER) {
		why = "order too large";
	} else if (!mem_map || (phys & ~PAGE_MASK) || pfn < base_pfn || idx >= nr_pages) {
		why = "not a page allocator address";
	} else if (idx & ((1UL << order) - 1)) {
		why = "address not aligned to the order";
	} else if (mem_map[idx].flags & PG_buddy) {
		why = "double free";
	} else if (mem_map[idx].flags & PG_reserved) {
		why = "page is reserved, never allocated";
	} else if (!(mem_map[idx].flags & PG_head)) {
		why = "not allocated (double free, or inside a block)";
	} else if (mem_map[idx].order != order) {
		why = "order mismatch";
	} else {
		struct page *p = &mem_map[idx];

		p->flags = 0;
		p->kind = PAGE_KIND_NONE;
		p->private = 0;
		nr_free += 1UL << order;
		free_block_locked((u32)idx, order);
	}
	if (why) {
		nr_bad_frees++;
		if (mem_map && idx < nr_pages && (mem_map[idx].flags & PG_head))
			had = mem_map[idx].order;
	}
	spin_unlock_irqrestore(&zone_lock, flags);
	if (why && had >= 0)
		printk(KERN_ERR "free_pages: %#lx order %u: %s (allocated as order %d)\n",
		       (unsigned long)addr, order, why, had);
	else if (why)
		printk(KERN_ERR "free_pages: %#lx order %u: %s\n", (unsigned long)addr, order, why);
}

/** __get_free_pages() - alloc_pages() under its Linux name. @order: block order */
void *__get_free_pages(unsigned int order)
{
	return alloc_pages(order);
}

/** __get_free_page() - allocate one page. Return: its address or NULL. */
void *__get_free_page(void)
{
	return alloc_pages(0);
}

/** free_page() - free one page from __get_free_page(). @addr: the page */
void free_page(void *addr)
{
	free_pages(addr, 0);
}

/** nr_free_pages() - pages currently on the free lists. */
__ekdb_nobp unsigned long nr_free_pages(void)
{
	return READ_ONCE(nr_free);
}

/** nr_managed_pages() - pages the allocator got from memblock. */
__ekdb_nobp unsigned long nr_managed_pages(void)
{
	return READ_ONCE(nr_managed);
}

/** nr_free_blocks() - free blocks of @order (0 for an invalid order). */
unsigned long nr_free_blocks(unsigned int order)
{
	return order < MAX_ORDER ? READ_ONCE(free_blocks[order]) : 0;
}

/** page_alloc_bad_frees() - how many free_pages() calls were rejected. */
unsigned long page_alloc_bad_frees(void)
{
	return READ_ONCE(nr_bad_frees);
}

/**
 * virt_to_page() - the struct page of a direct-map address.
 * @addr: any address inside the page
 *
 * Return: the struct page, or NULL when @addr is outside managed memory.
 */
struct page *virt_to_page(const void *addr)
{
	u64 pfn = PFN_DOWN(__pa(addr));

	if (!mem_map || pfn < base_pfn || pfn - base_pfn >= nr_pages)
		return NULL;
	return &mem_map[pfn - base_pfn];
}

/** page_address() - the direct-map address of @page. */
void *page_address(const struct page *page)
{
	return __va(PFN_PHYS(base_pfn + (u64)(page - mem_map)));
}

/** get_order() - smallest order whose block holds @size bytes (may be >= MAX_ORDER). */
unsigned int get_order(unsigned long size)
{
	unsigned int order = 0;

	while (order < 63 - PAGE_SHIFT && (PAGE_SIZE << order) < size)
		order++;
	return order;
}

/**
 * page_alloc_dump() - print free blocks per order, like /proc/buddyinfo.
 */
void page_alloc_dump(void)
{
	unsigned long flags, counts[MAX_ORDER], free, managed;
	unsigned int o;

	spin_lock_irqsave(&zone_lock, flags);
	for (o = 0; o < MAX_ORDER; o++)
		counts[o] = free_blocks[o];
	free = nr_free;
	managed = nr_managed;
	spin_unlock_irqrestore(&zone_lock, flags);

	printk(KERN_INFO "Node 0, zone   Normal");
	for (o = 0; o < MAX_ORDER; o++)
		printk(KERN_CONT " %6lu", counts[o]);
	printk(KERN_CONT "\n");
	printk(KERN_INFO "page_alloc: %lu of %lu pages free (%luK of %luK)\n",
	       free, managed, free * (PAGE_SIZE / SZ_1K), managed * (PAGE_SIZE / SZ_1K));
}
