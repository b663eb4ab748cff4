/* SPDX-License-Identifier: GPL-2.0 */
/* idt.c - the one IDT of the kernel and the C handler table behind it. */
#include <asm/desc.h>
#include <asm/processor.h>
#include <asm/fixup.h>

struct idt_gate {
	u16 offset_lo;
	u16 selector;
	u8 ist;
	u8 type_attr;
	u16 offset_mid;
	u32 offset_hi;
	u32 reserved;
} __packed;

_Static_assert(sizeof(struct idt_gate) == 16, "IDT gate is 16 bytes");

static struct idt_gate idt[256] __aligned(4096);
static x86_trap_fn trap_handlers[256];
static x86_default_trap_fn default_handler;

static void set_gate(unsigned vec, u64 addr, u8 ist)
{
	struct idt_gate *g = &idt[vec];

	g->offset_lo = addr & 0xffff;
	g->selector = KERNEL_CS;
	g->ist = ist;
	g->type_attr = 0x8e;	/* present, DPL 0, 64-bit interrupt gate (IF cleared) */
	g->offset_mid = (addr >> 16) & 0xffff;
	g->offset_hi = addr >> 32;
	g->reserved = 0;
}

void x86_idt_load(void)
{
	struct {
		u16 limit;
		u64 base;
	} __packed idtr = { sizeof(idt) - 1, (u64)idt };

	__asm__ __volatile__("lidt %0" :: "m"(idtr));
}

void x86_idt_init(void)
{
	for (unsigned v = 0; v < 256; v++)
		set_gate(v, x86_idt_stubs[v], 0);
	set_gate(X86_TRAP_NMI, x86_idt_stubs[X86_TRAP_NMI], IST_NMI);
	set_gate(X86_TRAP_DF, x86_idt_stubs[X86_TRAP_DF], IST_DF);
	x86_idt_load();
}

x86_trap_fn x86_set_trap_handler(unsigned vec, x86_trap_fn fn)
{
	x86_trap_fn old = trap_handlers[vec & 0xff];

	WRITE_ONCE(trap_handlers[vec & 0xff], fn);
	return old;
}

x86_trap_fn x86_get_trap_handler(unsigned vec)
{
	return READ_ONCE(trap_handlers[vec & 0xff]);
}

void x86_set_default_trap_handler(x86_default_trap_fn fn)
{
	default_handler = fn;
}

void x86_trap_dispatch(struct pt_regs *regs)
{
	unsigned vec = regs->vector & 0xff;
	x86_trap_fn fn;

	/* A fault inside a fault-safe accessor resumes at its fixup. */
	if ((vec == X86_TRAP_PF || vec == X86_TRAP_GP || vec == X86_TRAP_SS) &&
	    x86_fixup_exception(regs))
		return;
	fn = READ_ONCE(trap_handlers[vec]);
	if (fn && fn(regs))
		return;
	if (default_handler)
		default_handler(regs);
	else
		for (;;)
			__asm__ __volatile__("cli; hlt");
}
