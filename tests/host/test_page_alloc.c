/* SPDX-License-Identifier: GPL-2.0 */
/* test_page_alloc.c - host unit tests for the buddy page allocator on a malloc'd "physical" arena. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <cmocka.h>

#include <kernel/mm.h>
#include <kernel/printk.h>
#include "host_log.h"
#include "host_threads.h"

/* The test machine: 16 MiB of RAM at physical 4 MiB, behind the direct map. */
#define ARENA_PHYS	0x400000UL
#define ARENA_SIZE	(16UL << 20)
#define MAX_BLOCK	(PAGE_SIZE << (MAX_ORDER - 1))

static void *arena;
static unsigned long initial_free;
static unsigned long initial_blocks[MAX_ORDER];

static void snapshot(unsigned long *blocks)
{
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		blocks[o] = nr_free_blocks(o);
}

static void assert_initial_state(void)
{
	unsigned long now[MAX_ORDER];

	assert_int_equal(nr_free_pages(), initial_free);
	snapshot(now);
	assert_memory_equal(now, initial_blocks, sizeof(now));
}

static int setup(void **state)
{
	const struct ekdb_mmap_entry map[] = {
		{ 0, 0x9f000, EKDB_MEM_USABLE, 7 },
		{ ARENA_PHYS, ARENA_SIZE, EKDB_MEM_USABLE, 7 },
	};

	/* 4 MiB aligned, so virtual alignment equals physical alignment. */
	arena = aligned_alloc(MAX_BLOCK, ARENA_SIZE);
	assert_non_null(arena);
	memset(arena, 0xcc, ARENA_SIZE);
	mm_direct_map_offset = (unsigned long)arena - ARENA_PHYS;
	log_clear();
	memblock_reset();
	memblock_init_from_bootinfo(map, ARRAY_SIZE(map));
	page_alloc_init();
	initial_free = nr_free_pages();
	snapshot(initial_blocks);
	return 0;
}

static int teardown(void **state)
{
	free(arena);
	return 0;
}

static void test_init_counts(void **state)
{
	unsigned long sum = 0, meta_pages = PAGE_ALIGN(((ARENA_PHYS + ARENA_SIZE) >> PAGE_SHIFT) *
						      sizeof(struct page)) >> PAGE_SHIFT;

	/* Only the arena is managed (the low 1 MiB is reserved); minus the struct pages. */
	assert_int_equal(nr_managed_pages(), ARENA_SIZE / PAGE_SIZE - meta_pages);
	assert_int_equal(nr_free_pages(), nr_managed_pages());
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		sum += nr_free_blocks(o) << o;
	assert_int_equal(sum, nr_free_pages());
	/* The arena's first 12 MiB are three whole 4 MiB blocks. */
	assert_true(nr_free_blocks(MAX_ORDER - 1) >= 3);
	assert_true(memblock_is_handed_over());
	assert_int_equal(memblock_alloc(PAGE_SIZE, PAGE_SIZE), 0);
	page_alloc_dump();
	assert_true(log_has("Node 0, zone   Normal"));
}

static void test_every_order_aligned(void **state)
{
	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		u8 *p = alloc_pages(o);

		assert_non_null(p);
		assert_int_equal(__pa(p) % (PAGE_SIZE << o), 0);
		assert_int_equal((unsigned long)p % (PAGE_SIZE << o), 0);
		assert_true(__pa(p) >= ARENA_PHYS && __pa(p) + (PAGE_SIZE << o) <= ARENA_PHYS + ARENA_SIZE);
		memset(p, o, PAGE_SIZE << o);	/* ASan: the whole block is ours */
		assert_int_equal(nr_free_pages(), initial_free - (1UL << o));
		free_pages(p, o);
		assert_initial_state();
	}
	assert_null(alloc_pages(MAX_ORDER));
	assert_null(alloc_pages(~0U));
}

