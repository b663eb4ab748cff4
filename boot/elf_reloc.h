/* SPDX-License-Identifier: GPL-2.0 */
/* elf_reloc.h - pure relocation of a loaded kernel image (KASLR; no UEFI, host-testable). */
#ifndef EKDB_BOOT_ELF_RELOC_H
#define EKDB_BOOT_ELF_RELOC_H

#include <stdint.h>

#define EKDB_SHT_SYMTAB		2
#define EKDB_SHT_RELA		4
#define EKDB_SHF_ALLOC		0x2
#define EKDB_SHN_UNDEF		0
#define EKDB_SHN_ABS		0xfff1

#define EKDB_R_X86_64_NONE	0
#define EKDB_R_X86_64_64	1
#define EKDB_R_X86_64_PC32	2
#define EKDB_R_X86_64_PLT32	4
#define EKDB_R_X86_64_32	10
#define EKDB_R_X86_64_32S	11
#define EKDB_R_X86_64_PC64	24

struct ekdb_elf64_shdr {
	uint32_t sh_name;
	uint32_t sh_type;
	uint64_t sh_flags;
	uint64_t sh_addr;
	uint64_t sh_offset;
	uint64_t sh_size;
	uint32_t sh_link;
	uint32_t sh_info;
	uint64_t sh_addralign;
	uint64_t sh_entsize;
};

struct ekdb_elf64_sym {
	uint32_t st_name;
	uint8_t st_info;
	uint8_t st_other;
	uint16_t st_shndx;
	uint64_t st_value;
	uint64_t st_size;
};

struct ekdb_elf64_rela {
	uint64_t r_offset;
	uint64_t r_info;
	int64_t r_addend;
};

/* What ekdb_elf_relocate() did, for the boot log and the tests. */
struct ekdb_reloc_stats {
	uint64_t abs64;		/* R_X86_64_64 sites moved */
	uint64_t abs32s;	/* R_X86_64_32S sites moved */
	uint64_t abs32;		/* R_X86_64_32 sites moved */
	uint64_t pc_abs;	/* PC-relative references to absolute symbols fixed */
	uint64_t skipped;	/* relocations that need nothing (PC-relative inside the image, absolute symbols) */
};

/*
 * Apply the relocations the link kept (ld --emit-relocs) to an image
 * linked at @link_base and loaded (all PT_LOAD segments, @span bytes,
 * laid out as at link time) at @image, so that it runs at
 * @link_base + @delta.  @file is the whole ELF file (already accepted by
 * ekdb_elf_check).  Only relocation sections that patch allocated
 * sections are applied; references to absolute symbols (SHN_ABS) keep
 * their value.  Returns NULL on success or a short reason; @delta 0 is
 * a no-op that still checks the tables.  A file without any relocation
 * section is refused when @delta is not 0 (it cannot be moved).
 */
const char *ekdb_elf_relocate(const void *file, uint64_t file_size, uint8_t *image,
			      uint64_t link_base, uint64_t span, int64_t delta,
			      struct ekdb_reloc_stats *stats);

#endif
