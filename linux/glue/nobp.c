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
 *    is a triple fault, which resets the machine;
 *  - the Linux functions the stop path calls (ekdb_linux_stop_calls[],
 *    the APIC driver's functions the round-up calls through `apic`),
 *    found by running the stop path under QEMU's execution trace
 *    (tests/integration/test_linux_stop_path.py fails naming any it sees
 *    that is not refused).
 */
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#include <asm/apic.h>
#include <asm/sections.h>

#include <ekdb/ekdb.h>

#include "glue.h"

/* start_secondary() up to cpu_init_exception_handling()'s load_current_idt() */
static const char *const ekdb_linux_ap_early[] __initconst = {
	"secondary_startup_64", "secondary_startup_64_no_verify", "verify_cpu",
	"start_secondary", "cr4_init", "cpu_init_secondary",
	"cpu_init_exception_handling", "load_current_idt",
};

/*
 * The Linux functions ekdb's stop path calls, by what reaches them (seen
 * in the trace of each kdb command and of a stop's entry, 2 CPUs).  Each
 * name is refused with the clones and cold parts GCC makes of it
 * (name.constprop.0, name.cold), and wherever vmlinux has it: strcmp,
 * memchr and memmove are ekdb's own too.  Most run while ekdb's software
 * breakpoints are out, but not all (the entries and the round-up run
 * before), and ekdb's own stop path is refused whole in the same way.
 */
static const char *const ekdb_linux_stop_calls[] __initconst = {
	/* do_int3() before ekdb_linux_int3(): kprobes first, then the die notifiers */
	"do_int3", "kprobe_int3_handler", "get_kprobe", "notify_die",
	"kprobe_exceptions_notify", "hw_breakpoint_exceptions_notify",
	/* a CPU the round-up's NMI stops, before ekdb_linux_nmi() */
	"nmi_handle", "sched_clock",
	/* the round-up (smp.c): called by flat's send_IPI_mask_allbutself */
	"__default_send_IPI_dest_field",
	/* port.c, kallsyms: bt, md/bp on a symbol, bl, bd/be/bc, the stop's banner */
	"kallsyms_lookup", "kallsyms_lookup_name", "kallsyms_lookup_names",
	"kallsyms_lookup_size_offset", "kallsyms_expand_symbol", "get_symbol_pos",
	"get_symbol_offset", "core_kernel_text", "strcmp", "strscpy",
	/* ... which asks the modules too (CONFIG_MODULES) */
	"__module_address", "module_address_lookup", "module_kallsyms_lookup_name", "strnchr",
	/* port.c sys_info's local_clock(): bt's header, summary */
	"sched_clock_cpu", "sched_clock_local",
	/* tasks.c: ps, bt, cpu, the stop's banner */
	"idle_task",
	/* dmesg.c: kmsg_dump_rewind(), kmsg_dump_get_line() */
	"kmsg_dump_rewind", "kmsg_dump_get_line", "prb_read_valid", "_prb_read_valid",
	"prb_next_seq", "desc_read", "desc_read_finalized_seq", "get_data",
	"record_print_text", "info_print_prefix", "sprintf", "vsnprintf", "format_decode",
	"number", "memchr", "memmove",
	/* md of a bad address: the #PF reaches fixup_exception(), which asks ekdb */
	"do_user_addr_fault", "fixup_exception", "kernelmode_fixup_or_oops", "bad_area_nosemaphore",
	"__bad_area_nosemaphore",
	/* the same in setup_arch(), through the early IDT (init text) */
	"early_idt_handler_array", "early_idt_handler_common", "do_early_exception",
	"early_fixup_exception", "__early_make_pgtable",
};

static void ekdb_linux_nobp(const char *what, unsigned long start, unsigned long end)
{
	if (ekdb_add_nobp_range(start, end))
		pr_warn("ekdb: %s: not refused to breakpoints (no room)\n", what);
}

/* The function at @addr, refused whole (its kallsyms size). */
static void ekdb_linux_nobp_fn(const char *what, unsigned long addr)
{
	unsigned long size, off;

	if (addr && kallsyms_lookup_size_offset(addr, &size, &off))
		ekdb_linux_nobp(what, addr - off, addr - off + size);
}

/* kallsyms_on_each_symbol(): a symbol of ekdb_linux_stop_calls[] (or its clone) in text */
static int __init ekdb_linux_stop_call(void *data, const char *name, struct module *mod,
				       unsigned long addr)
{
	size_t len = strchrnul(name, '.') - name;
	int i;

	for (i = 0; i < ARRAY_SIZE(ekdb_linux_stop_calls); i++) {
		if (strlen(ekdb_linux_stop_calls[i]) == len &&
		    !strncmp(ekdb_linux_stop_calls[i], name, len) && core_kernel_text(addr)) {
			ekdb_linux_nobp_fn(name, addr);
			break;
		}
	}
	return 0;
}

/*
 * The round-up's NMI goes through the APIC driver's function pointers
 * (smp.c): refused is what they point at.  Linux may choose another
 * driver after setup_arch() (x2apic, physflat): each CPU coming up looks
 * again (ekdb_linux_cpu_online()), before it can be rounded up.
 */
void ekdb_linux_nobp_apic(void)
{
	static void *seen[3];
	void *now[3] = { apic->send_IPI_mask_allbutself, apic->safe_wait_icr_idle, apic->read };
	int i;

	for (i = 0; i < ARRAY_SIZE(now); i++) {
		if (now[i] != seen[i])
			ekdb_linux_nobp_fn("the APIC's round-up", (unsigned long)now[i]);
		seen[i] = now[i];
	}
}

void __init ekdb_linux_nobp_init(void)
{
	int i;

	ekdb_linux_nobp("the glue's stop path", (unsigned long)__ekdb_nobp_text_start,
			(unsigned long)__ekdb_nobp_text_end);
	ekdb_linux_nobp("entry text", (unsigned long)__entry_text_start,
			(unsigned long)__entry_text_end);
	ekdb_linux_nobp("noinstr text", (unsigned long)__noinstr_text_start,
			(unsigned long)__noinstr_text_end);
	for (i = 0; i < ARRAY_SIZE(ekdb_linux_ap_early); i++)
		ekdb_linux_nobp_fn(ekdb_linux_ap_early[i],
				   kallsyms_lookup_name(ekdb_linux_ap_early[i]));
	kallsyms_on_each_symbol(ekdb_linux_stop_call, NULL);
	ekdb_linux_nobp_apic();
}
