/* SPDX-License-Identifier: GPL-2.0 */
/* test_kmalloc.c - host unit tests for kmalloc, mm_init() and the boot self-test. */

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


static void boot_memblock(void)
{
	const struct ekdb_mmap_entry map[] = {
		{ 0, 0x9f000, EKDB_MEM_USABLE, 7 },
		{ ARENA_PHYS, 0x200000, EKDB_MEM_KERNEL, 2 },
		{ ARENA_PHYS + 0x200000, 0x1000, EKDB_MEM_BOOTDATA, 2 },
		{ ARENA_PHYS + 0x201000, ARENA_SIZE - 0x201000, EKDB_MEM_USABLE, 7 },
	};

	arena = aligned_alloc(MAX_BLOCK, ARENA_SIZE);
	assert_non_null(arena);
	memset(arena, 0xcc, ARENA_SIZE);
	mm_direct_map_offset = (unsigned long)arena - ARENA_PHYS;
	log_clear();
	memblock_reset();
	memblock_init_from_bootinfo(map, ARRAY_SIZE(map));
}

static int setup(void **state)
{
	boot_memblock();
	page_alloc_init();
	kmalloc_init();
	initial_free = nr_free_pages();
	return 0;
}

static int teardown(void **state)
{
	if (getenv("MM_TEST_VERBOSE"))	/* show what the kernel would have logged */
		fputs(log_text(), stderr);
	free(arena);
	return 0;
}

static unsigned long bad_frees(void)
{
	struct kmalloc_info info;

	kmalloc_get_info(&info);
	return info.bad_frees;
}

static void test_each_size_class(void **state)
{
	static const size_t sizes[] = { 1, 15, 16, 17, 31, 32, 33, 64, 65, 127, 128, 129,
					255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 2047, 2048 };
	void *p[ARRAY_SIZE(sizes)];

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t cls = KMALLOC_MIN_SIZE;

		while (cls < sizes[i])
			cls <<= 1;
		p[i] = kmalloc(sizes[i]);
		assert_non_null(p[i]);
		assert_int_equal((unsigned long)p[i] % cls, 0);
		assert_int_equal(ksize(p[i]), cls);
		memset(p[i], (int)i, cls);
	}
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		assert_int_equal(((u8 *)p[i])[0], (u8)i);
		assert_int_equal(((u8 *)p[i])[ksize(p[i]) - 1], (u8)i);
		kfree(p[i]);
	}
	/* Empty slabs went back to the page allocator. */
	assert_int_equal(nr_free_pages(), initial_free);
	assert_int_equal(bad_frees(), 0);
}

static void test_large_sizes(void **state)
{
	u8 *p;

	p = kmalloc(2049);
	assert_non_null(p);
	assert_int_equal((unsigned long)p % PAGE_SIZE, 0);
	assert_int_equal(nr_free_pages(), initial_free - 1);
	kfree(p);
	p = kmalloc(PAGE_SIZE);		/* exactly one page, no header */
	assert_int_equal(nr_free_pages(), initial_free - 1);
	assert_int_equal(ksize(p), PAGE_SIZE);
	kfree(p);
	p = kmalloc(PAGE_SIZE + 1);
	assert_int_equal(nr_free_pages(), initial_free - 2);
	kfree(p);
	p = kmalloc(MAX_BLOCK);		/* the largest */
	assert_non_null(p);
	memset(p, 0x11, MAX_BLOCK);
	assert_int_equal(ksize(p), MAX_BLOCK);
	kfree(p);
	assert_null(kmalloc(MAX_BLOCK + 1));
	assert_null(kmalloc((size_t)-1));
	assert_null(kcalloc((size_t)1 << 40, (size_t)1 << 40));	/* n * size overflows */
	assert_int_equal(nr_free_pages(), initial_free);
}

static void test_zero_and_null(void **state)
{
	assert_ptr_equal(kmalloc(0), ZERO_SIZE_PTR);
	assert_ptr_equal(kzalloc(0), ZERO_SIZE_PTR);
	kfree(NULL);
	kfree(ZERO_SIZE_PTR);
	assert_int_equal(ksize(NULL), 0);
	assert_int_equal(bad_frees(), 0);
	assert_int_equal(nr_free_pages(), initial_free);
}

