/* SPDX-License-Identifier: GPL-2.0 */
/*
 * traps.c - trap_init(), the oops printer and panic().
 *
 * An exception nobody handles (the debugger handles its own vectors first
 * when it is enabled) prints an oops: what happened, the registers, and a
 * frame-pointer backtrace symbolized with the kernel's own symbol table,
 * then halts that CPU.
 */
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <asm/desc.h>
#include <asm/fixup.h>
#include <asm/processor.h>
#include <kernel/kallsyms.h>
#include <ekdb/fmt.h>
#include <ekdb/ekdb.h>

#define BACKTRACE_MAX	32

volatile int oops_in_progress;
static int oops_count;

__ekdb_nobp void __noreturn halt_this_cpu(void)
{
	for (;;)
		__asm__ __volatile__("cli; hlt");
}

static __ekdb_nobp void show_stack_chain(u64 rbp)
{
	for (int depth = 0; rbp && depth < BACKTRACE_MAX; depth++) {
		u64 frame[2];	/* saved rbp, return address */

		if (rbp & 7 || arch_dbg_probe_read(frame, rbp, sizeof(frame)) != sizeof(frame))
			break;
		if (!frame[1])
			break;
		/* return address - 1 lies inside the calling instruction */
		printk(KERN_EMERG " [<%016llx>] %pS\n", (unsigned long long)frame[1],
		       (void *)(frame[1] - 1));
		if (frame[0] <= rbp)
			break;	/* stacks grow down: a saved rbp must be higher */
		rbp = frame[0];
	}
}

__ekdb_nobp void show_stack(u64 rbp, u64 rip)
{
	printk(KERN_EMERG "Call Trace:\n");
	if (rip)
		printk(KERN_EMERG " [<%016llx>] %pS\n", (unsigned long long)rip, (void *)rip);
	show_stack_chain(rbp);
}

/*
 * A fault in a function's first instruction(s) happens before it has
 * pushed %rbp: then its caller is found at the top of the stack, not
 * through the frame chain.
 */
static void show_stack_from_regs(struct pt_regs *r)
{
	struct ksym sym;
	u64 off, ret;
	u8 first;

	/* 0x55 = push %rbp: after it the return address is one slot up */
	if (kallsyms_lookup(r->rip, &sym, &off) && off <= 1 &&
	    arch_dbg_probe_read(&first, sym.addr, 1) == 1 &&
	    arch_dbg_probe_read(&ret, r->rsp + (first == 0x55 ? off : 0) * 8, 8) == 8 && ret) {
		printk(KERN_EMERG "Call Trace:\n");
		printk(KERN_EMERG " [<%016llx>] %pS\n", (unsigned long long)ret, (void *)(ret - 1));
		show_stack_chain(r->rbp);
		return;
	}
	show_stack(r->rbp, 0);
}

void show_regs(struct pt_regs *r)
{
	printk(KERN_EMERG "RIP: %04llx:%016llx %pS\n", (unsigned long long)r->cs,
	       (unsigned long long)r->rip, (void *)r->rip);
	printk(KERN_EMERG "RSP: %04llx:%016llx EFLAGS: %08llx\n", (unsigned long long)r->ss,
	       (unsigned long long)r->rsp, (unsigned long long)r->rflags);
	printk(KERN_EMERG "RAX: %016llx RBX: %016llx RCX: %016llx\n",
	       (unsigned long long)r->rax, (unsigned long long)r->rbx, (unsigned long long)r->rcx);
	printk(KERN_EMERG "RDX: %016llx RSI: %016llx RDI: %016llx\n",
	       (unsigned long long)r->rdx, (unsigned long long)r->rsi, (unsigned long long)r->rdi);
	printk(KERN_EMERG "RBP: %016llx R08: %016llx R09: %016llx\n",
	       (unsigned long long)r->rbp, (unsigned long long)r->r8, (unsigned long long)r->r9);
	printk(KERN_EMERG "R10: %016llx R11: %016llx R12: %016llx\n",
	       (unsigned long long)r->r10, (unsigned long long)r->r11, (unsigned long long)r->r12);
	printk(KERN_EMERG "R13: %016llx R14: %016llx R15: %016llx\n",
	       (unsigned long long)r->r13, (unsigned long long)r->r14, (unsigned long long)r->r15);
	printk(KERN_EMERG "CR0: %016llx CR2: %016llx CR3: %016llx CR4: %016llx\n",
	       (unsigned long long)read_cr0(), (unsigned long long)read_cr2(),
	       (unsigned long long)read_cr3(), (unsigned long long)read_cr4());
}

void die(const char *what, struct pt_regs *regs)
{
	unsigned vec = regs->vector;

	oops_in_progress = 1;
	/* the debugger sees an oops first (kgdb's die notifier) */
	if (ekdb_handle_die(what, regs)) {
		oops_in_progress = 0;
		return;
	}
	printk(KERN_EMERG "Oops: %s: %s, error code 0x%llx [#%d]\n", what,
	       x86_trap_name(vec), (unsigned long long)regs->error_code, ++oops_count);
	if (vec == X86_TRAP_PF)
		printk(KERN_EMERG "BUG: unable to handle page fault for address: %016llx (%s, %s)\n",
		       (unsigned long long)read_cr2(),
		       regs->error_code & 2 ? "write" : "read",
		       regs->error_code & 1 ? "protection violation" : "not present");
	show_regs(regs);
	show_stack_from_regs(regs);
	printk(KERN_EMERG "---[ end trace: CPU halted ]---\n");
	halt_this_cpu();
}

static void unhandled_trap(struct pt_regs *regs)
{
	if (regs->vector >= 32) {
		printk(KERN_WARNING "unexpected interrupt vector %llu\n",
		       (unsigned long long)regs->vector);
		return;
	}
	die("unhandled exception", regs);
}

/*
 * Installed by x86_64_start_kernel() right after the jump window: the IDT
 * (x86_idt_init) is loaded already; unhandled vectors get the oops path.
 */
void early_trap_init(void);
void early_trap_init(void)
{
	fmt_set_symbol_resolver(kallsyms_sprint);
	x86_set_default_trap_handler(unhandled_trap);
}

__ekdb_nobp void __noreturn panic(const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	u64 rbp;

	local_irq_disable();
	oops_in_progress = 1;
	va_start(ap, fmt);
	ekdb_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", msg);
	__asm__ __volatile__("movq %%rbp, %0" : "=r"(rbp));
	show_stack(rbp, 0);
	ekdb_panic(msg);		/* kgdb/kdb on panic, as Linux */
	printk(KERN_EMERG "---[ end Kernel panic - not syncing: %s ]---\n", msg);
	halt_this_cpu();
}

/**
 * trap_init - the full IDT.  The one table already holds every vector's
 * stub (early_trap_init); here the kernel's handlers take their places.
 * Handlers the debugger installed earlier are kept as they are, so there
 * is no moment in which a breakpoint has nowhere to go.
 */
void trap_init(void)
{
	unsigned kept = 0;

	for (unsigned v = 0; v < 32; v++)
		if (x86_get_trap_handler(v))
			kept++;
	x86_idt_load();
	pr_info("trap_init: IDT with 256 vectors, %u debugger vectors kept\n", kept);
}
