/* SPDX-License-Identifier: GPL-2.0 */
/* mmap_convert.h - pure conversion of a UEFI memory map to boot-info entries (host-testable). */
#ifndef EKDB_BOOT_MMAP_CONVERT_H
#define EKDB_BOOT_MMAP_CONVERT_H

#include <stdint.h>
#include <ekdb/bootinfo.h>

/* OS-defined UEFI memory types the loader allocates with. */
#define EKDB_EFI_TYPE_KERNEL	0x80000001u
#define EKDB_EFI_TYPE_BOOTDATA	0x80000002u

/* The start of a UEFI EFI_MEMORY_DESCRIPTOR (the firmware's stride may be larger). */
struct ekdb_efi_memdesc {
	uint32_t type;
	uint32_t pad;
	uint64_t phys_start;
	uint64_t virt_start;
	uint64_t num_pages;
	uint64_t attribute;
};

/* enum ekdb_mem_type for an EFI_MEMORY_TYPE (rules in bootinfo.h). */
uint32_t ekdb_mmap_type(uint32_t efi_type);

/*
 * Convert `map_size` bytes of descriptors `desc_size` apart into out[], sorted
 * by base, adjacent entries of the same converted type merged (efi_type of the
 * lowest kept), empty entries dropped.  Returns the number of entries needed;
 * when that is more than max, only the lowest max entries are in out[].
 */
uint32_t ekdb_mmap_convert(const void *map, uint64_t map_size, uint64_t desc_size,
			   struct ekdb_mmap_entry *out, uint32_t max);

#endif
