/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kaslr.c - where the kernel goes: a random 2 MiB-aligned virtual base in
 * the kernel's 1 GiB window and a random 2 MiB-aligned physical block
 * below 4 GiB (KASLR, on unless the command line says nokaslr).
 *
 * Entropy: RDRAND when CPUID.1:ECX.RDRAND says the CPU has it, else the
 * time-stamp counter, mixed (as Linux's arch/x86/lib/kaslr.c falls back).
 */
#include "loader.h"
#include "cmdline_parse.h"

#define SZ_2M		0x200000ULL
/*
 * The kernel's virtual window: the 1 GiB the kernel's page tables give its
 * image (PML4 slot 511, PDPT slot 510: kernel-glue/paging.c), inside the
 * -2 GiB area -mcmodel=kernel code can reach with sign-extended 32-bit
 * addresses.  The first 2 MiB stay unused as at the link address.
 */
#define KASLR_VIRT_START	0xffffffff80200000ULL
#define KASLR_VIRT_END		0xffffffffc0000000ULL
/* Lowest physical address the image is placed at: keep clear of the low 16 MiB (ISA DMA, firmware). */
#define KASLR_PHYS_MIN		0x1000000ULL

static int cpu_has_rdrand(void)
{
	UINT32 a = 1, b, c = 0, d;

	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return (c >> 30) & 1;
}

static int rdrand64(UINT64 *v)
{
	for (int i = 0; i < 16; i++) {
		unsigned char ok;

		__asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok));
		if (ok)
			return 1;
	}
	return 0;
}

static UINT64 rdtsc(void)
{
	UINT32 lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((UINT64)hi << 32) | lo;
}

/* A random 64-bit number; *src says where it came from. */
static UINT64 kaslr_random(const CHAR16 **src)
{
	UINT64 v, t;

	if (cpu_has_rdrand() && rdrand64(&v)) {
		*src = L"RDRAND";
		return v;
	}
	/* The TSC's low bits carry the entropy: spread them over the word. */
	t = rdtsc();
	v = t * 0x9e3779b97f4a7c15ULL;
	v ^= v >> 29;
	v *= 0xbf58476d1ce4e5b9ULL;
	v ^= v >> 32;
	*src = L"TSC";
	return v;
}

/* Fills L->kaslr: off when nokaslr is on the command line, else the entropy source. */
void ldr_kaslr_init(struct loader *L)
{
	L->kaslr_on = !ekdb_cmdline_has_word(L->bi->cmdline, "nokaslr");
	if (L->kaslr_on)
		L->kaslr_seed = kaslr_random(&L->kaslr_src);
}

/* Next random number from the seed (splitmix64: one RDRAND/TSC read is enough). */
static UINT64 kaslr_next(struct loader *L)
{
	UINT64 z = (L->kaslr_seed += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

UINT64 ldr_kaslr_virt(struct loader *L, UINT64 link, UINT64 span)
{
	UINT64 need = (span + SZ_2M - 1) & ~(SZ_2M - 1), slots;

	if (!L->kaslr_on || link != KASLR_VIRT_START || need > KASLR_VIRT_END - KASLR_VIRT_START)
		return link;
	slots = (KASLR_VIRT_END - KASLR_VIRT_START - need) / SZ_2M + 1;
	return KASLR_VIRT_START + (kaslr_next(L) % slots) * SZ_2M;
}

/*
 * A random 2 MiB-aligned block of @pages free pages between 16 MiB and
 * 4 GiB, allocated as the kernel's.  Returns 0 when KASLR is off or no
 * such block could be had (the caller then allocates as without KASLR).
 */
UINT64 ldr_kaslr_phys(struct loader *L, UINT64 pages)
{
	UINTN n = 0, key, dsize;
	UINT32 dver;
	EFI_MEMORY_DESCRIPTOR *map, *d;
	UINT64 size = pages * EKDB_PAGE, total = 0, pick = 0, a;
	EFI_PHYSICAL_ADDRESS addr = 0;
	UINTN i;

	if (!L->kaslr_on)
		return 0;
	map = LibMemoryMap(&n, &key, &dsize, &dver);
	if (!map)
		return 0;
	/* Two passes over the free blocks: count the slots, then find the picked one. */
	for (int pass = 0; pass < 2; pass++) {
		UINT64 seen = 0;

		if (pass == 1) {
			if (!total)
				break;
			pick = kaslr_next(L) % total;
		}
		for (i = 0, d = map; i < n; i++, d = NextMemoryDescriptor(d, dsize)) {
			UINT64 lo = d->PhysicalStart, hi = lo + d->NumberOfPages * EKDB_PAGE, cnt;

			if (d->Type != EfiConventionalMemory)
				continue;
			if (lo < KASLR_PHYS_MIN)
				lo = KASLR_PHYS_MIN;
			if (hi > EKDB_4GIB)
				hi = EKDB_4GIB;
			lo = (lo + SZ_2M - 1) & ~(SZ_2M - 1);
			if (lo >= hi || hi - lo < size)
				continue;
			cnt = (hi - lo - size) / SZ_2M + 1;
			if (pass == 0) {
				total += cnt;
			} else if (pick < seen + cnt) {
				addr = lo + (pick - seen) * SZ_2M;
				break;
			}
			seen += cnt;
		}
	}
	FreePool(map);
	if (!addr)
		return 0;
	a = addr;
	if (EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateAddress,
					EKDB_EFI_KERNEL_TYPE, pages, &addr)))
		return 0;
	return a;
}
