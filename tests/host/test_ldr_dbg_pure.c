/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_ldr_dbg_pure.c - host tests for the loader debugger's pure parts:
 * kernel link address -> placement (boot/dbg/xlate.c), the qXfer library
 * lists (boot/dbg/libxml.c), a symbol from an ELF's .symtab (boot/dbg/elf_syms.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../boot/dbg/xlate.h"
#include "../../boot/dbg/libxml.h"
#include "../../boot/dbg/elf_syms.h"

#define KVIRT 0xffffffff80200000ULL
#define KPHYS 0x1dc87000ULL
#define KSIZE 0x158000ULL

static const struct ldr_xlate_map map = { KVIRT, KPHYS, KSIZE };

static void test_xlate_inside(void **state)
{
	size_t chunk;

	assert_int_equal(ldr_xlate(&map, KVIRT, 16, &chunk), KPHYS);
	assert_int_equal(chunk, 16);
	assert_int_equal(ldr_xlate(&map, KVIRT + 0x21b80, 8, &chunk), KPHYS + 0x21b80);
	assert_int_equal(chunk, 8);
	/* last byte of the image */
	assert_int_equal(ldr_xlate(&map, KVIRT + KSIZE - 1, 1, &chunk), KPHYS + KSIZE - 1);
	assert_int_equal(chunk, 1);
}

static void test_xlate_edges_split(void **state)
{
	size_t chunk;

	/* running off the end: only the part inside is translated */
	assert_int_equal(ldr_xlate(&map, KVIRT + KSIZE - 4, 16, &chunk), KPHYS + KSIZE - 4);
	assert_int_equal(chunk, 4);
	/* just past the end: identity (the firmware's map decides, a fault is an error) */
	assert_int_equal(ldr_xlate(&map, KVIRT + KSIZE, 16, &chunk), KVIRT + KSIZE);
	assert_int_equal(chunk, 16);
	/* running into the start: stop there, the rest is translated next */
	assert_int_equal(ldr_xlate(&map, KVIRT - 4, 16, &chunk), KVIRT - 4);
	assert_int_equal(chunk, 4);
	assert_int_equal(ldr_xlate(&map, KVIRT - 16, 16, &chunk), KVIRT - 16);
	assert_int_equal(chunk, 16);
	/* identity below, no length */
	assert_int_equal(ldr_xlate(&map, 0x1000, 64, &chunk), 0x1000);
	assert_int_equal(chunk, 64);
	assert_int_equal(ldr_xlate(&map, KVIRT, 0, &chunk), KVIRT);
	assert_int_equal(chunk, 0);
	/* a huge length from below the top of memory does not wrap */
	assert_int_equal(ldr_xlate(&map, KVIRT + 8, SIZE_MAX, &chunk), KPHYS + 8);
	assert_int_equal(chunk, KSIZE - 8);
}

static void test_xlate_no_kernel(void **state)
{
	const struct ldr_xlate_map none = { 0, 0, 0 };
	size_t chunk;

	assert_int_equal(ldr_xlate(&none, KVIRT, 16, &chunk), KVIRT);
	assert_int_equal(chunk, 16);
	assert_false(ldr_xlate_in_kernel(&none, KVIRT, 1));
}

static void test_in_kernel(void **state)
{
	assert_true(ldr_xlate_in_kernel(&map, KVIRT, 1));
	assert_true(ldr_xlate_in_kernel(&map, KVIRT, KSIZE));
	assert_true(ldr_xlate_in_kernel(&map, KVIRT + KSIZE - 8, 8));
	assert_false(ldr_xlate_in_kernel(&map, KVIRT + KSIZE - 8, 9));
	assert_false(ldr_xlate_in_kernel(&map, KVIRT - 1, 1));
	assert_false(ldr_xlate_in_kernel(&map, KVIRT + KSIZE, 1));
	assert_false(ldr_xlate_in_kernel(&map, KVIRT + 8, UINT64_MAX));
	assert_false(ldr_xlate_in_kernel(&map, KPHYS, 1));	/* physical is not a link address */
}

static void test_libraries_xml(void **state)
{
	const struct ldr_lib lib = { "/work/b/loader.so", 0x1de33000 };
	const struct ldr_lib odd = { "/a&b/<x>\"'.so", 0 };
	char buf[512];

	long n = ldr_libraries_xml(buf, sizeof(buf), &lib, 1);

	assert_int_equal(n, strlen(buf));
	assert_string_equal(buf, "<library-list><library name=\"/work/b/loader.so\">"
				 "<segment address=\"0x1de33000\"/></library></library-list>");
	ldr_libraries_xml(buf, sizeof(buf), &odd, 1);
	assert_string_equal(buf, "<library-list><library name=\"/a&amp;b/&lt;x&gt;&quot;&apos;.so\">"
				 "<segment address=\"0x0\"/></library></library-list>");
	assert_int_equal(ldr_libraries_xml(buf, sizeof(buf), &lib, 0), 29);
	assert_string_equal(buf, "<library-list></library-list>");
	/* too small: -1, still terminated */
	assert_int_equal(ldr_libraries_xml(buf, 40, &lib, 1), -1);
	assert_int_equal(strlen(buf), 39);
	assert_int_equal(ldr_libraries_xml(buf, 0, &lib, 1), -1);
}

