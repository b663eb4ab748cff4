/* SPDX-License-Identifier: GPL-2.0 */
/* selftest.c - boot-time self-test of the page allocator and kmalloc ("test_alloc"). */

#include <ekdb/types.h>
#include <ekdb/string.h>
#include <kernel/mm.h>
#include <kernel/printk.h>

#define ST_OBJS		1024

static void *st_ptr[ST_OBJS];
static size_t st_size[ST_OBJS];

static const size_t st_sizes[] = {
	1, 8, 16, 17, 32, 48, 64, 100, 128, 200, 256, 500, 512, 1000,
	1024, 2000, 2048, 2049, 4096, 5000, 16384, 65536,
};

static u64 st_rand_state;

static u64 st_rand(void)
{
	u64 x = st_rand_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	st_rand_state = x;
	return x;
}

static u8 st_pattern(unsigned int i, size_t off)
{
	return (u8)(i * 131 + off * 7 + 0x5a);
}

/* The alignment kmalloc promises for @size. */
static unsigned long st_align(size_t size)
{
	unsigned long a = KMALLOC_MIN_SIZE;

	if (size > KMALLOC_MAX_CACHE_SIZE)
		return PAGE_SIZE;
	while (a < size)
		a <<= 1;
	return a;
}

static const char *st_patterns(void)
{
	unsigned int i, j;
	size_t off;

	for (i = 0; i < ST_OBJS; i++) {
		st_size[i] = st_sizes[i % ARRAY_SIZE(st_sizes)];
		st_ptr[i] = kmalloc(st_size[i]);
		if (!st_ptr[i])
			return "kmalloc returned NULL with memory free";
		if ((unsigned long)st_ptr[i] & (st_align(st_size[i]) - 1))
			return "object not aligned to its size class";
		if (ksize(st_ptr[i]) < st_size[i])
			return "ksize smaller than the size asked for";
		for (off = 0; off < st_size[i]; off++)
			((u8 *)st_ptr[i])[off] = st_pattern(i, off);
	}
	/* Every object still holds its own pattern: no two overlap. */
	for (i = 0; i < ST_OBJS; i++)
		for (off = 0; off < st_size[i]; off++)
			if (((u8 *)st_ptr[i])[off] != st_pattern(i, off))
				return "pattern overwritten: objects overlap";
	/* Free in a shuffled order. */
	for (i = ST_OBJS - 1; i > 0; i--) {
		void *tp;
		size_t ts;

		j = (unsigned int)(st_rand() % (i + 1));
		tp = st_ptr[i]; st_ptr[i] = st_ptr[j]; st_ptr[j] = tp;
		ts = st_size[i]; st_size[i] = st_size[j]; st_size[j] = ts;
	}
	for (i = 0; i < ST_OBJS; i++) {
		kfree(st_ptr[i]);
		st_ptr[i] = NULL;
	}
	return NULL;
}

/*
 * Allocate @size until kmalloc() returns NULL, chaining the objects
 * through their first word onto *@head.  Fails if it never stops.
 */
static const char *st_exhaust_one(void **head, size_t size, unsigned long *count)
{
	unsigned long limit = nr_managed_pages() * (PAGE_SIZE / KMALLOC_MIN_SIZE) + 1024;
	void **p;

	while ((p = kmalloc(size)) != NULL) {
		*p = *head;
		*head = p;
		if (++*count > limit)
			return "kmalloc never returned NULL";
	}
	return NULL;
}

static const char *st_exhaust(unsigned long start_free)
{
	static const size_t sizes[] = { 1UL << 20, PAGE_SIZE, KMALLOC_MIN_SIZE };
	unsigned long count = 0, freed = 0, left;
	const char *err = NULL;
	void *head = NULL;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes) && !err; i++)
		err = st_exhaust_one(&head, sizes[i], &count);
	left = nr_free_pages();
	while (head) {
		void *next = *(void **)head;

		kfree(head);
		head = next;
		freed++;
	}
	if (err)
		return err;
	if (left)
		return "free pages left after kmalloc returned NULL";
	if (freed != count || nr_free_pages() != start_free)
		return "free page count not restored after exhaustion";
	printk(KERN_INFO "kmalloc selftest: exhausted memory with %lu allocations\n", count);
	return NULL;
}

static const char *st_edges(void)
{
	u8 *p;
	size_t i;

	if (kmalloc(0) != ZERO_SIZE_PTR)
		return "kmalloc(0) is not ZERO_SIZE_PTR";
	kfree(NULL);
	kfree(ZERO_SIZE_PTR);
	if (kmalloc((size_t)-1) || kmalloc((PAGE_SIZE << (MAX_ORDER - 1)) + 1))
		return "oversized kmalloc did not return NULL";
	p = kmalloc(300);
	if (!p)
		return "kmalloc(300) failed";
	memset(p, 0xa5, 300);
	kfree(p);
	p = kzalloc(300);
	if (!p)
		return "kzalloc(300) failed";
	for (i = 0; i < 300; i++)
		if (p[i])
			return "kzalloc memory not zero";
	p = krealloc(p, 5000);
	if (!p || p[299])
		return "krealloc lost the contents";
	kfree(p);
	p = alloc_pages(MAX_ORDER - 1);
	if (p) {
		if (__pa(p) & ((PAGE_SIZE << (MAX_ORDER - 1)) - 1))
			return "alloc_pages block not aligned to its order";
		free_pages(p, MAX_ORDER - 1);
	}
	return NULL;
}

/**
 * kmalloc_selftest() - exercise kmalloc and the page allocator at boot.
 *
 * Allocates objects of many sizes, writes and verifies patterns, frees
 * them in a shuffled order, exhausts memory until kmalloc() returns NULL,
 * frees everything, and checks after each step that the free page count
 * is back where it started.  Run for the "test_alloc" kernel parameter,
 * on one CPU, with nothing else allocating.
 *
 * Return: 0 when passed, -1 when failed (the reason is printed).
 */
int kmalloc_selftest(void)
{
	unsigned long start = nr_free_pages(), bad = page_alloc_bad_frees();
	struct kmalloc_info before, info;
	const char *err;

	kmalloc_get_info(&before);
	st_rand_state = 0x9e3779b97f4a7c15ULL;
	printk(KERN_INFO "kmalloc selftest: %lu pages free\n", start);
	err = st_patterns();
	if (!err && nr_free_pages() != start)
		err = "free page count not restored after pattern test";
	if (!err)
		err = st_edges();
	if (!err && nr_free_pages() != start)
		err = "free page count not restored after edge cases";
	if (!err)
		err = st_exhaust(start);
	kmalloc_get_info(&info);
	if (!err && (info.bad_frees != before.bad_frees || page_alloc_bad_frees() != bad))
		err = "a free was rejected";
	if (!err && info.poison_errors != before.poison_errors)
		err = "freed memory was modified";
	if (err) {
		printk(KERN_ERR "kmalloc selftest: FAILED: %s\n", err);
		return -1;
	}
	printk(KERN_INFO "kmalloc selftest: passed\n");
	return 0;
}
