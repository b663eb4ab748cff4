/* SPDX-License-Identifier: GPL-2.0 */
/* test_elf_reloc.c - host tests for the loader's KASLR relocation (boot/elf_reloc.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../boot/elf_check.h"
#include "../../boot/elf_reloc.h"

#define LINK	0xffffffff80200000ULL
#define SPAN	0x1000ULL
#define DELTA	0x19200000LL

/*
 * A synthetic file: ELF header, sections [0] null, [1] .text (alloc),
 * [2] .symtab (0 null, 1 a .text symbol, 2 an absolute one), [3] .rela.text,
 * [4] .debug (not alloc), [5] .rela.debug.
 */
static struct {
	struct ekdb_elf64_ehdr eh;
	struct ekdb_elf64_shdr sh[6];
	struct ekdb_elf64_sym sym[3];
	struct ekdb_elf64_rela rela[8];
	struct ekdb_elf64_rela rela_dbg[1];
} f;
static unsigned int nrela;
static uint8_t image[SPAN];

#define OFF(m)	((uint64_t)offsetof(__typeof__(f), m))

static void build(void)
{
	memset(&f, 0, sizeof(f));
	memset(image, 0, sizeof(image));
	nrela = 0;
	f.eh.e_shoff = OFF(sh);
	f.eh.e_shnum = 6;
	f.eh.e_shentsize = sizeof(struct ekdb_elf64_shdr);
	f.sh[1].sh_flags = EKDB_SHF_ALLOC;
	f.sh[1].sh_addr = LINK;
	f.sh[2] = (struct ekdb_elf64_shdr){ .sh_type = EKDB_SHT_SYMTAB, .sh_offset = OFF(sym),
		.sh_size = sizeof(f.sym), .sh_entsize = sizeof(struct ekdb_elf64_sym) };
	f.sym[1] = (struct ekdb_elf64_sym){ .st_shndx = 1, .st_value = LINK + 0x100 };
	f.sym[2] = (struct ekdb_elf64_sym){ .st_shndx = EKDB_SHN_ABS, .st_value = 0x100 };
	f.sh[3] = (struct ekdb_elf64_shdr){ .sh_type = EKDB_SHT_RELA, .sh_offset = OFF(rela),
		.sh_entsize = sizeof(struct ekdb_elf64_rela), .sh_link = 2, .sh_info = 1 };
	f.sh[5] = (struct ekdb_elf64_shdr){ .sh_type = EKDB_SHT_RELA, .sh_offset = OFF(rela_dbg),
		.sh_size = sizeof(f.rela_dbg), .sh_entsize = sizeof(struct ekdb_elf64_rela),
		.sh_link = 2, .sh_info = 4 };
	/* debug info: a site far outside the image, never applied */
	f.rela_dbg[0] = (struct ekdb_elf64_rela){ 0x40, (1ULL << 32) | EKDB_R_X86_64_32, 0 };
}

static void add(uint64_t site_off, unsigned type, unsigned sym)
{
	f.rela[nrela++] = (struct ekdb_elf64_rela){ LINK + site_off, ((uint64_t)sym << 32) | type, 0 };
	f.sh[3].sh_size = nrela * sizeof(struct ekdb_elf64_rela);
}

static const char *run(int64_t delta, struct ekdb_reloc_stats *st)
{
	return ekdb_elf_relocate(&f, sizeof(f), image, LINK, SPAN, delta, st);
}

static void put64(uint64_t off, uint64_t v) { memcpy(image + off, &v, 8); }
static void put32(uint64_t off, uint32_t v) { memcpy(image + off, &v, 4); }
static uint64_t get64(uint64_t off) { uint64_t v; memcpy(&v, image + off, 8); return v; }
static uint32_t get32(uint64_t off) { uint32_t v; memcpy(&v, image + off, 4); return v; }