static void test_free_and_reuse(void **state)
{
	void *a = kmalloc(64), *b = kmalloc(64), *c;

	assert_ptr_not_equal(a, b);
	kfree(a);
	c = kmalloc(64);
	assert_ptr_equal(c, a);		/* the lowest free slot of the partial slab */
	kfree(b);
	kfree(c);
	assert_int_equal(nr_free_pages(), initial_free);
}

static void test_slabs_give_pages_back(void **state)
{
	enum { N = 3000 };
	static void *p[N];
	struct kmalloc_info info;

	for (int i = 0; i < N; i++)
		assert_non_null(p[i] = kmalloc(16 + (size_t)(i % 4) * 100));
	kmalloc_get_info(&info);
	assert_true(info.caches[0].slabs > 0);
	assert_int_equal(info.caches[0].active_objs, N / 4);
	assert_true(nr_free_pages() < initial_free);
	for (int i = N - 1; i >= 0; i -= 2)
		kfree(p[i]);
	for (int i = N - 2; i >= 0; i -= 2)
		kfree(p[i]);
	kmalloc_get_info(&info);
	for (int k = 0; k < KMALLOC_NR_CACHES; k++) {
		assert_int_equal(info.caches[k].slabs, 0);
		assert_int_equal(info.caches[k].active_objs, 0);
	}
	assert_int_equal(nr_free_pages(), initial_free);
}

/* Allocate @size until NULL (bounded), chain through the objects, free all. */
static unsigned long exhaust(size_t size)
{
	void *head = NULL, *p;
	unsigned long n = 0;

	while ((p = kmalloc(size)) != NULL) {
		*(void **)p = head;
		head = p;
		n++;
		assert_true(n <= ARENA_SIZE / KMALLOC_MIN_SIZE);
	}
	while (head) {
		p = *(void **)head;
		kfree(head);
		head = p;
	}
	return n;
}

static void test_exhaustion(void **state)
{
	unsigned long n, expect = 0;
	struct kmalloc_info info;

	n = exhaust(1024);
	assert_true(n > 0);
	assert_int_equal(nr_free_pages(), initial_free);
	for (unsigned int o = 5; o < MAX_ORDER; o++)	/* 100000 bytes: order 5 */
		expect += nr_free_blocks(o) << (o - 5);
	n = exhaust(100000);
	assert_int_equal(n, expect);
	assert_int_equal(nr_free_pages(), initial_free);
	n = exhaust(16);
	assert_true(n >= initial_free * 250);
	assert_int_equal(nr_free_pages(), initial_free);
	kmalloc_get_info(&info);
	assert_true(info.failed >= 3);
	assert_int_equal(info.bad_frees, 0);
	assert_int_equal(info.poison_errors, 0);
}

static void test_bad_kfree_detected(void **state)
{
	u8 *small = kmalloc(100), *other = kmalloc(100), *big = kmalloc(3 * PAGE_SIZE);
	u8 *pages = alloc_pages(0);
	int on_stack;
	unsigned long bad = 0;

	log_clear();
	kfree(small + 8);			/* not an object start */
	assert_int_equal(bad_frees(), ++bad);
	assert_true(log_has("not the start of an object"));
	kfree(small + 10 * 128);		/* a free object of the same slab */
	assert_int_equal(bad_frees(), ++bad);
	kfree(&on_stack);
	assert_int_equal(bad_frees(), ++bad);
	assert_true(log_has("outside the memory kmalloc manages"));
	kfree(big + PAGE_SIZE);
	assert_int_equal(bad_frees(), ++bad);
	kfree(big + 16);
	assert_int_equal(bad_frees(), ++bad);
	assert_true(log_has("inside a large allocation"));
	kfree(pages);				/* from alloc_pages, not kmalloc */
	assert_int_equal(bad_frees(), ++bad);
	kfree(small);
	kfree(small);				/* double free, slab still has 'other' */
	assert_int_equal(bad_frees(), ++bad);
	assert_true(log_has("double free"));
	kfree(other);
	kfree(other);				/* double free, slab already returned */
	assert_int_equal(bad_frees(), ++bad);
	kfree(big);
	kfree(big);				/* double free of a large allocation */
	assert_int_equal(bad_frees(), ++bad);
	assert_true(log_has("caller 0x"));
	assert_null(krealloc(&on_stack, 10));
	assert_int_equal(bad_frees(), ++bad);
	free_pages(pages, 0);
	/* Nothing was corrupted. */
	assert_int_equal(nr_free_pages(), initial_free);
	assert_int_equal(page_alloc_bad_frees(), 0);
	assert_true(exhaust(512) > 0);
	assert_int_equal(nr_free_pages(), initial_free);
}

