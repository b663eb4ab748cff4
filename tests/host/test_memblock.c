/* SPDX-License-Identifier: GPL-2.0 */
/* test_memblock.c - host unit tests for memblock: merging, reservations, allocation, capacity. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <ekdb/errno.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include "host_log.h"


static int setup(void **state)
{
	memblock_reset();
	log_clear();
	return 0;
}

#define MEM(i)	(memblock_memory()->regions[i])
#define RES(i)	(memblock_reserved()->regions[i])

static void test_add_merges(void **state)
{
	assert_int_equal(memblock_add(0x300000, 0x100000), 0);
	assert_int_equal(memblock_add(0x100000, 0x100000), 0);
	assert_int_equal(memblock_memory()->cnt, 2);
	assert_int_equal(MEM(0).base, 0x100000);	/* sorted */
	/* Adjacent on both sides: all three become one. */
	assert_int_equal(memblock_add(0x200000, 0x100000), 0);
	assert_int_equal(memblock_memory()->cnt, 1);
	assert_int_equal(MEM(0).base, 0x100000);
	assert_int_equal(MEM(0).size, 0x300000);
	/* Overlapping and covering. */
	assert_int_equal(memblock_add(0x80000, 0x500000), 0);
	assert_int_equal(memblock_memory()->cnt, 1);
	assert_int_equal(MEM(0).base, 0x80000);
	assert_int_equal(MEM(0).size, 0x500000);
	/* Inside: nothing changes. */
	assert_int_equal(memblock_add(0x100000, 0x1000), 0);
	assert_int_equal(memblock_memory()->cnt, 1);
	assert_int_equal(memblock_phys_mem_size(), 0x500000);
	/* Zero size is a no-op. */
	assert_int_equal(memblock_add(0x9000000, 0), 0);
	assert_int_equal(memblock_memory()->cnt, 1);
}

static void test_add_top_of_address_space(void **state)
{
	assert_int_equal(memblock_add(~0UL - 0xfff, 0x10000), 0);	/* end saturates */
	assert_int_equal(MEM(0).base + MEM(0).size, ~0UL);
	assert_int_equal(memblock_end_of_DRAM(), ~0UL);
}

static void count_range(u64 base, u64 end, void *arg)
{
	u64 *v = arg;

	v[v[0] * 2 + 1] = base;
	v[v[0] * 2 + 2] = end;
	v[0]++;
}

static void test_reserve_splits_free_ranges(void **state)
{
	u64 r[16] = { 0 };

	memblock_add(0x100000, 0x400000);
	memblock_reserve(0x200000, 0x1000);
	memblock_reserve(0x300000, 0x2000);
	memblock_for_each_free_range(count_range, r);
	assert_int_equal(r[0], 3);
	assert_int_equal(r[1], 0x100000);
	assert_int_equal(r[2], 0x200000);
	assert_int_equal(r[3], 0x201000);
	assert_int_equal(r[4], 0x300000);
	assert_int_equal(r[5], 0x302000);
	assert_int_equal(r[6], 0x500000);
	assert_int_equal(memblock_free_size(), 0x400000 - 0x3000);
	assert_int_equal(memblock_reserved_size(), 0x3000);
}

static void test_free_splits_reservation(void **state)
{
	memblock_reserve(0x100000, 0x10000);
	assert_int_equal(memblock_free(0x104000, 0x1000), 0);
	assert_int_equal(memblock_reserved()->cnt, 2);
	assert_int_equal(RES(0).base, 0x100000);
	assert_int_equal(RES(0).size, 0x4000);
	assert_int_equal(RES(1).base, 0x105000);
	assert_int_equal(RES(1).size, 0xb000);
	/* Trim head and tail, then remove across both. */
	assert_int_equal(memblock_free(0x0, 0x101000), 0);
	assert_int_equal(RES(0).base, 0x101000);
	assert_int_equal(memblock_free(0x10f000, 0x10000), 0);
	assert_int_equal(RES(1).size, 0xa000);
	assert_int_equal(memblock_free(0x100000, 0x100000), 0);
	assert_int_equal(memblock_reserved()->cnt, 0);
}

static void test_remove_memory(void **state)
{
	memblock_add(0x100000, 0x10000000);
	memblock_reserve(0x200000, 0x1000);
	/* Drop everything above 64 MiB, and a hole in the middle. */
	assert_int_equal(memblock_remove(0x4000000, ~0UL - 0x4000000), 0);
	assert_int_equal(memblock_end_of_DRAM(), 0x4000000);
	assert_int_equal(memblock_remove(0x1000000, 0x1000000), 0);
	assert_int_equal(memblock_memory()->cnt, 2);
	assert_int_equal(memblock_phys_mem_size(), 0x4000000 - 0x100000 - 0x1000000);
	assert_int_equal(memblock_reserved_size(), 0x1000);	/* kept */
	assert_true(memblock_alloc(0x1000, 0x1000) < 0x4000000);
}

