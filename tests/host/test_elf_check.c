/* SPDX-License-Identifier: GPL-2.0 */
/* test_elf_check.c - host tests for the loader's kernel ELF validation (boot/elf_check.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../boot/elf_check.h"

#define KBASE 0xffffffff80200000ULL
#define FILE_SIZE 0x4000

static uint8_t buf[FILE_SIZE + 1];	/* +1: an unaligned copy starts at buf + 1 */

static struct ekdb_elf64_ehdr *eh(uint8_t *f)
{
	return (struct ekdb_elf64_ehdr *)f;
}

static struct ekdb_elf64_phdr *ph(uint8_t *f, int i)
{
	return (struct ekdb_elf64_phdr *)(f + sizeof(struct ekdb_elf64_ehdr)) + i;
}

/* A good kernel: text at KBASE (file 0x1000), data+bss at KBASE+0x2000 (file 0x2000), a note. */
static uint8_t *good(void)
{
	uint8_t *f = buf;
	struct ekdb_elf64_ehdr *h = eh(f);

	memset(buf, 0, sizeof(buf));
	memcpy(h->e_ident, "\x7f" "ELF", 4);
	h->e_ident[4] = EKDB_ELFCLASS64;
	h->e_ident[5] = EKDB_ELFDATA2LSB;
	h->e_ident[6] = EKDB_EV_CURRENT;
	h->e_type = EKDB_ET_EXEC;
	h->e_machine = EKDB_EM_X86_64;
	h->e_version = EKDB_EV_CURRENT;
	h->e_entry = KBASE + 0x10;
	h->e_phoff = sizeof(*h);
	h->e_ehsize = sizeof(*h);
	h->e_phentsize = sizeof(struct ekdb_elf64_phdr);
	h->e_phnum = 3;

	*ph(f, 0) = (struct ekdb_elf64_phdr){ .p_type = EKDB_PT_LOAD, .p_offset = 0x1000,
		.p_vaddr = KBASE, .p_filesz = 0x1000, .p_memsz = 0x1000, .p_align = 0x1000 };
	*ph(f, 1) = (struct ekdb_elf64_phdr){ .p_type = EKDB_PT_LOAD, .p_offset = 0x2000,
		.p_vaddr = KBASE + 0x2000, .p_filesz = 0x800, .p_memsz = 0x5000, .p_align = 0x1000 };
	*ph(f, 2) = (struct ekdb_elf64_phdr){ .p_type = 4 /* PT_NOTE */, .p_offset = 0x3000,
		.p_vaddr = 0, .p_filesz = 0x10, .p_memsz = 0x10 };
	return f;
}

static void test_good(void **state)
{
	struct ekdb_elf_image img;
	struct ekdb_elf64_phdr p;
	uint8_t *f = good();

	assert_null(ekdb_elf_check(f, FILE_SIZE, &img));
	assert_int_equal(img.entry, KBASE + 0x10);
	assert_int_equal(img.virt_start, KBASE);
	assert_int_equal(img.virt_end, KBASE + 0x7000);
	assert_int_equal(img.nload, 2);
	ekdb_elf_phdr(f, 1, &p);
	assert_int_equal(p.p_memsz, 0x5000);
}

static void test_good_unaligned(void **state)
{
	struct ekdb_elf_image img;

	good();
	memmove(buf + 1, buf, FILE_SIZE);
	assert_null(ekdb_elf_check(buf + 1, FILE_SIZE, &img));
	assert_int_equal(img.virt_end, KBASE + 0x7000);
}

static void expect_error(uint8_t *f, uint64_t size, const char *needle)
{
	struct ekdb_elf_image img;
	const char *err = ekdb_elf_check(f, size, &img);

	assert_non_null(err);
	if (!strstr(err, needle))
		fail_msg("error \"%s\" does not mention \"%s\"", err, needle);
}

static void test_bad_magic(void **state)
{
	uint8_t *f = good();

	f[1] = 'X';
	expect_error(f, FILE_SIZE, "bad magic");
	memcpy(f, "MZ\x90\x00", 4);
	expect_error(f, FILE_SIZE, "not an ELF");
}

static void test_32bit(void **state)
{
	uint8_t *f = good();

	f[4] = 1;	/* ELFCLASS32 */
	expect_error(f, FILE_SIZE, "not an x86-64 ELF");
}

static void test_big_endian(void **state)
{
	uint8_t *f = good();

	f[5] = 2;
	expect_error(f, FILE_SIZE, "little endian");
}