static void test_split_and_coalesce(void **state)
{
	void *a, *b, *c;

	a = alloc_pages(0);
	b = alloc_pages(0);
	/* LIFO splitting: the second page is a's buddy. */
	assert_int_equal(__pa(a) ^ __pa(b), PAGE_SIZE);
	c = alloc_pages(1);
	assert_int_equal(nr_free_pages(), initial_free - 4);
	free_pages(a, 0);
	assert_int_equal(nr_free_blocks(0), initial_blocks[0] + 1);
	free_pages(b, 0);		/* merges with a, then upwards */
	free_pages(c, 1);
	assert_initial_state();
	/* A block handed back in pages merges back into one 4 MiB block. */
	{
		u8 *big = alloc_pages(MAX_ORDER - 1);
		unsigned long before = nr_free_blocks(MAX_ORDER - 1);

		assert_non_null(big);
		free_pages(big, MAX_ORDER - 1);
		assert_int_equal(nr_free_blocks(MAX_ORDER - 1), before + 1);
	}
	assert_initial_state();
}

/* Take every page one by one, check NULL at the end, give them all back. */
static void exhaust_and_restore(void)
{
	static void *pages[ARENA_SIZE / PAGE_SIZE];
	unsigned long bad = page_alloc_bad_frees();
	unsigned long n = 0;
	void *p;

	while ((p = alloc_pages(0)) != NULL) {
		assert_true(n < ARENA_SIZE / PAGE_SIZE);
		pages[n++] = p;
	}
	assert_int_equal(n, initial_free);
	assert_int_equal(nr_free_pages(), 0);
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		assert_null(alloc_pages(o));
	assert_null(__get_free_page());
	/* Free in an interleaved order: evens, then odds. */
	for (unsigned long i = 0; i < n; i += 2)
		free_page(pages[i]);
	for (unsigned long i = 1; i < n; i += 2)
		free_page(pages[i]);
	assert_initial_state();
	assert_int_equal(page_alloc_bad_frees(), bad);
}

static void test_exhaustion_returns_null(void **state)
{
	exhaust_and_restore();
	assert_int_equal(page_alloc_bad_frees(), 0);
}

static void test_double_free_detected(void **state)
{
	void *a = alloc_pages(2), *b = alloc_pages(0);

	free_pages(a, 2);
	log_clear();
	free_pages(a, 2);			/* head still a free block */
	assert_int_equal(page_alloc_bad_frees(), 1);
	assert_true(log_has("order 2: double free"));	/* the precise reason, not the fallback */
	free_pages(b, 0);
	assert_initial_state();
	free_pages(b, 0);			/* b is now part of a merged block */
	assert_int_equal(page_alloc_bad_frees(), 2);
	{
		/* Two buddies merged: the upper one is no block head any more. */
		u8 *x = alloc_pages(0), *y = alloc_pages(0);
		u8 *upper = __pa(x) > __pa(y) ? x : y;

		free_pages(x, 0);
		free_pages(y, 0);
		log_clear();
		free_pages(upper, 0);
		assert_int_equal(page_alloc_bad_frees(), 3);
		assert_true(log_has("not allocated (double free, or inside a block)"));
	}
	assert_initial_state();
	/* The allocator still hands out every page exactly once. */
	exhaust_and_restore();
}

static void test_bad_frees_rejected(void **state)
{
	u8 *blk = alloc_pages(2);
	int on_stack;
	unsigned long bad = 0;

	log_clear();
	free_pages(blk, 1);
	assert_int_equal(page_alloc_bad_frees(), ++bad);
	assert_true(log_has("order mismatch (allocated as order 2)"));
	free_pages(blk + PAGE_SIZE, 0);			/* inside the block */
	assert_int_equal(page_alloc_bad_frees(), ++bad);
	free_pages(blk + 8, 2);				/* not page aligned */
	assert_int_equal(page_alloc_bad_frees(), ++bad);
	free_pages(blk + 2 * PAGE_SIZE, 2);		/* not aligned to the order */
	assert_int_equal(page_alloc_bad_frees(), ++bad);
	free_pages(&on_stack, 0);			/* not in the direct map */
	assert_int_equal(page_alloc_bad_frees(), ++bad);
	assert_true(log_has("not a page allocator address"));
	free_pages(blk, MAX_ORDER);			/* order out of range */
	assert_int_equal(page_alloc_bad_frees(), ++bad);
	free_pages(__va(ARENA_PHYS + ARENA_SIZE - PAGE_SIZE), 0);	/* struct page array */
	assert_int_equal(page_alloc_bad_frees(), ++bad);
	assert_true(log_has("reserved"));
	free_pages(NULL, 0);				/* ignored silently */
	assert_int_equal(page_alloc_bad_frees(), bad);
	assert_int_equal(nr_free_pages(), initial_free - 4);
	free_pages(blk, 2);
	assert_initial_state();
}

