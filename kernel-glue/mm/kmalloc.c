/* SPDX-License-Identifier: GPL-2.0 */
/* kmalloc.c - general-purpose kernel allocation: slab caches up to 2048 bytes, pages above. */

#include <ekdb/types.h>
#include <ekdb/string.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>

/*
 * A slab is a block from alloc_pages() holding objects of one size
 * class.  Its header sits at the start of the block; objects follow at
 * an offset aligned to the object size, so every object is aligned to
 * its size class.  Allocation state is a bitmap in the header (nothing is
 * linked through free objects, so a write after free cannot corrupt the
 * allocator; it is caught by the poison check when the object is reused).
 *
 * Every page of a slab has kind PAGE_KIND_SLAB and private = its distance
 * from the slab's first page, so kfree() finds the header from any
 * object.  A large allocation (> KMALLOC_MAX_CACHE_SIZE) is a whole block
 * whose first page has kind PAGE_KIND_KMALLOC and private = the size asked.
 */

#define SLAB_MAGIC		0x51ab0b1eU
#define SLAB_HDR_SIZE		64
#define SLAB_MAX_OBJS		256
#define SLAB_MIN_OBJS		8	/* grow the slab order until this many fit */
#define SLAB_MAX_ORDER		3

struct kmem_cache;

struct slab {
	u32 magic;
	u16 inuse;
	u16 nobjs;
	struct kmem_cache *cache;
	struct slab *next, *prev;
	u64 used[SLAB_MAX_OBJS / 64];	/* bit set: object allocated (or absent) */
};

_Static_assert(sizeof(struct slab) <= SLAB_HDR_SIZE, "slab header too big");

struct kmem_cache {
	spinlock_t lock;
	unsigned int size;		/* object size (power of two) */
	unsigned int order;		/* slab block order */
	unsigned int nobjs;		/* objects per slab */
	unsigned int first;		/* offset of object 0 in the slab */
	struct slab *partial;		/* slabs with at least one free object */
	struct slab *full;		/* slabs with none */
	unsigned long nr_slabs;
	unsigned long active;
	unsigned long total_allocs;
};

static struct kmem_cache caches[KMALLOC_NR_CACHES];
static bool kmalloc_ready;
static unsigned long large_allocs, large_pages, bad_frees, poison_errors, failed_allocs;

static void stat_add(unsigned long *v, long d)
{
	__atomic_fetch_add(v, d, __ATOMIC_RELAXED);
}

/**
 * kmalloc_init() - set up the size-class caches.
 *
 * Called by mm_init() after page_alloc_init(); kmalloc() calls it itself
 * if it has not run.  Calling it again forgets every slab (host tests).
 */
void kmalloc_init(void)
{
	unsigned int i;

	for (i = 0; i < KMALLOC_NR_CACHES; i++) {
		struct kmem_cache *c = &caches[i];
		unsigned int order = 0, first, nobjs;

		c->size = KMALLOC_MIN_SIZE << i;
		first = MAX(SLAB_HDR_SIZE, c->size);
		for (;;) {
			nobjs = (unsigned int)(((PAGE_SIZE << order) - first) / c->size);
			if (nobjs >= SLAB_MIN_OBJS || order == SLAB_MAX_ORDER)
				break;
			order++;
		}
		spin_lock_init(&c->lock);
		c->order = order;
		c->first = first;
		c->nobjs = MIN(nobjs, (unsigned int)SLAB_MAX_OBJS);
		c->partial = c->full = NULL;
		c->nr_slabs = c->active = c->total_allocs = 0;
	}
	large_allocs = large_pages = bad_frees = poison_errors = failed_allocs = 0;
	kmalloc_ready = true;
}

static struct kmem_cache *cache_for(size_t size)
{
	unsigned int i = 0;

	while ((size_t)(KMALLOC_MIN_SIZE << i) < size)
		i++;
	return &caches[i];
}

static void slab_unlink(struct slab **head, struct slab *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		*head = s->next;
	if (s->next)
		s->next->prev = s->prev;
	s->next = s->prev = NULL;
}

static void slab_push(struct slab **head, struct slab *s)
{
	s->prev = NULL;
	s->next = *head;
	if (*head)
		(*head)->prev = s;
	*head = s;
}

