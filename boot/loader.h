/* SPDX-License-Identifier: GPL-2.0 */
/* loader.h - shared state and helpers of the ekdb UEFI loader (GNU-EFI). */
#ifndef EKDB_BOOT_LOADER_H
#define EKDB_BOOT_LOADER_H

#include <efi.h>
#include <efilib.h>
#include <ekdb/bootinfo.h>

/* OS-defined UEFI memory types (>= 0x80000000) so the final map shows our blocks. */
#define EKDB_EFI_KERNEL_TYPE	((EFI_MEMORY_TYPE)0x80000001)
#define EKDB_EFI_BOOTDATA_TYPE	((EFI_MEMORY_TYPE)0x80000002)

#define EKDB_KERNEL_PATH	L"\\EFI\\ekdb\\kernel.elf"
#define EKDB_CMDLINE_PATH	L"\\EFI\\ekdb\\cmdline.txt"

#define EKDB_4GIB		0x100000000ULL
#define EKDB_PAGE		4096ULL
#define EKDB_PAGES(bytes)	(((bytes) + EKDB_PAGE - 1) / EKDB_PAGE)

/* Everything the loader learns or allocates on its way to the kernel. */
struct loader {
	EFI_HANDLE image;
	EFI_LOADED_IMAGE *li;
	EFI_FILE_HANDLE root;		/* the volume the loader came from */

	struct ekdb_bootinfo *bi;	/* BOOTDATA, below 4 GiB */
	UINTN bi_pages;

	UINT64 entry;			/* kernel e_entry (virtual) */
	UINT64 kernel_pages;

	UINT64 pt_base;			/* page table pool (BOOTDATA, below 4 GiB) */
	UINTN pt_pages, pt_used;

	int kaslr_on;			/* randomize the kernel base (no nokaslr) */
	const CHAR16 *kaslr_src;	/* where the randomness came from: RDRAND or TSC */
	UINT64 kaslr_seed;

	int ebs_tried;			/* ExitBootServices was called: no more boot services */
};

/* Console output: "ekdb loader: " + message + newline. */
void ldr_info(const CHAR16 *fmt, ...);
/*
 * "ekdb loader: error: " + message, then a 3 s pause so a human can read it.
 * Returns st (or EFI_LOAD_ERROR when st is not an error) for `return ldr_fail(...)`.
 */
EFI_STATUS ldr_fail(EFI_STATUS st, const CHAR16 *fmt, ...);

/* file.c */
EFI_STATUS ldr_open_root(struct loader *L);
/* Reads a whole file into pool memory; returns EFI_NOT_FOUND etc. without printing. */
EFI_STATUS ldr_read_file(struct loader *L, const CHAR16 *path, void **data, UINTN *size);

/* cmdline.c */
EFI_STATUS ldr_get_cmdline(struct loader *L);

/* elf.c */
EFI_STATUS ldr_load_kernel(struct loader *L);

/* kaslr.c: ldr_kaslr_init reads the command line (nokaslr) and the entropy. */
void ldr_kaslr_init(struct loader *L);
/* A random 2 MiB-aligned base in the kernel window for an image linked at @link; @link when off. */
UINT64 ldr_kaslr_virt(struct loader *L, UINT64 link, UINT64 span);
/* A random physical block of @pages below 4 GiB, allocated; 0 when off or none (allocate as usual). */
UINT64 ldr_kaslr_phys(struct loader *L, UINT64 pages);

/* gop.c */
void ldr_get_framebuffer(struct loader *L);

/* acpi.c */
void ldr_find_rsdp(struct loader *L);

/* paging.c */
EFI_STATUS ldr_build_page_tables(struct loader *L);

/* memmap.c: on success boot services are gone: no more console output. */
EFI_STATUS ldr_exit_boot_services(struct loader *L);

/* debugger.c: the loader debugger (boot/dbg/), armed by ekdb.loader=wait|on */
void ldr_debugger_start(struct loader *L);		/* after the command line */
void ldr_debugger_kernel_file(struct loader *L, const void *file, UINTN size);
void ldr_debugger_stop(struct loader *L);		/* ekdb.loader=wait: before ExitBootServices */
void ldr_debugger_release(struct loader *L);		/* back to the firmware: its IDT back */
void ldr_debugger_handoff(struct loader *L);	/* after ExitBootServices: the session into the record */

/* handover.S: cli, CR3 = pml4, %rdi = bootinfo, jump to entry.  Never returns. */
void ekdb_handover(UINT64 entry, UINT64 bootinfo, UINT64 pml4) __attribute__((noreturn));

#endif