static void test_wrong_machine(void **state)
{
	uint8_t *f = good();

	eh(f)->e_machine = 183;	/* EM_AARCH64 */
	expect_error(f, FILE_SIZE, "EM_X86_64");
}

static void test_et_dyn(void **state)
{
	uint8_t *f = good();

	eh(f)->e_type = EKDB_ET_DYN;
	expect_error(f, FILE_SIZE, "ET_DYN");
	eh(f)->e_type = 1;	/* ET_REL */
	expect_error(f, FILE_SIZE, "ET_EXEC");
}

static void test_segment_beyond_file(void **state)
{
	uint8_t *f = good();

	ph(f, 1)->p_filesz = 0x3000;	/* 0x2000 + 0x3000 > 0x4000 */
	ph(f, 1)->p_memsz = 0x3000;
	expect_error(f, FILE_SIZE, "beyond the end of the file");
	f = good();
	ph(f, 1)->p_offset = UINT64_MAX - 0x10;	/* offset + filesz wraps */
	expect_error(f, FILE_SIZE, "beyond the end of the file");
}

static void test_overlap(void **state)
{
	uint8_t *f = good();

	ph(f, 1)->p_vaddr = KBASE;	/* same page as segment 0 */
	ph(f, 1)->p_offset = 0x2000;
	expect_error(f, FILE_SIZE, "overlap");
	f = good();
	ph(f, 0)->p_memsz = 0x2001;	/* runs one byte into segment 1 */
	expect_error(f, FILE_SIZE, "overlap");
}

static void test_memsz_lt_filesz(void **state)
{
	uint8_t *f = good();

	ph(f, 1)->p_memsz = 0x400;
	expect_error(f, FILE_SIZE, "memsz < filesz");
}

static void test_truncated_headers(void **state)
{
	uint8_t *f = good();

	expect_error(f, 10, "truncated");
	expect_error(f, sizeof(struct ekdb_elf64_ehdr) + 10, "truncated");
	eh(f)->e_phoff = FILE_SIZE - 8;
	expect_error(f, FILE_SIZE, "truncated");
	f = good();
	eh(f)->e_phoff = UINT64_MAX - 8;
	expect_error(f, FILE_SIZE, "truncated");
	expect_error(NULL, 0, "truncated");
}

static void test_misc_bad(void **state)
{
	uint8_t *f = good();

	ph(f, 1)->p_offset = 0x2010;	/* vaddr/offset not congruent */
	expect_error(f, FILE_SIZE, "congruent");
	f = good();
	eh(f)->e_entry = KBASE + 0x1800;	/* in the hole between segments */
	expect_error(f, FILE_SIZE, "entry point");
	f = good();
	eh(f)->e_phentsize = 32;
	expect_error(f, FILE_SIZE, "program header size");
	f = good();
	eh(f)->e_phnum = 0;
	expect_error(f, FILE_SIZE, "no program headers");
	f = good();
	ph(f, 0)->p_type = 6;
	ph(f, 1)->p_type = 6;
	expect_error(f, FILE_SIZE, "no PT_LOAD");
	f = good();
	ph(f, 0)->p_vaddr = 0x200000;	/* low kernel would collide with the identity map */
	ph(f, 0)->p_offset = 0x1000;
	expect_error(f, FILE_SIZE, "below 4 GiB");
	f = good();
	ph(f, 0)->p_vaddr = 0x0000900000000000ULL;	/* non-canonical */
	expect_error(f, FILE_SIZE, "canonical");
	f = good();
	ph(f, 1)->p_vaddr = KBASE - (2ULL << 30);	/* 2 GiB span */
	expect_error(f, FILE_SIZE, "1 GiB");
	f = good();
	ph(f, 1)->p_vaddr = UINT64_MAX & ~0xfffULL;
	ph(f, 1)->p_memsz = 0x2000;
	expect_error(f, FILE_SIZE, "wraps");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_good_unaligned),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_32bit),
		cmocka_unit_test(test_big_endian),
		cmocka_unit_test(test_wrong_machine),
		cmocka_unit_test(test_et_dyn),
		cmocka_unit_test(test_segment_beyond_file),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_memsz_lt_filesz),
		cmocka_unit_test(test_truncated_headers),
		cmocka_unit_test(test_misc_bad),
	};

	return cmocka_run_group_tests_name("elf_check", tests, NULL, NULL);
}