/* Allocate and format a new slab for @c.  Cache lock held. */
static struct slab *new_slab(struct kmem_cache *c)
{
	struct slab *s = alloc_pages(c->order);
	struct page *pg;
	unsigned int i;

	if (!s)
		return NULL;
	memset(s, 0, sizeof(*s));
	s->magic = SLAB_MAGIC;
	s->nobjs = (u16)c->nobjs;
	s->cache = c;
	for (i = c->nobjs; i < SLAB_MAX_OBJS; i++)
		s->used[i / 64] |= 1ULL << (i % 64);
	memset((char *)s + c->first, POISON_FREE, (size_t)c->nobjs * c->size);
	pg = virt_to_page(s);
	for (i = 0; i < (1U << c->order); i++) {
		pg[i].kind = PAGE_KIND_SLAB;
		pg[i].private = i;
	}
	c->nr_slabs++;
	return s;
}

/* Return the first byte of @obj whose free poison was overwritten, or NULL. */
static const u8 *poison_damage(const u8 *obj, unsigned int size)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		if (obj[i] != POISON_FREE)
			return obj + i;
	return NULL;
}

static void *cache_alloc(struct kmem_cache *c)
{
	unsigned long flags;
	struct slab *s;
	unsigned int w, idx = 0;
	const u8 *bad;
	u8 *obj;

	spin_lock_irqsave(&c->lock, flags);
	s = c->partial;
	if (!s) {
		s = new_slab(c);
		if (!s) {
			spin_unlock_irqrestore(&c->lock, flags);
			return NULL;
		}
		slab_push(&c->partial, s);
	}
	for (w = 0; w < SLAB_MAX_OBJS / 64; w++) {
		if (~s->used[w]) {
			idx = w * 64 + (unsigned int)__builtin_ctzll(~s->used[w]);
			break;
		}
	}
	s->used[idx / 64] |= 1ULL << (idx % 64);
	if (++s->inuse == s->nobjs) {
		slab_unlink(&c->partial, s);
		slab_push(&c->full, s);
	}
	c->active++;
	c->total_allocs++;
	spin_unlock_irqrestore(&c->lock, flags);

	obj = (u8 *)s + c->first + (size_t)idx * c->size;
	bad = poison_damage(obj, c->size);
	if (bad) {
		stat_add(&poison_errors, 1);
		printk(KERN_ERR "kmalloc-%u: object %#lx was written after it was freed (byte %#lx is %#x)\n",
		       c->size, (unsigned long)obj, (unsigned long)(bad - obj), *bad);
	}
	return obj;
}

static void *large_alloc(size_t size)
{
	unsigned int order = get_order(size);
	struct page *pg;
	void *p;

	if (order >= MAX_ORDER)
		return NULL;
	p = alloc_pages(order);
	if (!p)
		return NULL;
	pg = virt_to_page(p);
	pg->kind = PAGE_KIND_KMALLOC;
	pg->private = (u32)size;
	stat_add(&large_allocs, 1);
	stat_add(&large_pages, 1L << order);
	return p;
}

/**
 * kmalloc() - allocate @size bytes.
 * @size: bytes; 0 gives ZERO_SIZE_PTR
 *
 * Sizes up to KMALLOC_MAX_CACHE_SIZE come from the power-of-two caches
 * and are aligned to their class size; larger ones are whole page blocks
 * (page aligned) up to 2^(MAX_ORDER-1) pages.  Usable from any context
 * that may take a spinlock; never sleeps.
 *
 * Return: the memory (not zeroed), or NULL when memory is exhausted or
 * @size is too large.
 */
void *kmalloc(size_t size)
{
	void *p;

	if (unlikely(!kmalloc_ready))
		kmalloc_init();
	if (!size)
		return ZERO_SIZE_PTR;
	if (size <= KMALLOC_MAX_CACHE_SIZE)
		p = cache_alloc(cache_for(size));
	else
		p = large_alloc(size);
	if (!p)
		stat_add(&failed_allocs, 1);
	return p;
}

/**
 * kzalloc() - kmalloc() and zero the memory.
 * @size: bytes
 *
 * Return: zeroed memory, ZERO_SIZE_PTR for 0, or NULL.
 */
