/* SPDX-License-Identifier: GPL-2.0 */
/* slab.h - kmalloc: slab caches for 16..2048 bytes, whole pages above that. */
#ifndef KERNEL_SLAB_H
#define KERNEL_SLAB_H

#include <ekdb/types.h>

#define KMALLOC_MIN_SIZE	16
#define KMALLOC_MAX_CACHE_SIZE	2048
#define KMALLOC_NR_CACHES	8	/* 16, 32, ..., 2048 */

/* What kmalloc(0) returns: not NULL, not dereferenceable, kfree() accepts it. */
#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(p)	((unsigned long)(p) <= (unsigned long)ZERO_SIZE_PTR)

/* Byte written over freed slab objects; checked again when they are reused. */
#define POISON_FREE		0x6b

struct kmalloc_cache_info {
	unsigned int size;		/* object size */
	unsigned int objs_per_slab;
	unsigned int slab_order;
	unsigned long slabs;		/* slabs currently held */
	unsigned long active_objs;	/* objects currently allocated */
	unsigned long total_allocs;	/* kmalloc calls served, ever */
};

struct kmalloc_info {
	struct kmalloc_cache_info caches[KMALLOC_NR_CACHES];
	unsigned long large_allocs;	/* large allocations currently live */
	unsigned long large_pages;	/* pages they hold */
	unsigned long bad_frees;	/* kfree() calls rejected */
	unsigned long poison_errors;	/* freed objects found modified */
	unsigned long failed;		/* kmalloc calls that returned NULL */
};

void kmalloc_init(void);
void *kmalloc(size_t size);
void *kzalloc(size_t size);
void *kcalloc(size_t n, size_t size);
void *krealloc(const void *p, size_t new_size);
void kfree(const void *p);
size_t ksize(const void *p);
void kmalloc_get_info(struct kmalloc_info *info);
void kmalloc_stats(void);

#endif /* KERNEL_SLAB_H */
