/* SPDX-License-Identifier: GPL-2.0 */
/*
 * start.c - start_kernel(): the boot order, one call per stage, named as
 * in Linux: setup_arch -> trap_init -> mm_init -> ... -> rest_init.
 */
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <asm/desc.h>

void early_trap_init(void);

void start_kernel(u64 bootinfo_phys)
{
	x86_gdt_init_cpu(0);		/* our GDT/TSS: IST stacks for NMI and #DF */
	early_trap_init();		/* every vector lands somewhere from now on */
	setup_arch(bootinfo_phys);
	trap_init();
	mm_init();
	rest_init();
}

/**
 * rest_init - the end of boot: boot-time tests asked for on the command
 * line, the "boot complete" line, then idle.
 */
void rest_init(void)
{
	run_boot_tests();
	pr_notice("boot complete: %u CPUs online\n", 1u);
	if (cmdline_has("exit_after_boot"))
		qemu_exit(QEMU_EXIT_SUCCESS);
	for (;;)
		__asm__ __volatile__("sti; hlt");
}