static void test_init_from_bootinfo(void **state)
{
	const struct ekdb_mmap_entry map[] = {
		{ 0x0, 0xa0000, EKDB_MEM_USABLE, 7 },
		{ 0xf0000, 0x10000, EKDB_MEM_RESERVED, 0 },
		{ 0x100000, 0x700000, EKDB_MEM_USABLE, 7 },
		{ 0x800000, 0x200000, EKDB_MEM_KERNEL, 2 },
		{ 0xa00000, 0x3000, EKDB_MEM_BOOTDATA, 2 },
		{ 0xa03800, 0x10000, EKDB_MEM_USABLE, 7 },	/* unaligned: rounded inward */
		{ 0xb00000, 0x0, EKDB_MEM_USABLE, 7 },		/* empty: ignored */
		{ 0xc00000, 0x100000, EKDB_MEM_ACPI_NVS, 10 },
		{ 0x1000000, 0x1000000, EKDB_MEM_USABLE, 7 },
		{ 0x1800000, 0x1000, EKDB_MEM_KERNEL, 2 },	/* overlaps usable: reserved wins */
	};

	memblock_init_from_bootinfo(map, ARRAY_SIZE(map));
	assert_int_equal(memblock_memory()->cnt, 4);
	assert_int_equal(MEM(0).base, 0);
	assert_int_equal(MEM(0).size, 0xa0000);
	assert_int_equal(MEM(1).base, 0x100000);
	assert_int_equal(MEM(1).size, 0xa03000 - 0x100000);	/* usable + kernel + bootdata */
	assert_int_equal(MEM(2).base, 0xa04000);		/* 0xa03800 rounded up */
	assert_int_equal(MEM(2).size, 0xf000);			/* end 0xa13800 rounded down */
	assert_int_equal(MEM(3).base, 0x1000000);
	assert_int_equal(memblock_kernel_size(), 0x201000);
	assert_int_equal(memblock_bootdata_size(), 0x3000);
	/* First MiB reserved, kernel and bootdata reserved. */
	assert_int_equal(RES(0).base, 0);
	assert_int_equal(RES(0).size, 0x100000);
	assert_int_equal(memblock_free_size(),
			 (0x800000 - 0x100000) + 0xf000 + 0x1000000 - 0x1000);
	assert_int_equal(memblock_start_of_DRAM(), 0);
	assert_int_equal(memblock_end_of_DRAM(), 0x2000000);
	memblock_dump();
	assert_true(log_has("MEMBLOCK configuration"));
	assert_true(log_has("memory[0x1]"));
}

static void test_alloc_top_down_aligned(void **state)
{
	u64 a, b, c;

	memblock_add(0x100000, 0x100000);
	memblock_reserve(0x1f0000, 0x10000);
	a = memblock_alloc(0x1000, 0x1000);
	assert_int_equal(a, 0x1ef000);
	b = memblock_alloc(0x10, 0x10000);
	assert_int_equal(b, 0x1e0000);
	c = memblock_alloc(0x123, 8);
	assert_true(c >= 0x1e0010 && c + 0x123 <= 0x1ef000);
	assert_int_equal(c % 8, 0);
	assert_int_equal(memblock_reserved_size(), 0x10000 + 0x1000 + 0x10 + 0x123);
	/* Freed memory can be allocated again. */
	assert_int_equal(memblock_free(a, 0x1000), 0);
	assert_int_equal(memblock_alloc(0x1000, 0x1000), a);
}

static void test_alloc_bad_inputs(void **state)
{
	memblock_add(0x100000, 0x10000);
	assert_int_equal(memblock_alloc(0, 0x1000), 0);		/* size 0 */
	assert_int_equal(memblock_alloc(0x10, 0x3000), 0);	/* align not a power of two */
	assert_int_equal(memblock_alloc(0x20000, 0x1000), 0);	/* too big */
	assert_true(log_has("out of memory"));
	/* Exactly fits, then nothing is left. */
	assert_int_equal(memblock_alloc(0x10000, 0), 0x100000);
	assert_int_equal(memblock_alloc(1, 1), 0);
	assert_int_equal(memblock_free_size(), 0);
}

static void test_alloc_never_returns_zero(void **state)
{
	memblock_add(0, 0x2000);
	assert_int_equal(memblock_alloc(0x1000, 0x1000), 0x1000);
	assert_int_equal(memblock_alloc(0x1000, 0x1000), 0);	/* only page 0 left */
}

