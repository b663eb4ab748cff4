/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf.c - reads \EFI\ekdb\kernel.elf, checks it, copies its segments to
 * one physical block and, with KASLR, moves it to a random virtual base
 * (its relocations applied: elf_reloc.c) and a random physical block.
 */
#include "loader.h"
#include "elf_check.h"
#include "elf_reloc.h"

EFI_STATUS ldr_load_kernel(struct loader *L)
{
	struct ekdb_bootinfo *bi = L->bi;
	struct ekdb_elf_image img;
	struct ekdb_elf64_ehdr eh;
	struct ekdb_elf64_phdr ph;
	EFI_PHYSICAL_ADDRESS phys = EKDB_4GIB - 1;
	struct ekdb_reloc_stats rst;
	UINT64 virt;
	const char *err;
	EFI_STATUS st;
	UINTN size;
	UINT8 *file;
	UINT64 span;
	unsigned int i;

	st = ldr_read_file(L, EKDB_KERNEL_PATH, (void **)&file, &size);
	if (EFI_ERROR(st))
		return ldr_fail(st, L"cannot open %s: %r", EKDB_KERNEL_PATH, st);
	err = ekdb_elf_check(file, size, &img);
	if (err) {
		FreePool(file);
		return ldr_fail(EFI_LOAD_ERROR, L"%s: %a", EKDB_KERNEL_PATH, err);
	}
	span = img.virt_end - img.virt_start;
	L->kernel_pages = span / EKDB_PAGE;
	ldr_kaslr_init(L);
	virt = ldr_kaslr_virt(L, img.virt_start, span);
	st = EFI_SUCCESS;
	phys = ldr_kaslr_phys(L, L->kernel_pages);
	if (!phys) {
		phys = EKDB_4GIB - 1;
		st = uefi_call_wrapper(BS->AllocatePages, 4, AllocateMaxAddress, EKDB_EFI_KERNEL_TYPE,
				       L->kernel_pages, &phys);
	}
	if (EFI_ERROR(st)) {
		FreePool(file);
		return ldr_fail(st, L"out of memory: no %ld contiguous KiB below 4 GiB for the kernel: %r",
				span / 1024, st);
	}
	ZeroMem((void *)(UINTN)phys, span);
	CopyMem(&eh, file, sizeof(eh));
	for (i = 0; i < eh.e_phnum; i++) {
		ekdb_elf_phdr(file, i, &ph);
		if (ph.p_type != EKDB_PT_LOAD || ph.p_memsz == 0)
			continue;
		CopyMem((void *)(UINTN)(phys + (ph.p_vaddr - img.virt_start)),
			file + ph.p_offset, ph.p_filesz);
	}
	bi->kernel_phys = phys;	/* from here release() frees it on failure */
	err = ekdb_elf_relocate(file, size, (UINT8 *)(UINTN)phys, img.virt_start, span,
				(INT64)(virt - img.virt_start), &rst);
	if (err) {
		FreePool(file);
		return ldr_fail(EFI_LOAD_ERROR, L"%s: cannot move the kernel to 0x%lx: %a",
				EKDB_KERNEL_PATH, virt, err);
	}

	bi->kernel_virt = virt;
	bi->kaslr_offset = virt - img.virt_start;
	bi->kernel_size = span;
	ldr_debugger_kernel_file(L, file, size);	/* placed and moved: its symbols, its window */
	FreePool(file);
	L->entry = img.entry + bi->kaslr_offset;
	/* no '+' or '-' in what a normal boot prints: see ldr_info() */
	if (L->kaslr_on)
		ldr_info(L"KASLR: kernel base 0x%lx (offset 0x%lx, link 0x%lx), phys 0x%lx, entropy %s, relocations: %ld R_X86_64_64, %ld R_X86_64_32S, %ld other",
			 virt, bi->kaslr_offset, img.virt_start, phys, L->kaslr_src,
			 rst.abs64, rst.abs32s, rst.abs32 + rst.pc_abs);
	else
		ldr_info(L"KASLR off (nokaslr): kernel base 0x%lx (the link address)", virt);
	if (span < (1 << 20))
		ldr_info(L"kernel %s: %d segments, %ld KiB at phys 0x%lx (virt 0x%lx), entry 0x%lx",
			 EKDB_KERNEL_PATH, img.nload, span >> 10, phys, virt, L->entry);
	else
		ldr_info(L"kernel %s: %d segments, %ld.%ld MiB at phys 0x%lx (virt 0x%lx), entry 0x%lx",
			 EKDB_KERNEL_PATH, img.nload, span >> 20, ((span & 0xfffff) * 10) >> 20,
			 phys, virt, L->entry);
	return EFI_SUCCESS;
}
