// SPDX-License-Identifier: GPL-2.0
/*
 * Where ekdb may plant no breakpoint in Linux (where it may: text.c).
 * Refused as ekdb's own code is (kdb: "the debugger cannot stop there",
 * gdb: E, writes too):
 *  - the glue's stop path, the section .text..ekdb_nobp
 *    (linux/patches/0020): a breakpoint there fires inside the stop;
 *  - Linux's entry and noinstr code (the int3, #DB and NMI entries ekdb
 *    is reached through; kprobes refuses them too);
 *  - what a secondary CPU runs before its IDT is loaded: an int3 there
 *    is a triple fault, which resets the machine.
 */
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <asm/sections.h>

#include <ekdb/ekdb.h>

#include "glue.h"

/* start_secondary() up to cpu_init_exception_handling()'s load_current_idt() */
static const char *const ekdb_linux_ap_early[] __initconst = {
	"secondary_startup_64", "secondary_startup_64_no_verify", "verify_cpu",
	"start_secondary", "cr4_init", "cpu_init_secondary",
	"cpu_init_exception_handling", "load_current_idt",
};

static void __init ekdb_linux_nobp(const char *what, unsigned long start, unsigned long end)
{
	if (ekdb_add_nobp_range(start, end))
		pr_warn("ekdb: %s: not refused to breakpoints (no room)\n", what);
}

void __init ekdb_linux_nobp_init(void)
{
	unsigned long addr, size, off;
	int i;

	ekdb_linux_nobp("the glue's stop path", (unsigned long)__ekdb_nobp_text_start,
			(unsigned long)__ekdb_nobp_text_end);
	ekdb_linux_nobp("entry text", (unsigned long)__entry_text_start,
			(unsigned long)__entry_text_end);
	ekdb_linux_nobp("noinstr text", (unsigned long)__noinstr_text_start,
			(unsigned long)__noinstr_text_end);
	for (i = 0; i < ARRAY_SIZE(ekdb_linux_ap_early); i++) {
		addr = kallsyms_lookup_name(ekdb_linux_ap_early[i]);
		if (addr && kallsyms_lookup_size_offset(addr, &size, &off))
			ekdb_linux_nobp(ekdb_linux_ap_early[i], addr, addr + size);
	}
}
