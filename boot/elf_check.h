/* SPDX-License-Identifier: GPL-2.0 */
/* elf_check.h - pure validation of an in-memory x86-64 kernel ELF (no UEFI, host-testable). */
#ifndef EKDB_BOOT_ELF_CHECK_H
#define EKDB_BOOT_ELF_CHECK_H

#include <stdint.h>

/* The few ELF64 definitions the loader needs (System V gABI). */
#define EKDB_EI_NIDENT		16
#define EKDB_ELFCLASS64		2
#define EKDB_ELFDATA2LSB	1
#define EKDB_EV_CURRENT		1
#define EKDB_ET_EXEC		2
#define EKDB_ET_DYN		3
#define EKDB_EM_X86_64		62
#define EKDB_PT_LOAD		1

#define EKDB_ELF_PAGE		4096ULL
/* Largest kernel image span the loader accepts (lowest to highest vaddr). */
#define EKDB_ELF_MAX_SPAN	(1ULL << 30)
/* Most program headers the loader looks at. */
#define EKDB_ELF_MAX_PHDRS	64

struct ekdb_elf64_ehdr {
	uint8_t e_ident[EKDB_EI_NIDENT];
	uint16_t e_type;
	uint16_t e_machine;
	uint32_t e_version;
	uint64_t e_entry;
	uint64_t e_phoff;
	uint64_t e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize;
	uint16_t e_phentsize;
	uint16_t e_phnum;
	uint16_t e_shentsize;
	uint16_t e_shnum;
	uint16_t e_shstrndx;
};

struct ekdb_elf64_phdr {
	uint32_t p_type;
	uint32_t p_flags;
	uint64_t p_offset;
	uint64_t p_vaddr;
	uint64_t p_paddr;
	uint64_t p_filesz;
	uint64_t p_memsz;
	uint64_t p_align;
};

/* What the loader needs to know once the file has been accepted. */
struct ekdb_elf_image {
	uint64_t entry;		/* e_entry (virtual) */
	uint64_t virt_start;	/* lowest PT_LOAD vaddr, rounded down to a page */
	uint64_t virt_end;	/* highest PT_LOAD vaddr + memsz, rounded up to a page */
	unsigned int nload;	/* PT_LOAD segments with memsz > 0 */
};

/*
 * Validate a whole kernel ELF file held in memory.  Returns NULL when the file
 * is an acceptable ELF64 little-endian x86-64 ET_EXEC with sane PT_LOAD
 * segments (and fills *img), otherwise a short human-readable reason.
 * The buffer needs no particular alignment.
 */
const char *ekdb_elf_check(const void *file, uint64_t file_size,
			   struct ekdb_elf_image *img);

/* Program header number i (0-based) copied out of the file; caller checked the file. */
void ekdb_elf_phdr(const void *file, unsigned int i, struct ekdb_elf64_phdr *ph);

#endif
