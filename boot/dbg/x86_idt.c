/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_idt.c - the loader's IDT while the firmware owns the machine: a copy
 * of the firmware's IDT (sidt), so its timer and device interrupts keep
 * going to the firmware, with the vectors the debugger needs pointed at
 * the shared entry stubs (arch/x86/entry.S -> x86_trap_dispatch): #DB and
 * #BP, and #DE #UD #SS #GP #PF #AC (faults enter the debugger; a fault in
 * a fault-safe access resumes at its fixup).  Gates use the firmware's
 * code selector (%cs now); no IST (the firmware's TSS is not ours).
 * The firmware's IDT goes back if the loader returns to the firmware.
 */
#include "x86_idt.h"
#include <asm/desc.h>

struct ldr_idt_gate {
	u16 offset_lo;
	u16 selector;
	u8 ist;
	u8 type_attr;
	u16 offset_mid;
	u32 offset_hi;
	u32 reserved;
} __packed;

struct ldr_idtr {
	u16 limit;
	u64 base;
} __packed;

_Static_assert(sizeof(struct ldr_idt_gate) == 16, "IDT gate is 16 bytes");

extern const u64 x86_idt_stubs[256];	/* arch/x86/entry.S */

static struct ldr_idt_gate ldr_idt[256] __aligned(16);
static struct ldr_idtr fw_idtr;
static bool taken;

/* The vectors the loader debugger owns: traps, and faults that may be fixed up or reported. */
static const u8 ldr_vectors[] = {
	X86_TRAP_DE, X86_TRAP_DB, X86_TRAP_BP, X86_TRAP_UD, X86_TRAP_SS,
	X86_TRAP_GP, X86_TRAP_PF, X86_TRAP_AC,
};

static void set_gate(unsigned vec, u64 addr, u16 cs)
{
	struct ldr_idt_gate *g = &ldr_idt[vec];

	g->offset_lo = addr & 0xffff;
	g->selector = cs;
	g->ist = 0;
	g->type_attr = 0x8e;	/* present, DPL 0, 64-bit interrupt gate (IF cleared) */
	g->offset_mid = (addr >> 16) & 0xffff;
	g->offset_hi = addr >> 32;
	g->reserved = 0;
}

void ldr_idt_take(void)
{
	struct ldr_idtr idtr;
	const u8 *src;
	u8 *dst = (u8 *)ldr_idt;
	size_t n;
	u16 cs;

	__asm__ __volatile__("sidt %0" : "=m"(fw_idtr));
	__asm__ __volatile__("mov %%cs, %0" : "=r"(cs));
	src = (const u8 *)fw_idtr.base;
	n = (size_t)fw_idtr.limit + 1;
	if (n > sizeof(ldr_idt))
		n = sizeof(ldr_idt);
	for (size_t i = 0; i < sizeof(ldr_idt); i++)
		dst[i] = i < n ? src[i] : 0;
	for (size_t i = 0; i < sizeof(ldr_vectors); i++)
		set_gate(ldr_vectors[i], x86_idt_stubs[ldr_vectors[i]], cs);
	idtr.limit = sizeof(ldr_idt) - 1;
	idtr.base = (u64)ldr_idt;
	__asm__ __volatile__("lidt %0" :: "m"(idtr) : "memory");
	taken = true;
}

void ldr_idt_give_back(void)
{
	if (!taken)
		return;
	__asm__ __volatile__("lidt %0" :: "m"(fw_idtr) : "memory");
	taken = false;
}

bool ldr_idt_is_ours(unsigned vec)
{
	for (size_t i = 0; i < sizeof(ldr_vectors); i++)
		if (ldr_vectors[i] == vec)
			return taken;
	return false;
}
