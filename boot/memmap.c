/* SPDX-License-Identifier: GPL-2.0 */
/* memmap.c - final memory map, ExitBootServices with retries, conversion into the boot-info record. */
#include "loader.h"
#include "mmap_convert.h"

#define EBS_TRIES	8
/* Entries kept free on the pre-exit map for what changes before the final one. */
#define MMAP_HEADROOM	16

EFI_STATUS ldr_exit_boot_services(struct loader *L)
{
	struct ekdb_bootinfo *bi = L->bi;
	UINTN size = 0, cap, key, dsize;
	UINT32 dver, need;
	EFI_MEMORY_DESCRIPTOR *map = NULL;
	EFI_STATUS st;
	int try;

	st = uefi_call_wrapper(BS->GetMemoryMap, 5, &size, NULL, &key, &dsize, &dver);
	if (st != EFI_BUFFER_TOO_SMALL)
		return ldr_fail(st, L"GetMemoryMap failed: %r", st);
	/* Room for the map to grow: our own pool allocation and later changes. */
	cap = size + 32 * dsize;
	st = uefi_call_wrapper(BS->AllocatePool, 3, EfiLoaderData, cap, (void **)&map);
	if (EFI_ERROR(st))
		return ldr_fail(st, L"out of memory for the memory map (%ld bytes): %r", cap, st);

	for (try = 0; try < EBS_TRIES; try++) {
		size = cap;
		st = uefi_call_wrapper(BS->GetMemoryMap, 5, &size, map, &key, &dsize, &dver);
		if (EFI_ERROR(st)) {
			if (try == 0) {
				FreePool(map);
				return ldr_fail(st, L"GetMemoryMap failed: %r", st);
			}
			break;
		}
		if (try == 0) {
			/* Last chance to complain: check the record can hold the map. */
			need = ekdb_mmap_convert(map, size, dsize, bi->mmap, EKDB_MMAP_MAX);
			if (need > EKDB_MMAP_MAX - MMAP_HEADROOM) {
				FreePool(map);
				return ldr_fail(EFI_BUFFER_TOO_SMALL,
						L"memory map has %d entries after merging; the boot-info record holds %d (with %d spare)",
						need, EKDB_MMAP_MAX, MMAP_HEADROOM);
			}
		}
		L->ebs_tried = 1;
		st = uefi_call_wrapper(BS->ExitBootServices, 2, L->image, key);
		if (!EFI_ERROR(st)) {
			/* Boot services are gone: no console, no allocation from here on. */
			need = ekdb_mmap_convert(map, size, dsize, bi->mmap, EKDB_MMAP_MAX);
			bi->mmap_count = need > EKDB_MMAP_MAX ? EKDB_MMAP_MAX : need;
			return EFI_SUCCESS;
		}
		/* The map changed under us (EFI_INVALID_PARAMETER): fetch it again. */
	}
	/* Boot services may be half torn down: do not print, do not free. */
	return st;
}
