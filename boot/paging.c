/* SPDX-License-Identifier: GPL-2.0 */
/* paging.c - builds the 4-level page tables the kernel is entered with (identity 0..4 GiB + kernel). */
#include "loader.h"

#define PTE_P		0x001ULL
#define PTE_W		0x002ULL
#define PTE_PS		0x080ULL
#define PTE_ADDR	0x000ffffffffff000ULL
#define SZ_2M		0x200000ULL
#define SZ_1G		0x40000000ULL

static UINT64 *pt_new(struct loader *L)
{
	UINT64 *p;

	if (L->pt_used >= L->pt_pages)
		return NULL;
	p = (UINT64 *)(UINTN)(L->pt_base + L->pt_used++ * EKDB_PAGE);
	ZeroMem(p, EKDB_PAGE);
	return p;
}

/* The table entry at `level` (4 = PML4 .. 1 = PT) for va, creating tables on the way. */
static UINT64 *pt_walk(struct loader *L, UINT64 va, int level)
{
	UINT64 *table = (UINT64 *)(UINTN)L->bi->loader_pml4;
	int lv;

	for (lv = 4; lv > level; lv--) {
		UINT64 *e = &table[(va >> (12 + 9 * (lv - 1))) & 511];

		if (!(*e & PTE_P)) {
			UINT64 *next = pt_new(L);

			if (!next)
				return NULL;
			*e = (UINT64)(UINTN)next | PTE_P | PTE_W;
		} else if (*e & PTE_PS) {
			return NULL;	/* already a large page here */
		}
		table = (UINT64 *)(UINTN)(*e & PTE_ADDR);
	}
	return &table[(va >> (12 + 9 * (level - 1))) & 511];
}

/* Identity-map [start, end) with 2 MiB pages; entries already mapped the same way are kept. */
static EFI_STATUS identity_2m(struct loader *L, UINT64 start, UINT64 end)
{
	UINT64 a;

	for (a = start & ~(SZ_2M - 1); a < end; a += SZ_2M) {
		UINT64 *e = pt_walk(L, a, 2);

		if (!e)
			return EFI_OUT_OF_RESOURCES;
		if ((*e & PTE_P) && (*e & ~0xfffULL) != a)
			return EFI_INVALID_PARAMETER;
		*e = a | PTE_P | PTE_W | PTE_PS;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS map_4k(struct loader *L, UINT64 va, UINT64 pa)
{
	UINT64 *e = pt_walk(L, va, 1);

	if (!e || (*e & PTE_P))
		return EFI_INVALID_PARAMETER;
	*e = pa | PTE_P | PTE_W;
	return EFI_SUCCESS;
}

/*
 * Where the CPU still is at the CR3 switch (loader code, firmware stack and
 * GDT) must stay mapped; it is below 4 GiB on OVMF, but map it when it is not.
 */
static EFI_STATUS keep_current_mapped(struct loader *L)
{
	struct { UINT16 limit; UINT64 base; } __attribute__((packed)) gdtr;
	UINT64 rsp, img = (UINT64)(UINTN)L->li->ImageBase;
	EFI_STATUS st = EFI_SUCCESS;

	__asm__ volatile("mov %%rsp, %0" : "=r"(rsp));
	__asm__ volatile("sgdt %0" : "=m"(gdtr));
	if (img + L->li->ImageSize > EKDB_4GIB)
		st = identity_2m(L, img, img + L->li->ImageSize);
	if (!EFI_ERROR(st) && rsp + SZ_2M > EKDB_4GIB)
		st = identity_2m(L, rsp - 256 * 1024, rsp + 64 * 1024);
	if (!EFI_ERROR(st) && gdtr.base + gdtr.limit + 1 > EKDB_4GIB)
		st = identity_2m(L, gdtr.base, gdtr.base + gdtr.limit + 1);
	return st;
}

EFI_STATUS ldr_build_page_tables(struct loader *L)
{
	struct ekdb_bootinfo *bi = L->bi;
	EFI_PHYSICAL_ADDRESS addr = EKDB_4GIB - 1;
	UINT64 off, *pml4;
	EFI_STATUS st;

	/* PML4 + PDPT + 4 PDs for the identity map; PTs/PDs/PDPTs for the kernel; spare. */
	L->pt_pages = 6 + (bi->kernel_size / SZ_2M + 2) + (bi->kernel_size / SZ_1G + 2) + 2 + 12;
	st = uefi_call_wrapper(BS->AllocatePages, 4, AllocateMaxAddress, EKDB_EFI_BOOTDATA_TYPE,
			       L->pt_pages, &addr);
	if (EFI_ERROR(st)) {
		UINTN want = L->pt_pages;

		L->pt_pages = 0;
		return ldr_fail(st, L"out of memory for page tables (%d pages below 4 GiB): %r",
				want, st);
	}
	L->pt_base = addr;
	L->pt_used = 0;
	pml4 = pt_new(L);
	bi->loader_pml4 = (UINT64)(UINTN)pml4;

	st = identity_2m(L, 0, EKDB_4GIB);
	for (off = 0; !EFI_ERROR(st) && off < bi->kernel_size; off += EKDB_PAGE)
		st = map_4k(L, bi->kernel_virt + off, bi->kernel_phys + off);
	if (!EFI_ERROR(st))
		st = keep_current_mapped(L);
	if (EFI_ERROR(st))
		return ldr_fail(st, L"cannot build page tables (%d of %d pages used): %r",
				L->pt_used, L->pt_pages, st);
	return EFI_SUCCESS;
}