void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (!ZERO_OR_NULL_PTR(p))
		memset(p, 0, size);
	return p;
}

/**
 * kcalloc() - allocate a zeroed array of @n elements of @size bytes.
 * @n: element count
 * @size: element size
 *
 * Return: zeroed memory, or NULL (also when @n * @size overflows).
 */
void *kcalloc(size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kzalloc(n * size);
}

static void report_bad_free(const void *p, const char *why, void *caller)
{
	stat_add(&bad_frees, 1);
	printk(KERN_ERR "kfree: bad pointer %#lx (caller %#lx): %s\n",
	       (unsigned long)p, (unsigned long)caller, why);
}

/*
 * Find the slab and object index of @p.  Return NULL and set *why when @p
 * is not a live kmalloc object start.  Takes and returns with the cache
 * lock held on success (flags in *flagsp).
 */
static struct slab *slab_of(const void *p, struct page *pg, unsigned int *idxp,
			    unsigned long *flagsp, const char **why)
{
	struct slab *s = page_address(pg - pg->private);
	struct kmem_cache *c = s->cache;
	unsigned long off;
	unsigned int idx;

	if (s->magic != SLAB_MAGIC || c < caches || c >= caches + KMALLOC_NR_CACHES) {
		*why = "slab header is corrupted";
		return NULL;
	}
	spin_lock_irqsave(&c->lock, *flagsp);
	off = (unsigned long)((const char *)p - (const char *)s);
	idx = (unsigned int)((off - c->first) / c->size);
	if (off < c->first || (off - c->first) % c->size || idx >= c->nobjs) {
		*why = "not the start of an object";
	} else if (!(s->used[idx / 64] & (1ULL << (idx % 64)))) {
		*why = "double free";
	} else {
		*idxp = idx;
		return s;
	}
	spin_unlock_irqrestore(&c->lock, *flagsp);
	return NULL;
}

static void slab_free(struct slab *s, unsigned int idx, unsigned long flags)
{
	struct kmem_cache *c = s->cache;
	struct page *pg;
	unsigned int i;

	memset((u8 *)s + c->first + (size_t)idx * c->size, POISON_FREE, c->size);
	s->used[idx / 64] &= ~(1ULL << (idx % 64));
	c->active--;
	if (s->inuse-- == s->nobjs) {
		slab_unlink(&c->full, s);
		slab_push(&c->partial, s);
	}
	if (s->inuse) {
		spin_unlock_irqrestore(&c->lock, flags);
		return;
	}
	/* Empty: the pages go back to the page allocator. */
	slab_unlink(&c->partial, s);
	c->nr_slabs--;
	s->magic = 0;
	pg = virt_to_page(s);
	for (i = 0; i < (1U << c->order); i++) {
		pg[i].kind = PAGE_KIND_NONE;
		pg[i].private = 0;
	}
	spin_unlock_irqrestore(&c->lock, flags);
	free_pages(s, c->order);
}

/**
 * kfree() - free memory from kmalloc()/kzalloc()/kcalloc()/krealloc().
 * @p: the pointer; NULL and ZERO_SIZE_PTR are ignored
 *
 * Pointers kmalloc did not hand out (including a second free of the same
 * pointer) are detected, reported at KERN_ERR with the caller's address,
 * counted in kmalloc_info.bad_frees and otherwise ignored.
 */
void kfree(const void *p)
{
	void *caller = __builtin_return_address(0);
	const char *why = "not allocated by kmalloc (double free?)";
	unsigned long flags;
	unsigned int idx;
	struct page *pg;
	struct slab *s;

	if (ZERO_OR_NULL_PTR(p))
		return;
	pg = virt_to_page(p);
	if (!pg) {
		report_bad_free(p, "outside the memory kmalloc manages", caller);
	} else if (pg->kind == PAGE_KIND_KMALLOC && (pg->flags & PG_head)) {
		if (p != page_address(pg)) {
			report_bad_free(p, "inside a large allocation", caller);
			return;
		}
		stat_add(&large_allocs, -1);
		stat_add(&large_pages, -(1L << pg->order));
		pg->kind = PAGE_KIND_NONE;
		free_pages((void *)p, pg->order);
	} else if (pg->kind == PAGE_KIND_SLAB) {
		s = slab_of(p, pg, &idx, &flags, &why);
		if (s)
			slab_free(s, idx, flags);
		else
			report_bad_free(p, why, caller);
	} else {
		report_bad_free(p, why, caller);
	}
}

