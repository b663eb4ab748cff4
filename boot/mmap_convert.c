/* SPDX-License-Identifier: GPL-2.0 */
/* mmap_convert.c - pure conversion of a UEFI memory map to boot-info entries (host-testable). */
#include "mmap_convert.h"

uint32_t ekdb_mmap_type(uint32_t efi_type)
{
	switch (efi_type) {
	case 1:	/* EfiLoaderCode */
	case 2:	/* EfiLoaderData */
	case 3:	/* EfiBootServicesCode */
	case 4:	/* EfiBootServicesData */
	case 7:	/* EfiConventionalMemory */
		return EKDB_MEM_USABLE;
	case 9:	/* EfiACPIReclaimMemory */
		return EKDB_MEM_ACPI_RECLAIM;
	case 10: /* EfiACPIMemoryNVS */
		return EKDB_MEM_ACPI_NVS;
	case EKDB_EFI_TYPE_KERNEL:
		return EKDB_MEM_KERNEL;
	case EKDB_EFI_TYPE_BOOTDATA:
		return EKDB_MEM_BOOTDATA;
	default: /* reserved, runtime services, unusable, MMIO, PAL, persistent, ... */
		return EKDB_MEM_RESERVED;
	}
}

/*
 * Insert e into the sorted out[0..n), merging with neighbours; returns the new n.
 * When out[] is full, the highest entry (maybe e itself) is dropped and *dropped set.
 */
static uint32_t insert(struct ekdb_mmap_entry *out, uint32_t n, uint32_t cap,
		       const struct ekdb_mmap_entry *e, int *dropped)
{
	uint32_t pos = n, i;

	while (pos > 0 && out[pos - 1].base > e->base)
		pos--;
	if (pos > 0 && out[pos - 1].type == e->type &&
	    out[pos - 1].base + out[pos - 1].length == e->base) {
		out[pos - 1].length += e->length;
		if (pos < n && out[pos].type == e->type &&
		    out[pos - 1].base + out[pos - 1].length == out[pos].base) {
			out[pos - 1].length += out[pos].length;
			for (i = pos; i + 1 < n; i++)
				out[i] = out[i + 1];
			n--;
		}
		return n;
	}
	if (pos < n && out[pos].type == e->type && e->base + e->length == out[pos].base) {
		out[pos].base = e->base;
		out[pos].length += e->length;
		out[pos].efi_type = e->efi_type;
		return n;
	}
	if (n == cap) {
		*dropped = 1;
		if (pos == n)
			return n;	/* e itself is the highest */
		n--;			/* drop the highest entry to keep the lowest ones */
	}
	for (i = n; i > pos; i--)
		out[i] = out[i - 1];
	out[pos] = *e;
	return n + 1;
}

uint32_t ekdb_mmap_convert(const void *map, uint64_t map_size, uint64_t desc_size,
			   struct ekdb_mmap_entry *out, uint32_t max)
{
	const uint8_t *p = map;
	uint32_t n = 0, extra = 0;
	uint64_t off;

	if (desc_size < sizeof(struct ekdb_efi_memdesc))
		return 0;
	for (off = 0; off + desc_size <= map_size; off += desc_size) {
		struct ekdb_efi_memdesc d;
		struct ekdb_mmap_entry e;
		const uint8_t *s = p + off;
		uint8_t *dst = (uint8_t *)&d;
		uint32_t k;
		int dropped = 0;

		for (k = 0; k < sizeof(d); k++)
			dst[k] = s[k];
		if (!d.num_pages)
			continue;
		e.base = d.phys_start;
		e.length = d.num_pages * 4096;
		e.type = ekdb_mmap_type(d.type);
		e.efi_type = d.type;
		n = insert(out, n, max, &e, &dropped);
		extra += dropped;
	}
	return n + extra;
}
