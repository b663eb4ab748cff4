/* SPDX-License-Identifier: GPL-2.0 */
/* test_mmap_convert.c - host tests for the loader's UEFI memory map conversion (boot/mmap_convert.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../boot/mmap_convert.h"

#define STRIDE 48	/* OVMF's descriptor size: larger than the struct */

static uint8_t map[STRIDE * 64];
static unsigned int nd;

static void add(uint32_t type, uint64_t base, uint64_t pages)
{
	struct ekdb_efi_memdesc d = { .type = type, .phys_start = base, .num_pages = pages };

	memset(map + nd * STRIDE, 0xa5, STRIDE);
	memcpy(map + nd * STRIDE, &d, sizeof(d));
	nd++;
}

static int reset(void **state)
{
	nd = 0;
	return 0;
}

static void test_types(void **state)
{
	assert_int_equal(ekdb_mmap_type(7), EKDB_MEM_USABLE);
	assert_int_equal(ekdb_mmap_type(1), EKDB_MEM_USABLE);
	assert_int_equal(ekdb_mmap_type(4), EKDB_MEM_USABLE);
	assert_int_equal(ekdb_mmap_type(5), EKDB_MEM_RESERVED);	/* runtime code */
	assert_int_equal(ekdb_mmap_type(6), EKDB_MEM_RESERVED);	/* runtime data */
	assert_int_equal(ekdb_mmap_type(0), EKDB_MEM_RESERVED);
	assert_int_equal(ekdb_mmap_type(11), EKDB_MEM_RESERVED);	/* MMIO */
	assert_int_equal(ekdb_mmap_type(9), EKDB_MEM_ACPI_RECLAIM);
	assert_int_equal(ekdb_mmap_type(10), EKDB_MEM_ACPI_NVS);
	assert_int_equal(ekdb_mmap_type(0x80000001), EKDB_MEM_KERNEL);
	assert_int_equal(ekdb_mmap_type(0x80000002), EKDB_MEM_BOOTDATA);
	assert_int_equal(ekdb_mmap_type(0x80000003), EKDB_MEM_RESERVED);
}

static void test_merge_and_sort(void **state)
{
	struct ekdb_mmap_entry out[16];
	uint32_t n;

	add(3, 0x0, 0x9f);		/* BS code */
	add(7, 0x100000, 0x100);	/* conventional */
	add(4, 0x200000, 0x10);		/* BS data, adjacent: merges */
	add(0x80000001, 0x300000, 4);	/* kernel */
	add(7, 0x210000, 0xf0);		/* out of order, fills the gap before the kernel */
	add(9, 0x400000, 1);		/* ACPI reclaim */
	add(7, 0x500000, 0);		/* empty: dropped */
	add(6, 0x600000, 2);		/* runtime data */
	add(11, 0x602000, 1);		/* MMIO: merges with runtime data (both RESERVED) */
	n = ekdb_mmap_convert(map, nd * STRIDE, STRIDE, out, 16);
	assert_int_equal(n, 5);
	assert_int_equal(out[0].base, 0);
	assert_int_equal(out[0].length, 0x9f000);
	assert_int_equal(out[1].base, 0x100000);
	assert_int_equal(out[1].length, 0x200000);
	assert_int_equal(out[1].type, EKDB_MEM_USABLE);
	assert_int_equal(out[1].efi_type, 7);
	assert_int_equal(out[2].base, 0x300000);
	assert_int_equal(out[2].type, EKDB_MEM_KERNEL);
	assert_int_equal(out[3].type, EKDB_MEM_ACPI_RECLAIM);
	assert_int_equal(out[4].base, 0x600000);
	assert_int_equal(out[4].length, 0x3000);
	assert_int_equal(out[4].type, EKDB_MEM_RESERVED);
	assert_int_equal(out[4].efi_type, 6);
}

static void test_bridge_merge(void **state)
{
	struct ekdb_mmap_entry out[4];

	add(7, 0x0, 1);
	add(7, 0x2000, 1);
	add(4, 0x1000, 1);	/* joins both neighbours into one */
	assert_int_equal(ekdb_mmap_convert(map, nd * STRIDE, STRIDE, out, 4), 1);
	assert_int_equal(out[0].base, 0);
	assert_int_equal(out[0].length, 0x3000);
}

static void test_overflow(void **state)
{
	struct ekdb_mmap_entry out[3];
	unsigned int i;

	for (i = 0; i < 6; i++)		/* alternate types: nothing merges */
		add(i & 1 ? 7 : 0, 0x10000 * (5 - i), 1);
	assert_int_equal(ekdb_mmap_convert(map, nd * STRIDE, STRIDE, out, 3), 6);
	/* The lowest three are kept, in order. */
	assert_int_equal(out[0].base, 0);
	assert_int_equal(out[1].base, 0x10000);
	assert_int_equal(out[2].base, 0x20000);
}

static void test_bad_stride(void **state)
{
	struct ekdb_mmap_entry out[3];

	add(7, 0, 1);
	assert_int_equal(ekdb_mmap_convert(map, STRIDE, 8, out, 3), 0);
	assert_int_equal(ekdb_mmap_convert(map, STRIDE - 1, STRIDE, out, 3), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_types, reset),
		cmocka_unit_test_setup(test_merge_and_sort, reset),
		cmocka_unit_test_setup(test_bridge_merge, reset),
		cmocka_unit_test_setup(test_overflow, reset),
		cmocka_unit_test_setup(test_bad_stride, reset),
	};

	return cmocka_run_group_tests_name("mmap_convert", tests, NULL, NULL);
}