/**
 * ksize() - usable size of a kmalloc allocation.
 * @p: a pointer from kmalloc()
 *
 * Return: the size class or block size, or 0 for NULL, ZERO_SIZE_PTR or a
 * pointer kmalloc does not know.
 */
size_t ksize(const void *p)
{
	struct page *pg;

	if (ZERO_OR_NULL_PTR(p))
		return 0;
	pg = virt_to_page(p);
	if (!pg)
		return 0;
	if (pg->kind == PAGE_KIND_KMALLOC && (pg->flags & PG_head) && p == page_address(pg))
		return PAGE_SIZE << pg->order;
	if (pg->kind == PAGE_KIND_SLAB) {
		struct slab *s = page_address(pg - pg->private);

		if (s->magic == SLAB_MAGIC)
			return s->cache->size;
	}
	return 0;
}

/**
 * krealloc() - resize an allocation, keeping its contents.
 * @p: the old pointer (NULL: behaves as kmalloc())
 * @new_size: bytes (0: frees @p and returns ZERO_SIZE_PTR)
 *
 * Return: the new pointer, or NULL (then @p is untouched and still valid).
 */
void *krealloc(const void *p, size_t new_size)
{
	size_t old;
	void *n;

	if (ZERO_OR_NULL_PTR(p))
		return kmalloc(new_size);
	if (!new_size) {
		kfree(p);
		return ZERO_SIZE_PTR;
	}
	old = ksize(p);
	if (!old) {
		report_bad_free(p, "krealloc of a pointer kmalloc does not know",
				__builtin_return_address(0));
		return NULL;
	}
	if (new_size <= old)
		return (void *)p;
	n = kmalloc(new_size);
	if (!n)
		return NULL;
	memcpy(n, p, old);
	kfree(p);
	return n;
}

/**
 * kmalloc_get_info() - snapshot of kmalloc's counters.
 * @info: filled in
 */
void kmalloc_get_info(struct kmalloc_info *info)
{
	unsigned long flags;
	unsigned int i;

	memset(info, 0, sizeof(*info));
	if (!kmalloc_ready)
		return;
	for (i = 0; i < KMALLOC_NR_CACHES; i++) {
		struct kmem_cache *c = &caches[i];
		struct kmalloc_cache_info *ci = &info->caches[i];

		spin_lock_irqsave(&c->lock, flags);
		ci->size = c->size;
		ci->objs_per_slab = c->nobjs;
		ci->slab_order = c->order;
		ci->slabs = c->nr_slabs;
		ci->active_objs = c->active;
		ci->total_allocs = c->total_allocs;
		spin_unlock_irqrestore(&c->lock, flags);
	}
	info->large_allocs = READ_ONCE(large_allocs);
	info->large_pages = READ_ONCE(large_pages);
	info->bad_frees = READ_ONCE(bad_frees);
	info->poison_errors = READ_ONCE(poison_errors);
	info->failed = READ_ONCE(failed_allocs);
}

/**
 * kmalloc_stats() - print the caches like /proc/slabinfo, and the counters.
 */
void kmalloc_stats(void)
{
	struct kmalloc_info info;
	unsigned int i;

	kmalloc_get_info(&info);
	printk(KERN_INFO "# name          <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> <slabs>\n");
	for (i = 0; i < KMALLOC_NR_CACHES; i++) {
		const struct kmalloc_cache_info *ci = &info.caches[i];

		printk(KERN_INFO "kmalloc-%-7u %13lu %12lu %9u %12u %14u %7lu\n", ci->size,
		       ci->active_objs, ci->slabs * ci->objs_per_slab, ci->size,
		       ci->objs_per_slab, 1U << ci->slab_order, ci->slabs);
	}
	printk(KERN_INFO "kmalloc: %lu large allocations in %lu pages, %lu failed, "
	       "%lu bad frees, %lu use-after-free poison hits\n",
	       info.large_allocs, info.large_pages, info.failed, info.bad_frees,
	       info.poison_errors);
}
