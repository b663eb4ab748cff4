/* SPDX-License-Identifier: GPL-2.0 */
/* main.c - entry point of the ekdb UEFI loader: runs each step and reports failures. */
#include "loader.h"

/*
 * ldr_info - a line on the firmware console.  OVMF copies the console to
 * every UART, also the one a gdb may already be waiting on (ekgdboc=), and
 * gdb takes a '+' there for an ack and a '-' for a NAK (it sends its packet
 * again, and the stub later answers both copies): so nothing a normal boot
 * prints may hold either (test_first_contact.py checks).
 */
void ldr_info(const CHAR16 *fmt, ...)
{
	va_list ap;

	Print(L"ekdb loader: ");
	va_start(ap, fmt);
	VPrint(fmt, ap);
	va_end(ap);
	Print(L"\r\n");
}

EFI_STATUS ldr_fail(EFI_STATUS st, const CHAR16 *fmt, ...)
{
	va_list ap;

	Print(L"ekdb loader: error: ");
	va_start(ap, fmt);
	VPrint(fmt, ap);
	va_end(ap);
	Print(L"\r\n");
	Print(L"ekdb loader: returning to the firmware in 3 seconds\r\n");
	uefi_call_wrapper(BS->Stall, 1, 3000000);
	return EFI_ERROR(st) ? st : EFI_LOAD_ERROR;
}

/* One free page below 1 MiB for the kernel's AP start-up code (0 when there is none). */
static void get_trampoline(struct loader *L)
{
	EFI_PHYSICAL_ADDRESS addr = 0xfffff;
	EFI_STATUS st;

	st = uefi_call_wrapper(BS->AllocatePages, 4, AllocateMaxAddress,
			       EKDB_EFI_BOOTDATA_TYPE, 1, &addr);
	if (EFI_ERROR(st)) {
		ldr_info(L"no free page below 1 MiB for the AP trampoline (%r): SMP startup will not work", st);
		L->bi->trampoline_phys = 0;
		return;
	}
	L->bi->trampoline_phys = addr;
	ldr_info(L"AP trampoline page at 0x%lx", addr);
}

static EFI_STATUS alloc_bootinfo(struct loader *L)
{
	EFI_PHYSICAL_ADDRESS addr = EKDB_4GIB - 1;
	EFI_STATUS st;

	L->bi_pages = EKDB_PAGES(sizeof(struct ekdb_bootinfo));
	st = uefi_call_wrapper(BS->AllocatePages, 4, AllocateMaxAddress,
			       EKDB_EFI_BOOTDATA_TYPE, L->bi_pages, &addr);
	if (EFI_ERROR(st))
		return ldr_fail(st, L"out of memory for the boot-info record (%d pages below 4 GiB): %r",
				L->bi_pages, st);
	L->bi = (struct ekdb_bootinfo *)(UINTN)addr;
	ZeroMem(L->bi, L->bi_pages * EKDB_PAGE);
	L->bi->magic = EKDB_BOOTINFO_MAGIC;
	L->bi->version = EKDB_BOOTINFO_VERSION;
	L->bi->size = sizeof(struct ekdb_bootinfo);
	return EFI_SUCCESS;
}

/* Give back what was allocated, so a failed boot leaves the firmware as it was. */
static void release(struct loader *L)
{
	if (L->bi) {
		if (L->bi->kernel_phys)
			uefi_call_wrapper(BS->FreePages, 2, L->bi->kernel_phys, L->kernel_pages);
		if (L->bi->trampoline_phys)
			uefi_call_wrapper(BS->FreePages, 2, L->bi->trampoline_phys, 1);
		uefi_call_wrapper(BS->FreePages, 2, (EFI_PHYSICAL_ADDRESS)(UINTN)L->bi, L->bi_pages);
	}
	if (L->pt_base)
		uefi_call_wrapper(BS->FreePages, 2, L->pt_base, L->pt_pages);
	if (L->root)
		uefi_call_wrapper(L->root->Close, 1, L->root);
}

static EFI_STATUS run(struct loader *L)
{
	EFI_STATUS st;

	st = uefi_call_wrapper(BS->HandleProtocol, 3, L->image, &LoadedImageProtocol,
			       (void **)&L->li);
	if (EFI_ERROR(st))
		return ldr_fail(st, L"no LoadedImage protocol on the loader image: %r", st);
	st = alloc_bootinfo(L);
	if (EFI_ERROR(st))
		return st;
	st = ldr_open_root(L);
	if (EFI_ERROR(st))
		return st;
	st = ldr_get_cmdline(L);
	if (EFI_ERROR(st))
		return st;
	ldr_debugger_start(L);
	st = ldr_load_kernel(L);
	if (EFI_ERROR(st))
		return st;
	ldr_get_framebuffer(L);
	ldr_find_rsdp(L);
	get_trampoline(L);
	st = ldr_build_page_tables(L);
	if (EFI_ERROR(st))
		return st;
	ldr_info(L"boot info record at 0x%lx, page tables at 0x%lx",
		 (UINT64)(UINTN)L->bi, L->bi->loader_pml4);
	ldr_debugger_stop(L);
	ldr_info(L"exiting boot services, jumping to kernel at 0x%lx", L->entry);
	st = ldr_exit_boot_services(L);
	if (EFI_ERROR(st))
		return st;
	ldr_debugger_handoff(L);	/* breakpoints, line, session: into the record */
	ekdb_handover(L->entry, (UINT64)(UINTN)L->bi, L->bi->loader_pml4);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	struct loader L;
	EFI_STATUS st;

	InitializeLib(image, systab);
	ZeroMem(&L, sizeof(L));
	L.image = image;
	Print(L"\r\n");
	ldr_info(L"ekdb UEFI loader starting");
	st = run(&L);
	/* run() only comes back on failure, normally with boot services still up. */
	if (!L.ebs_tried) {
		ldr_debugger_release(&L);
		release(&L);
	}
	return st;
}