static void test_moves_each_kind(void **state)
{
	struct ekdb_reloc_stats st;

	build();
	add(0x10, EKDB_R_X86_64_64, 1);		put64(0x10, LINK + 0x100);
	add(0x20, EKDB_R_X86_64_32S, 1);	put32(0x20, (uint32_t)(LINK + 0x100));
	add(0x30, EKDB_R_X86_64_64, 2);		put64(0x30, 0x100);	/* absolute: kept */
	add(0x40, EKDB_R_X86_64_PC32, 1);	put32(0x40, 0x1234);	/* inside: kept */
	add(0x50, EKDB_R_X86_64_PLT32, 1);	put32(0x50, 0x5678);
	add(0x60, EKDB_R_X86_64_PC32, 2);	put32(0x60, 0x7fff0000);	/* to absolute: - delta */
	add(0x70, EKDB_R_X86_64_32, 2);		put32(0x70, 0x100);	/* absolute 32: kept */
	add(0x80, EKDB_R_X86_64_NONE, 0);
	assert_null(run(DELTA, &st));
	assert_int_equal(get64(0x10), LINK + 0x100 + DELTA);
	assert_int_equal(get32(0x20), (uint32_t)(LINK + 0x100 + DELTA));
	assert_int_equal(get64(0x30), 0x100);
	assert_int_equal(get32(0x40), 0x1234);
	assert_int_equal(get32(0x50), 0x5678);
	assert_int_equal(get32(0x60), (uint32_t)(0x7fff0000 - DELTA));
	assert_int_equal(get32(0x70), 0x100);
	assert_int_equal(st.abs64, 1);
	assert_int_equal(st.abs32s, 1);
	assert_int_equal(st.pc_abs, 1);
	assert_int_equal(st.skipped, 4);
}

static void test_delta_zero_changes_nothing(void **state)
{
	struct ekdb_reloc_stats st;

	build();
	add(0x10, EKDB_R_X86_64_64, 1);		put64(0x10, LINK + 0x100);
	assert_null(run(0, &st));
	assert_int_equal(get64(0x10), LINK + 0x100);
	/* no relocation sections at all: fine when not moving, refused when moving */
	f.eh.e_shnum = 3;
	assert_null(run(0, &st));
	assert_non_null(strstr(run(DELTA, &st), "--emit-relocs"));
}

static void test_out_of_range(void **state)
{
	struct ekdb_reloc_stats st;

	/* 32S: the moved address leaves the top 2 GiB */
	build();
	add(0x20, EKDB_R_X86_64_32S, 1);	put32(0x20, (uint32_t)(LINK + 0x100));
	assert_non_null(strstr(run(-0x300000LL, &st), "32S"));	/* below -2 GiB */
	/* 32: a low address moved past 4 GiB */
	build();
	add(0x20, EKDB_R_X86_64_32, 1);	put32(0x20, 0xfff00000u);
	assert_non_null(strstr(run(DELTA, &st), "R_X86_64_32 "));
}

static void test_bad_tables(void **state)
{
	struct ekdb_reloc_stats st;

	build();
	add(SPAN - 4, EKDB_R_X86_64_64, 1);	/* 8 bytes, 4 left */
	assert_non_null(strstr(run(DELTA, &st), "outside the image"));
	build();
	f.rela[0] = (struct ekdb_elf64_rela){ LINK - 8, (1ULL << 32) | EKDB_R_X86_64_64, 0 };
	f.sh[3].sh_size = sizeof(struct ekdb_elf64_rela);
	assert_non_null(strstr(run(DELTA, &st), "outside the image"));
	build();
	add(0x10, EKDB_R_X86_64_64, 7);		/* symbol 7 of 3 */
	assert_non_null(strstr(run(DELTA, &st), "symbol that does not exist"));
	build();
	add(0x10, 9 /* R_X86_64_GOTPCREL */, 1);
	assert_non_null(strstr(run(DELTA, &st), "unsupported"));
	build();
	f.sym[1].st_shndx = EKDB_SHN_UNDEF;
	add(0x10, EKDB_R_X86_64_64, 1);
	assert_non_null(strstr(run(DELTA, &st), "undefined"));
	build();
	add(0x10, EKDB_R_X86_64_64, 1);
	f.sh[3].sh_info = 9;			/* no such section */
	assert_non_null(run(DELTA, &st));
	build();
	add(0x10, EKDB_R_X86_64_64, 1);
	f.sh[3].sh_size = 1 << 20;		/* past the end of the file */
	assert_non_null(strstr(run(DELTA, &st), "out of the file"));
	build();
	add(0x10, EKDB_R_X86_64_64, 1);
	f.sh[2].sh_type = 1;			/* link is not a symbol table */
	assert_non_null(strstr(run(DELTA, &st), "symbol table"));
	build();
	f.eh.e_shoff = sizeof(f);		/* section headers past the end */
	assert_non_null(strstr(run(DELTA, &st), "section headers"));
	assert_non_null(ekdb_elf_relocate(&f, 10, image, LINK, SPAN, DELTA, &st));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_moves_each_kind),
		cmocka_unit_test(test_delta_zero_changes_nothing),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_bad_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