static void test_use_after_free_poison(void **state)
{
	u8 *keep = kmalloc(32), *p = kmalloc(32), *q;
	struct kmalloc_info info;

	kfree(p);
	for (int i = 0; i < 32; i++)
		assert_int_equal(p[i], POISON_FREE);
	p[5] = 0;				/* write after free */
	log_clear();
	q = kmalloc(32);
	assert_ptr_equal(q, p);
	kmalloc_get_info(&info);
	assert_int_equal(info.poison_errors, 1);
	assert_true(log_has("written after it was freed"));
	kfree(q);
	kfree(keep);
}

static void test_kzalloc_krealloc(void **state)
{
	u8 *p = kmalloc(200), *q;

	memset(p, 0xff, 200);
	kfree(p);
	p = kzalloc(200);
	for (int i = 0; i < 200; i++)
		assert_int_equal(p[i], 0);
	q = kcalloc(10, 30);
	for (int i = 0; i < 300; i++)
		assert_int_equal(q[i], 0);
	kfree(q);
	memset(p, 0x3c, 200);
	assert_ptr_equal(krealloc(p, 250), p);		/* same 256 class */
	q = krealloc(p, 10000);
	assert_non_null(q);
	for (int i = 0; i < 200; i++)
		assert_int_equal(q[i], 0x3c);
	assert_ptr_equal(krealloc(q, 0), ZERO_SIZE_PTR);
	p = krealloc(NULL, 40);
	assert_non_null(p);
	kfree(p);
	assert_int_equal(nr_free_pages(), initial_free);
	assert_int_equal(bad_frees(), 0);
}

static void *hammer(void *arg)
{
	u8 tag = (u8)(uintptr_t)arg;
	unsigned int seed = tag;
	u8 *held[16] = { 0 };
	size_t sz[16] = { 0 };

	for (int i = 0; i < 30000; i++) {
		int k = (int)((unsigned int)rand_r(&seed) % 16);

		if (held[k]) {
			if (held[k][0] != tag || held[k][sz[k] - 1] != tag)
				return (void *)1;
			kfree(held[k]);
		}
		sz[k] = 1 + (unsigned int)rand_r(&seed) % 6000;
		held[k] = kmalloc(sz[k]);
		if (held[k])
			memset(held[k], tag, sz[k]);
	}
	for (int k = 0; k < 16; k++)
		kfree(held[k]);
	return NULL;
}

static void test_concurrent(void **state)
{
	assert_int_equal(run_concurrently(hammer, 4), 0);
	assert_int_equal(bad_frees(), 0);
	assert_int_equal(nr_free_pages(), initial_free);
}

static void test_mm_init_line(void **state)
{
	boot_memblock();
	mm_init();
	assert_true(log_has("Memory: "));
	assert_true(log_has("K available (2048K kernel image, 4K boot data, "));
	assert_true(nr_free_pages() > 0);
	assert_non_null(kmalloc(10));	/* kmalloc works after mm_init */
	kmalloc_stats();
	assert_true(log_has("kmalloc-16 "));
	assert_true(log_has("kmalloc-2048"));
}

static void test_boot_selftest(void **state)
{
	assert_int_equal(kmalloc_selftest(), 0);
	assert_true(log_has("kmalloc selftest: passed"));
	assert_false(log_has("FAILED"));
	assert_int_equal(nr_free_pages(), initial_free);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_each_size_class, setup, teardown),
		cmocka_unit_test_setup_teardown(test_large_sizes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zero_and_null, setup, teardown),
		cmocka_unit_test_setup_teardown(test_free_and_reuse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slabs_give_pages_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exhaustion, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_kfree_detected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_use_after_free_poison, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kzalloc_krealloc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mm_init_line, NULL, teardown),
		cmocka_unit_test_setup_teardown(test_boot_selftest, setup, teardown),
	};

	return cmocka_run_group_tests_name("kmalloc", tests, NULL, NULL);
}
