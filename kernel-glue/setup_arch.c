/* SPDX-License-Identifier: GPL-2.0 */
/*
 * setup_arch.c - architecture setup, as a readable sequence of named
 * steps.  The early debugger hooks in right after the early parameters
 * (earlyprintk, ekgdboc, kgdbwait) are parsed, before any allocator.
 */
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/acpi.h>
#include <asm/io.h>
#include <ekdb/bootinfo_check.h>
#include <ekdb/ekdb.h>
#include <ekdb/string.h>

struct ekdb_bootinfo boot_params;

/* No console exists yet if the record is bad: say so on COM1 directly. */
static void __noreturn bad_bootinfo(const char *why)
{
	static const char head[] = "\r\nekdb: cannot boot: ";

	for (const char *s = head; *s; s++)
		outb(0x3f8, *s);
	for (const char *s = why; *s; s++)
		outb(0x3f8, *s);
	outb(0x3f8, '\r');
	outb(0x3f8, '\n');
	halt_this_cpu();
}

/* Step 1: take the loader's record into the kernel image. */
static void copy_boot_params(u64 bootinfo_phys)
{
	/* The loader's identity map is still in place here. */
	const struct ekdb_bootinfo *bi = (const struct ekdb_bootinfo *)bootinfo_phys;
	const char *why = bootinfo_check(bi);

	if (why)
		bad_bootinfo(why);
	memcpy(&boot_params, bi, sizeof(boot_params));
	strlcpy(boot_command_line, boot_params.cmdline, sizeof(boot_command_line));
	/* The loader moved us (KASLR): the record must say where we really run. */
	if ((u64)_text != boot_params.kernel_virt)
		bad_bootinfo("kernel_virt is not where the kernel runs");
	ekdb_set_text_offset(boot_params.kaslr_offset);
	ekdb_set_text_base((u64)_text);
}

static void print_banner(void)
{
	static const char *const src[] = { "none", "UEFI load options", "ESP file" };

	pr_notice("ekdb reference kernel (x86_64), built " __DATE__ " " __TIME__ "\n");
	pr_notice("Command line: %s\n", boot_command_line);
	pr_info("Command line source: %s\n",
		boot_params.cmdline_source < 3 ? src[boot_params.cmdline_source] : "?");
	pr_info("Kernel image: virt 0x%llx phys 0x%llx size %llu KiB\n",
		(unsigned long long)boot_params.kernel_virt,
		(unsigned long long)boot_params.kernel_phys,
		(unsigned long long)boot_params.kernel_size / 1024);
	if (boot_params.kaslr_offset)
		pr_info("KASLR: kernel base 0x%llx, offset 0x%llx from the link address\n",
			(unsigned long long)boot_params.kernel_virt,
			(unsigned long long)boot_params.kaslr_offset);
	else
		pr_info("KASLR: off, kernel at its link address 0x%llx\n",
			(unsigned long long)boot_params.kernel_virt);
}

/* not inlined: a symbol of its own, so kdb's `bp print_memory_map` finds it as gdb does (issue 21) */
static __noinline void print_memory_map(void)
{
	static const char *const type[] = { "?", "usable", "reserved", "ACPI data",
					     "ACPI NVS", "kernel", "boot data" };

	pr_info("BIOS-provided physical RAM map (from UEFI):\n");
	for (u32 i = 0; i < boot_params.mmap_count; i++) {
		const struct ekdb_mmap_entry *e = &boot_params.mmap[i];

		pr_info("  mem [0x%016llx-0x%016llx] %s\n", (unsigned long long)e->base,
			(unsigned long long)(e->base + e->length - 1),
			e->type < ARRAY_SIZE(type) ? type[e->type] : "?");
	}
}

static void print_framebuffer(void)
{
	static const char *const fmt[] = { "none", "RGBX8", "BGRX8", "bitmask", "VGA text" };
	const struct ekdb_framebuffer *fb = &boot_params.fb;

	if (fb->format == EKDB_FB_NONE) {
		pr_info("framebuffer: none handed over by the loader\n");
		return;
	}
	pr_info("framebuffer: %ux%u %s at 0x%llx, pitch %u\n", fb->width, fb->height,
		fmt[fb->format], (unsigned long long)fb->base, fb->pitch);
}

/**
 * setup_arch - machine setup before the allocators exist.
 * @bootinfo_phys: the loader's record (identity-mapped)
 */
void setup_arch(u64 bootinfo_phys)
{
	copy_boot_params(bootinfo_phys);
	print_banner();			/* kept in the log; consoles replay it */
	parse_early_param();		/* earlyprintk=, ekgdboc=, kgdbwait, loglevel= ... */
	init_mem_mapping();		/* our own W^X page tables (static storage) */
	debug_glue_init();		/* what the kernel offers the debugger (ps, dmesg...) */
	ekdb_early_init();		/* the early debugger; kgdbwait stops in here */
	ekdbts_setup();			/* ekdbts=: the debugger's self-test (E: runs here) */
	early_fault_test();		/* test_early_fault */
	print_memory_map();
	print_framebuffer();
	memblock_init_from_bootinfo(boot_params.mmap, boot_params.mmap_count);
	memblock_remove(direct_map_end, ~0ULL - direct_map_end);	/* RAM we cannot reach */
	acpi_boot_table_init();		/* RSDP -> XSDT -> MADT: the CPUs */
}
