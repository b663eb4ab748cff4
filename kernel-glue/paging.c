/* SPDX-License-Identifier: GPL-2.0 */
/*
 * paging.c - the kernel's own page tables (W^X), built in setup_arch from
 * static storage, replacing the loader's.
 *
 *  0xffffffff80200000  kernel image (linked here; with KASLR anywhere in
 *   + kaslr_offset     0xffffffff80200000..0xffffffffc0000000, 2 MiB
 *                      aligned), 4 KiB pages: text R+X, rodata R+NX,
 *                      data/bss R+W+NX, symbol table R+NX
 *  0xffff888000000000  direct map of physical 0 .. max(4 GiB, end of RAM),
 *                      2 MiB pages, R+W+NX (MMIO such as the framebuffer
 *                      and the local APIC below 4 GiB is reached this way)
 *  0x0 (optional)      identity map of the first 2 MiB, R+W+X, only while
 *                      application processors start (their trampoline)
 */
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <asm/processor.h>
#include <ekdb/string.h>

#define PTE_P		(1ULL << 0)
#define PTE_W		(1ULL << 1)
#define PTE_PS		(1ULL << 7)
#define PTE_G		(1ULL << 8)
#define PTE_NX		(1ULL << 63)
#define PTE_ADDR	0x000ffffffffff000ULL

#define DIRECT_MAP_MAX_GB	64	/* physical memory mapped at PAGE_OFFSET; raise for more */
#define KERNEL_MAX_PTS		16	/* 4 KiB page tables for the image: 32 MiB */

typedef u64 pte_t;

static pte_t pml4[512] __aligned(4096);
static pte_t kernel_pdpt[512] __aligned(4096);
static pte_t kernel_pd[512] __aligned(4096);
static pte_t kernel_pt[KERNEL_MAX_PTS][512] __aligned(4096);
static pte_t direct_pdpt[512] __aligned(4096);
pte_t direct_pd[DIRECT_MAP_MAX_GB][512] __aligned(4096);	/* early_ioremap.c sets cache bits */
static pte_t low_pdpt[512] __aligned(4096);
static pte_t low_pd[512] __aligned(4096);

static u64 kernel_virt_base, kernel_phys_base;
u64 direct_map_end;	/* physical memory at and above this is not mapped */

u64 __pa_symbol(const void *va)
{
	return (u64)va - kernel_virt_base + kernel_phys_base;
}

static unsigned pml4_index(u64 va) { return (va >> 39) & 511; }
static unsigned pdpt_index(u64 va) { return (va >> 30) & 511; }
static unsigned pd_index(u64 va) { return (va >> 21) & 511; }
static unsigned pt_index(u64 va) { return (va >> 12) & 511; }

static u64 kernel_page_flags(u64 va)
{
	if (va >= (u64)_text && va < (u64)_etext)
		return PTE_P | PTE_G;				/* R+X */
	if (va >= (u64)_sdata && va < (u64)_ebss)
		return PTE_P | PTE_W | PTE_G | PTE_NX;		/* R+W */
	return PTE_P | PTE_G | PTE_NX;				/* R (rodata, symbols) */
}

static void map_kernel_image(void)
{
	u64 start = boot_params.kernel_virt, end = (u64)_end;
	unsigned pd0 = pd_index(start);

	if (pml4_index(start) != 511 || pdpt_index(start) != 510 ||
	    end - (start & ~0x1fffffULL) > KERNEL_MAX_PTS * 0x200000ULL)
		panic("kernel image does not fit the static page tables (raise KERNEL_MAX_PTS)");
	pml4[511] = __pa_symbol(kernel_pdpt) | PTE_P | PTE_W;
	kernel_pdpt[510] = __pa_symbol(kernel_pd) | PTE_P | PTE_W;
	for (u64 va = start; va < end; va += PAGE_SIZE) {
		unsigned t = pd_index(va) - pd0;

		kernel_pd[pd_index(va)] = __pa_symbol(kernel_pt[t]) | PTE_P | PTE_W;
		kernel_pt[t][pt_index(va)] = (__pa_symbol((void *)va) & PTE_ADDR) | kernel_page_flags(va);
	}
}

static u64 ram_end(void)
{
	u64 end = 0;

	for (u32 i = 0; i < boot_params.mmap_count; i++) {
		const struct ekdb_mmap_entry *e = &boot_params.mmap[i];

		if (e->type != EKDB_MEM_RESERVED && e->base + e->length > end)
			end = e->base + e->length;
	}
	return end;
}