static void test_patterns_random_orders(void **state)
{
	enum { N = 200 };
	u8 *p[N];
	unsigned int ord[N];
	unsigned int seed = 12345;

	for (int i = 0; i < N; i++) {
		ord[i] = (unsigned int)rand_r(&seed) % 5;
		p[i] = alloc_pages(ord[i]);
		assert_non_null(p[i]);
		memset(p[i], i, PAGE_SIZE << ord[i]);
	}
	for (int i = 0; i < N; i++)
		for (size_t j = 0; j < (PAGE_SIZE << ord[i]); j += 61)
			assert_int_equal(p[i][j], (u8)i);
	for (int i = 0; i < N; i++) {
		int j = (int)((unsigned int)rand_r(&seed) % N);
		u8 *tp = p[i];
		unsigned int to = ord[i];

		p[i] = p[j]; ord[i] = ord[j];
		p[j] = tp; ord[j] = to;
	}
	for (int i = 0; i < N; i++)
		free_pages(p[i], ord[i]);
	assert_initial_state();
}

static void test_virt_to_page(void **state)
{
	u8 *p = alloc_pages(3);
	struct page *pg = virt_to_page(p);
	int on_stack;

	assert_non_null(pg);
	assert_ptr_equal(page_address(pg), p);
	assert_true(pg->flags & PG_head);
	assert_int_equal(pg->order, 3);
	assert_ptr_equal(virt_to_page(p + 5 * PAGE_SIZE + 7), pg + 5);
	assert_null(virt_to_page(&on_stack));
	free_pages(p, 3);
	assert_true(pg->flags & PG_buddy || !(pg->flags & PG_head));
	assert_int_equal(get_order(1), 0);
	assert_int_equal(get_order(PAGE_SIZE), 0);
	assert_int_equal(get_order(PAGE_SIZE + 1), 1);
	assert_int_equal(get_order(MAX_BLOCK), MAX_ORDER - 1);
	assert_true(get_order(MAX_BLOCK + 1) >= MAX_ORDER);
}

/* One thread: keep 8 blocks, refill them with its tag, check the tag before freeing. */
static void *hammer(void *arg)
{
	u8 tag = (u8)(uintptr_t)arg;
	unsigned int seed = tag;
	u8 *held[8] = { 0 };
	unsigned int ord[8] = { 0 };

	for (int i = 0; i < 20000; i++) {
		int k = i % 8;

		if (held[k]) {
			for (size_t j = 0; j < (PAGE_SIZE << ord[k]); j += 512)
				if (held[k][j] != tag)
					return (void *)1;
			free_pages(held[k], ord[k]);
		}
		ord[k] = (unsigned int)rand_r(&seed) % 4;
		held[k] = alloc_pages(ord[k]);
		if (held[k])
			memset(held[k], tag, PAGE_SIZE << ord[k]);
	}
	for (int k = 0; k < 8; k++)
		free_pages(held[k], ord[k]);
	return NULL;
}

static void test_concurrent_alloc_free(void **state)
{
	assert_int_equal(run_concurrently(hammer, 4), 0);
	assert_int_equal(page_alloc_bad_frees(), 0);
	assert_initial_state();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_init_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_order_aligned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_split_and_coalesce, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exhaustion_returns_null, setup, teardown),
		cmocka_unit_test_setup_teardown(test_double_free_detected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_frees_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_patterns_random_orders, setup, teardown),
		cmocka_unit_test_setup_teardown(test_virt_to_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_alloc_free, setup, teardown),
	};

	return cmocka_run_group_tests_name("page_alloc", tests, NULL, NULL);
}
