/* SPDX-License-Identifier: GPL-2.0 */
/* gdt.c - per-CPU GDT and TSS with the IST stacks for NMI and #DF. */
#include <asm/desc.h>
#include <asm/smp.h>

struct tss64 {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

_Static_assert(sizeof(struct tss64) == 104, "TSS is 104 bytes");

struct cpu_desc_tables {
	u64 gdt[5];
	struct tss64 tss;
} __aligned(64);

static struct cpu_desc_tables cpu_tables[NR_CPUS];
static u8 ist_stacks[NR_CPUS][2][IST_STACK_SIZE] __aligned(16);

void x86_gdt_init_cpu(unsigned cpu)
{
	struct cpu_desc_tables *t = &cpu_tables[cpu];
	u64 tss = (u64)&t->tss;
	u64 limit = sizeof(t->tss) - 1;
	struct {
		u16 limit;
		u64 base;
	} __packed gdtr = { sizeof(t->gdt) - 1, (u64)t->gdt };

	t->gdt[0] = 0;
	t->gdt[1] = 0x00af9a000000ffffULL;	/* 64-bit code, DPL 0 */
	t->gdt[2] = 0x00cf92000000ffffULL;	/* data, DPL 0 */
	/* 64-bit available TSS: 16-byte system descriptor */
	t->gdt[3] = (limit & 0xffff) | ((tss & 0xffffff) << 16) | (0x89ULL << 40) |
		    (((limit >> 16) & 0xf) << 48) | (((tss >> 24) & 0xff) << 56);
	t->gdt[4] = tss >> 32;
	t->tss.ist[IST_NMI - 1] = (u64)&ist_stacks[cpu][0][IST_STACK_SIZE];
	t->tss.ist[IST_DF - 1] = (u64)&ist_stacks[cpu][1][IST_STACK_SIZE];
	t->tss.iomap_base = sizeof(t->tss);

	__asm__ __volatile__(
		"lgdt %0\n\t"
		"pushq %1\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"movw %w2, %%ax\n\t"
		"movw %%ax, %%ds\n\t"
		"movw %%ax, %%es\n\t"
		"movw %%ax, %%ss\n\t"
		"xorl %%eax, %%eax\n\t"
		"movw %%ax, %%fs\n\t"
		"movw %%ax, %%gs\n\t"
		"ltr %w3"
		:: "m"(gdtr), "i"(KERNEL_CS), "r"(KERNEL_DS), "r"(KERNEL_TSS)
		: "rax", "memory");
}