static void test_alloc_respects_limit(void **state)
{
	memblock_add(0x100000, 0x10000000);
	memblock_set_current_limit(0x200000);
	assert_int_equal(memblock_alloc(0x1000, 0x1000), 0x1ff000);
	memblock_set_current_limit(MEMBLOCK_ALLOC_ANYWHERE);
	assert_int_equal(memblock_alloc(0x1000, 0x1000), 0x100ff000);
}

static void test_capacity_overflow(void **state)
{
	unsigned int i;

	for (i = 0; i < MEMBLOCK_MAX_REGIONS; i++)
		assert_int_equal(memblock_add(0x100000ULL * (2 * i + 1), 0x1000), 0);
	assert_int_equal(memblock_memory()->cnt, MEMBLOCK_MAX_REGIONS);
	/* A disjoint range does not fit: refused, reported, table unchanged. */
	assert_int_equal(memblock_add(0x100000ULL * 1000, 0x1000), -EKDB_ENOMEM);
	assert_true(log_has("MEMBLOCK_MAX_REGIONS"));
	assert_int_equal(memblock_memory()->cnt, MEMBLOCK_MAX_REGIONS);
	assert_int_equal(memblock_phys_mem_size(), 0x1000ULL * MEMBLOCK_MAX_REGIONS);
	/* Merging into a full table still works (it needs no new slot)... */
	assert_int_equal(memblock_add(0x100000 + 0x1000, 0x1000), 0);
	/* ...and bridging two regions frees one. */
	assert_int_equal(memblock_add(0x100000, 0x200000), 0);
	assert_int_equal(memblock_memory()->cnt, MEMBLOCK_MAX_REGIONS - 1);
}

static void test_reserved_split_overflow(void **state)
{
	unsigned int i;

	for (i = 0; i < MEMBLOCK_MAX_REGIONS; i++)
		assert_int_equal(memblock_reserve(0x100000ULL * (2 * i + 1), 0x10000), 0);
	log_clear();
	/* Punching a hole needs a new slot: refused, nothing changes. */
	assert_int_equal(memblock_free(0x104000, 0x1000), -EKDB_ENOMEM);
	assert_true(log_has("reserved table full (MEMBLOCK_MAX_REGIONS="));
	assert_int_equal(memblock_reserved_size(), 0x10000ULL * MEMBLOCK_MAX_REGIONS);
	/* Trimming needs none. */
	assert_int_equal(memblock_free(0x100000, 0x1000), 0);
}

static void test_alloc_overflow_fails_cleanly(void **state)
{
	unsigned int i;

	memblock_add(0, 0x10000000);
	for (i = 0; i < MEMBLOCK_MAX_REGIONS; i++)
		memblock_reserve(0x100000ULL * (2 * i + 1), 0x1000);
	/* Any allocation would need a new reserved slot unless it touches one. */
	for (i = 0; i < 4; i++) {
		u64 a = memblock_alloc(0x1000, 0x1000);

		if (a)	/* adjacent to an existing reservation: merged, fine */
			assert_int_equal(memblock_reserved()->cnt, MEMBLOCK_MAX_REGIONS);
	}
}

static void test_handover_refuses(void **state)
{
	memblock_add(0x100000, 0x100000);
	memblock_handover();
	assert_true(memblock_is_handed_over());
	assert_int_equal(memblock_alloc(0x1000, 0x1000), 0);
	assert_true(log_has("after handover"));
	assert_int_not_equal(memblock_reserve(0x100000, 0x1000), 0);
	assert_int_not_equal(memblock_free(0x100000, 0x1000), 0);
	assert_int_equal(memblock_reserved_size(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_add_merges, setup),
		cmocka_unit_test_setup(test_add_top_of_address_space, setup),
		cmocka_unit_test_setup(test_reserve_splits_free_ranges, setup),
		cmocka_unit_test_setup(test_free_splits_reservation, setup),
		cmocka_unit_test_setup(test_remove_memory, setup),
		cmocka_unit_test_setup(test_init_from_bootinfo, setup),
		cmocka_unit_test_setup(test_alloc_top_down_aligned, setup),
		cmocka_unit_test_setup(test_alloc_bad_inputs, setup),
		cmocka_unit_test_setup(test_alloc_never_returns_zero, setup),
		cmocka_unit_test_setup(test_alloc_respects_limit, setup),
		cmocka_unit_test_setup(test_capacity_overflow, setup),
		cmocka_unit_test_setup(test_reserved_split_overflow, setup),
		cmocka_unit_test_setup(test_alloc_overflow_fails_cleanly, setup),
		cmocka_unit_test_setup(test_handover_refuses, setup),
	};

	return cmocka_run_group_tests_name("memblock", tests, NULL, NULL);
}