static void map_direct(void)
{
	u64 end = MAX(ram_end(), 4 * SZ_1G);
	u64 fb_end = boot_params.fb.base + boot_params.fb.size;
	unsigned gbs;

	if (boot_params.fb.format != EKDB_FB_NONE && fb_end > end)
		end = fb_end;
	gbs = (unsigned)((end + SZ_1G - 1) / SZ_1G);
	if (gbs > DIRECT_MAP_MAX_GB) {
		pr_warn("paging: only the first %u GiB of %u GiB are mapped (raise DIRECT_MAP_MAX_GB)\n",
			DIRECT_MAP_MAX_GB, gbs);
		gbs = DIRECT_MAP_MAX_GB;
	}
	direct_map_end = (u64)gbs * SZ_1G;
	pml4[pml4_index(PAGE_OFFSET)] = __pa_symbol(direct_pdpt) | PTE_P | PTE_W;
	for (unsigned g = 0; g < gbs; g++) {
		direct_pdpt[g] = __pa_symbol(direct_pd[g]) | PTE_P | PTE_W;
		for (unsigned i = 0; i < 512; i++)
			direct_pd[g][i] = ((u64)g * SZ_1G + (u64)i * 0x200000ULL) |
					  PTE_P | PTE_W | PTE_PS | PTE_NX;
	}
	pr_info("paging: direct map of %u GiB at 0x%lx\n", gbs, (unsigned long)PAGE_OFFSET);
}

void paging_map_low_identity(bool on)
{
	if (on) {
		low_pd[0] = 0 | PTE_P | PTE_W | PTE_PS;
		low_pdpt[0] = __pa_symbol(low_pd) | PTE_P | PTE_W;
		pml4[0] = __pa_symbol(low_pdpt) | PTE_P | PTE_W;
	} else {
		pml4[0] = 0;
	}
	write_cr3(read_cr3());	/* flush non-global entries */
}

/**
 * init_mem_mapping - build the kernel's page tables and switch to them.
 * After this the loader's tables (and its identity map) are gone: physical
 * memory is reached through __va().
 */
void init_mem_mapping(void)
{
	kernel_virt_base = boot_params.kernel_virt;
	kernel_phys_base = boot_params.kernel_phys;
	memset(pml4, 0, sizeof(pml4));
	map_kernel_image();
	map_direct();
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
	write_cr4(read_cr4() | X86_CR4_PGE);
	write_cr0(read_cr0() | X86_CR0_WP);
	write_cr3(__pa_symbol(pml4));
	pr_info("paging: kernel text %lu KiB R+X, rodata %lu KiB R, data+bss %lu KiB R+W (NX)\n",
		(unsigned long)(_etext - _text) / 1024,
		(unsigned long)(_erodata - __rodata_start) / 1024,
		(unsigned long)(_ebss - _sdata) / 1024);
}

/**
 * ioremap - where the CPU reaches device memory [@phys, @phys + @size).
 *
 * Device memory below direct_map_end (every PCI BAR QEMU assigns below
 * 4 GiB, the local APIC, the framebuffer the loader described) is already
 * mapped by the direct map, R+W+NX; its cache type comes from the MTRRs
 * the firmware set up (uncached or write-combining for PCI BARs), as for
 * the boot framebuffer.  Returns NULL for a range outside it (a 64-bit BAR
 * placed above all RAM and above 4 GiB): the caller says so and goes on.
 */
void *ioremap(u64 phys, u64 size)
{
	if (!size || phys + size < phys || phys + size > direct_map_end)
		return NULL;
	return __va(phys);
}

/**
 * paging_unmap_kernel_range - take [@start, @end) of the kernel image out
 * of the page tables (not present): any later access faults.  Used to
 * prove that nothing uses the early debugger's storage after the
 * handoff.  Only the current CPU's TLB is flushed: call it before other
 * CPUs start.
 */
void paging_unmap_kernel_range(u64 start, u64 end)
{
	unsigned pd0 = pd_index(boot_params.kernel_virt);

	for (u64 va = start & ~(u64)(PAGE_SIZE - 1); va < end; va += PAGE_SIZE) {
		if (va < boot_params.kernel_virt || va >= (u64)_end)
			continue;
		kernel_pt[pd_index(va) - pd0][pt_index(va)] = 0;
		invlpg(va);
	}
}
