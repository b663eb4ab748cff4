/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bootinfo.h - the record the UEFI loader (boot/) hands to the kernel entry.
 *
 * The loader fills one struct ekdb_bootinfo in memory it allocated below
 * 4 GiB and passes its physical address in %rdi to the kernel entry point.
 * The record is versioned: the kernel refuses a record whose magic, version
 * or size it does not know (see bootinfo_check() in lib/bootinfo.c).
 *
 * CPU state at the kernel entry (the contract boot/handover.S keeps):
 *  - 64-bit long mode, CPL 0, interrupts disabled (RFLAGS.IF = 0), DF = 0.
 *  - Paging on with the loader's page tables (CR3 = bootinfo->loader_pml4):
 *      * identity map of physical 0 .. 4 GiB with 2 MiB pages (RWX),
 *      * the kernel image mapped at kernel_virt (its link address plus
 *        kaslr_offset) onto the physical pages the loader copied it to,
 *        with 4 KiB pages; the loader has applied the kernel's relocations
 *        for kaslr_offset (KASLR, see docs/boot.md).
 *  - GDT, IDT and stack are the firmware's: the kernel must load its own
 *    GDT and stack before doing anything else, and must not rely on the IDT.
 *  - %rdi = physical (= identity-mapped virtual) address of this record.
 *  - Boot services have been exited; runtime services are not used.
 *
 * This header is shared by the loader (built with GNU-EFI) and the kernel,
 * so it uses only fixed-width types.
 */
#ifndef EKDB_BOOTINFO_H
#define EKDB_BOOTINFO_H

#include <stdint.h>
#include <ekdb/handoff.h>
#include <ekdb/framebuffer.h>

#define EKDB_BOOTINFO_MAGIC	0x4f464e49424b4445ULL	/* "EDKBINFO" little endian */
/* 2: kaslr_offset; 3: the debugger's handoff record (dbg) at the end */
#define EKDB_BOOTINFO_VERSION	3

/* Longest kernel command line, including the terminating NUL. */
#define EKDB_CMDLINE_MAX	2048
/* Most memory map entries the record can carry (more: loader refuses to boot). */
#define EKDB_MMAP_MAX		512

/*
 * Memory types in the record.  The loader converts UEFI types:
 *  Conventional, BootServices{Code,Data}, Loader{Code,Data} -> USABLE
 *  ACPIReclaimMemory -> ACPI_RECLAIM, ACPIMemoryNVS -> ACPI_NVS,
 *  the kernel image -> KERNEL, bootinfo/page tables/trampoline -> BOOTDATA,
 *  everything else (runtime services, MMIO, reserved, unusable) -> RESERVED.
 */
enum ekdb_mem_type {
	EKDB_MEM_USABLE = 1,
	EKDB_MEM_RESERVED = 2,
	EKDB_MEM_ACPI_RECLAIM = 3,
	EKDB_MEM_ACPI_NVS = 4,
	EKDB_MEM_KERNEL = 5,	/* the loaded kernel image (all PT_LOAD segments) */
	EKDB_MEM_BOOTDATA = 6,	/* this record, loader page tables, AP trampoline page */
};

struct ekdb_mmap_entry {
	uint64_t base;		/* physical, page aligned */
	uint64_t length;	/* bytes, multiple of 4096 */
	uint32_t type;		/* enum ekdb_mem_type */
	uint32_t efi_type;	/* the original EFI_MEMORY_TYPE, for dmesg */
};

enum ekdb_cmdline_source {
	EKDB_CMDLINE_NONE = 0,
	EKDB_CMDLINE_LOAD_OPTIONS = 1,	/* from the image's UEFI LoadOptions */
	EKDB_CMDLINE_FILE = 2,		/* from \EFI\ekdb\cmdline.txt on the ESP */
};

struct ekdb_bootinfo {
	uint64_t magic;			/* EKDB_BOOTINFO_MAGIC */
	uint32_t version;		/* EKDB_BOOTINFO_VERSION */
	uint32_t size;			/* sizeof(struct ekdb_bootinfo) */

	uint64_t kernel_phys;		/* physical address of the lowest PT_LOAD page */
	uint64_t kernel_virt;		/* its (virtual) address: the link address + kaslr_offset */
	uint64_t kernel_size;		/* bytes from kernel_virt to the end of the last segment, page rounded */
	uint64_t kaslr_offset;		/* how far the loader moved the image from its link address (0: nokaslr), 2 MiB multiple */

	uint64_t loader_pml4;		/* physical address of the loader's PML4 (CR3 at entry) */
	uint64_t trampoline_phys;	/* one free 4 KiB page below 1 MiB for the AP start-up code; 0 if none */
	uint64_t rsdp;			/* physical address of the ACPI RSDP; 0 if none */

	uint32_t cmdline_source;	/* enum ekdb_cmdline_source */
	uint32_t cmdline_len;		/* strlen(cmdline) */
	char cmdline[EKDB_CMDLINE_MAX];	/* NUL terminated, ASCII */

	struct ekdb_framebuffer fb;

	uint32_t mmap_count;
	uint32_t pad;
	struct ekdb_mmap_entry mmap[EKDB_MMAP_MAX];

	/*
	 * The loader's debugger state, taken over by the kernel before
	 * start_kernel() (include/ekdb/handoff.h).  dbg.magic = 0: none (the
	 * loader ran no debugger).  Checked on its own (dbg_handoff_check()):
	 * a bad one turns the debugger off, never the boot.
	 */
	struct ekdb_handoff dbg;
};

#endif /* EKDB_BOOTINFO_H */
