/* SPDX-License-Identifier: GPL-2.0 */
/*
 * desc.h - GDT, TSS and IDT: per-CPU descriptor tables, the one shared IDT
 * and the C-level trap handler table every exception vector goes through.
 */
#ifndef ASM_X86_DESC_H
#define ASM_X86_DESC_H

#define KERNEL_CS	0x08
#define KERNEL_DS	0x10
#define KERNEL_TSS	0x18

#define IST_NMI		1	/* TSS IST slot for NMI */
#define IST_DF		2	/* TSS IST slot for #DF */
#define IST_STACK_SIZE	8192

/* Exception vectors (Intel SDM vol. 3, 6.3.1) */
#define X86_TRAP_DE	0
#define X86_TRAP_DB	1
#define X86_TRAP_NMI	2
#define X86_TRAP_BP	3
#define X86_TRAP_OF	4
#define X86_TRAP_BR	5
#define X86_TRAP_UD	6
#define X86_TRAP_NM	7
#define X86_TRAP_DF	8
#define X86_TRAP_TS	10
#define X86_TRAP_NP	11
#define X86_TRAP_SS	12
#define X86_TRAP_GP	13
#define X86_TRAP_PF	14
#define X86_TRAP_MF	16
#define X86_TRAP_AC	17
#define X86_TRAP_MC	18
#define X86_TRAP_XF	19

#ifndef __ASSEMBLY__
#include <ekdb/types.h>
#include <asm/regs.h>

/*
 * A trap handler.  Returns true when it handled the trap (execution
 * resumes from @regs), false to pass it on to the default handler (oops).
 */
typedef bool (*x86_trap_fn)(struct pt_regs *regs);

/* The default handler: called for a trap nobody handled; may not return. */
typedef void (*x86_default_trap_fn)(struct pt_regs *regs);

/**
 * x86_idt_init - fill the one IDT with all 256 entry stubs and load it.
 * Called by x86_64_start_kernel (boot CPU, head64.c) and by each AP (load only).
 * Vectors 2 (NMI) and 8 (#DF) run on their own IST stacks.
 */
void x86_idt_init(void);
void x86_idt_load(void);

/**
 * x86_set_trap_handler - route vector @vec to @fn (NULL: default handler).
 * The debugger's vectors (1, 2, 3, 6, 8, 13, 14) are set by the debugger and
 * stay when trap_init() fills the rest: it is the same table.
 * Returns the previous handler.
 */
x86_trap_fn x86_set_trap_handler(unsigned vec, x86_trap_fn fn);
x86_trap_fn x86_get_trap_handler(unsigned vec);
void x86_set_default_trap_handler(x86_default_trap_fn fn);

/* Called by entry.S for every vector. */
void x86_trap_dispatch(struct pt_regs *regs);

/**
 * x86_gdt_init_cpu - build and load @cpu's GDT and TSS (with IST stacks),
 * reload segment registers.  Boot CPU: in start_kernel; APs: in their start.
 */
void x86_gdt_init_cpu(unsigned cpu);

extern const u64 x86_idt_stubs[256];

static inline const char *x86_trap_name(unsigned vec)
{
	static const char *const names[32] = {
		"#DE divide error", "#DB debug", "NMI", "#BP breakpoint", "#OF overflow",
		"#BR bound range", "#UD invalid opcode", "#NM device not available",
		"#DF double fault", "coprocessor segment overrun", "#TS invalid TSS",
		"#NP segment not present", "#SS stack fault", "#GP general protection",
		"#PF page fault", "reserved", "#MF x87 error", "#AC alignment check",
		"#MC machine check", "#XM SIMD error", "#VE virtualization",
		"#CP control protection",
	};
	if (vec < 32 && names[vec])
		return names[vec];
	return vec < 32 ? "reserved" : "interrupt";
}
#endif

#endif