static void test_libraries_svr4_xml(void **state)
{
	const struct ldr_lib lib = { "/work/b/loader.so", 0xfffffffff0001000ULL };
	char buf[512];

	long n = ldr_libraries_svr4_xml(buf, sizeof(buf), &lib, 1);

	assert_int_equal(n, strlen(buf));
	assert_string_equal(buf, "<library-list-svr4 version=\"1.0\"><library name=\"/work/b/loader.so\" "
				 "lm=\"0x0\" l_addr=\"0xfffffffff0001000\" l_ld=\"0x0\"/></library-list-svr4>");
	assert_int_equal(ldr_libraries_svr4_xml(buf, 10, &lib, 1), -1);
}

/* A small ELF64 file: header, 3 section headers (null, symtab, strtab), the tables. */
static uint8_t elf[1024];

static void w(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t make_elf(void)
{
	static const char strtab[] = "\0start_kernel\0__ksym_num\0__ksym_num_x\0";
	const uint64_t shoff = 64, symoff = 64 + 3 * 64, stroff = symoff + 4 * 24;

	memset(elf, 0, sizeof(elf));
	memcpy(elf, "\x7f" "ELF\x02\x01\x01", 7);
	w(elf + 0x28, shoff, 8);
	w(elf + 0x3a, 64, 2);
	w(elf + 0x3c, 3, 2);
	/* section 1: symtab, link 2 */
	w(elf + shoff + 64 + 4, 2, 4);
	w(elf + shoff + 64 + 0x18, symoff, 8);
	w(elf + shoff + 64 + 0x20, 4 * 24, 8);
	w(elf + shoff + 64 + 0x28, 2, 4);
	/* section 2: strtab */
	w(elf + shoff + 128 + 4, 3, 4);
	w(elf + shoff + 128 + 0x18, stroff, 8);
	w(elf + shoff + 128 + 0x20, sizeof(strtab), 8);
	/* symbols: null, start_kernel, __ksym_num_x (a longer name first), __ksym_num */
	w(elf + symoff + 24 + 0, 1, 4);
	w(elf + symoff + 24 + 8, 0xffffffff80221b80ULL, 8);
	w(elf + symoff + 48 + 0, 25, 4);
	w(elf + symoff + 48 + 8, 0x1111, 8);
	w(elf + symoff + 72 + 0, 14, 4);
	w(elf + symoff + 72 + 8, 0xffffffff80360000ULL, 8);
	memcpy(elf + stroff, strtab, sizeof(strtab));
	return stroff + sizeof(strtab);
}

static void test_elf_symbol(void **state)
{
	uint64_t size = make_elf(), v = 0;

	assert_int_equal(ldr_elf_symbol(elf, size, "__ksym_num", &v), 0);
	assert_int_equal(v, 0xffffffff80360000ULL);
	assert_int_equal(ldr_elf_symbol(elf, size, "start_kernel", &v), 0);
	assert_int_equal(v, 0xffffffff80221b80ULL);
	assert_int_equal(ldr_elf_symbol(elf, size, "__ksym", &v), -1);	/* a prefix is not a match */
	assert_int_equal(ldr_elf_symbol(elf, size, "nothere", &v), -1);
}

/* Bad input: truncated files, tables pointing outside, not an ELF. */
static void test_elf_symbol_bad(void **state)
{
	uint64_t size = make_elf(), v;

	assert_int_equal(ldr_elf_symbol(elf, 63, "start_kernel", &v), -1);
	assert_int_equal(ldr_elf_symbol(elf, 64 + 3 * 64 - 1, "start_kernel", &v), -1);
	/* strtab cut off: the symbol's name is outside */
	assert_int_equal(ldr_elf_symbol(elf, size - 20, "__ksym_num", &v), -1);
	make_elf();
	w(elf + 64 + 64 + 0x18, 0xfffffffffffffff0ULL, 8);	/* symtab offset wraps */
	assert_int_equal(ldr_elf_symbol(elf, size, "start_kernel", &v), -1);
	make_elf();
	w(elf + 64 + 64 + 0x28, 7, 4);				/* link past the sections */
	assert_int_equal(ldr_elf_symbol(elf, size, "start_kernel", &v), -1);
	make_elf();
	w(elf + 0x3a, 40, 2);					/* odd section header size */
	assert_int_equal(ldr_elf_symbol(elf, size, "start_kernel", &v), -1);
	make_elf();
	elf[4] = 1;						/* ELFCLASS32 */
	assert_int_equal(ldr_elf_symbol(elf, size, "start_kernel", &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xlate_inside),
		cmocka_unit_test(test_xlate_edges_split),
		cmocka_unit_test(test_xlate_no_kernel),
		cmocka_unit_test(test_in_kernel),
		cmocka_unit_test(test_libraries_xml),
		cmocka_unit_test(test_libraries_svr4_xml),
		cmocka_unit_test(test_elf_symbol),
		cmocka_unit_test(test_elf_symbol_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
