/* SPDX-License-Identifier: GPL-2.0 */
/* page_alloc.h - the buddy page allocator (orders 0..MAX_ORDER-1 of 4 KiB pages). */
#ifndef KERNEL_PAGE_ALLOC_H
#define KERNEL_PAGE_ALLOC_H

#include <ekdb/types.h>

/* Orders 0 .. MAX_ORDER - 1: the largest block is 4 MiB. */
#define MAX_ORDER	11

/* struct page flags (owned by the page allocator). */
#define PG_reserved	0x01	/* not managed: hole, firmware, kernel, metadata */
#define PG_buddy	0x02	/* head of a free block on a free list */
#define PG_head		0x04	/* head of an allocated block */

/* struct page kind (owned by whoever allocated the block, reset on free). */
#define PAGE_KIND_NONE		0
#define PAGE_KIND_SLAB		1	/* part of a kmalloc slab */
#define PAGE_KIND_KMALLOC	2	/* head of a large kmalloc allocation */

#define PAGE_NONE	0xffffffffU	/* "no page" in the free-list links */

/*
 * struct page - metadata for one 4 KiB physical page (16 bytes).
 * The array lives in memory taken from memblock by page_alloc_init().
 * Free-list links are indexes into that array, so writes to freed pages
 * cannot corrupt the allocator.
 */
struct page {
	u32 next, prev;		/* free list links while PG_buddy */
	u8 flags;		/* PG_* */
	u8 order;		/* block order while PG_buddy or PG_head */
	u8 kind;		/* PAGE_KIND_*, set by the block's user */
	u8 pad;
	u32 private;		/* free for the block's user (kmalloc) */
};

void page_alloc_init(void);
void *alloc_pages(unsigned int order);
void *alloc_pages_nowait(unsigned int order);
void free_reserved_range(u64 phys_start, u64 phys_end);
void free_pages(void *addr, unsigned int order);
void *__get_free_pages(unsigned int order);
void *__get_free_page(void);
void free_page(void *addr);

unsigned long nr_free_pages(void);
unsigned long nr_managed_pages(void);
unsigned long nr_free_blocks(unsigned int order);
unsigned long page_alloc_bad_frees(void);
void page_alloc_dump(void);

struct page *virt_to_page(const void *addr);
void *page_address(const struct page *page);
unsigned int get_order(unsigned long size);

#endif /* KERNEL_PAGE_ALLOC_H */
