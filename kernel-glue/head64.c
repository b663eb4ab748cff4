/* SPDX-License-Identifier: GPL-2.0 */
/*
 * head64.c - x86_64_start_kernel(): the first C code, between head.S and
 * start_kernel() (Linux's shape).  In this order:
 *  1. the kernel's GDT and TSS (IST stacks for NMI and #DF),
 *  2. the kernel's IDT, every vector on a stub,
 *  3. the debugger's takeover: the loader's breakpoints, line and session
 *     (if it left any), #BP/#DB/NMI handled from here on,
 *  -- end of the jump window (__jump_window_end) --
 *  4. the kernel's boot port (<ekdb/port.h>: log, consoles, maps, symbols),
 *     so a stop from here on (a breakpoint planted from the loader) names
 *     the kernel's symbols; the rest of the port comes in setup_arch(),
 *  5. per-CPU data (GS base, current), the kernel's trap handlers,
 *  6. start_kernel(): a breakpoint planted there from the loader fires.
 * Steps 1-3 run only debugger code (arch/x86, core, early: no breakpoints
 * there); the window itself is the handful of instructions of head.S and
 * of this function before the takeover returns (docs/debugging-early-boot.md).
 */
#include <kernel/kernel.h>
#include <kernel/percpu.h>
#include <asm/desc.h>
#include <ekdb/ekdb.h>

void early_trap_init(void);
void __noreturn x86_64_start_kernel(u64 bootinfo_phys);

__section(".text.head64") void __noreturn x86_64_start_kernel(u64 bootinfo_phys)
{
	x86_gdt_init_cpu(0);
	x86_idt_init();
	ekdb_handoff_takeover(bootinfo_phys);
	__asm__ __volatile__(".globl __jump_window_end\n__jump_window_end:" ::: "memory");
	debug_glue_boot();		/* the debugger may log, register consoles, name symbols */
	percpu_init_boot_cpu();		/* GS base: smp_processor_id(), current */
	early_trap_init();		/* the kernel's handlers for every vector */
	start_kernel(bootinfo_phys);
	for (;;)
		__asm__ __volatile__("cli; hlt");
}
