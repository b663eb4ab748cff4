/* SPDX-License-Identifier: GPL-2.0 */
/* processor.h - control registers, MSRs, flags and small CPU instructions. */
#ifndef ASM_X86_PROCESSOR_H
#define ASM_X86_PROCESSOR_H

#include <ekdb/types.h>

/* RFLAGS bits (Intel SDM vol. 1, 3.4.3) */
#define X86_EFLAGS_CF	(1UL << 0)
#define X86_EFLAGS_TF	(1UL << 8)
#define X86_EFLAGS_IF	(1UL << 9)
#define X86_EFLAGS_DF	(1UL << 10)
#define X86_EFLAGS_RF	(1UL << 16)
#define X86_EFLAGS_AC	(1UL << 18)

#define X86_CR0_PE	(1UL << 0)
#define X86_CR0_WP	(1UL << 16)
#define X86_CR0_PG	(1UL << 31)
#define X86_CR4_PAE	(1UL << 5)
#define X86_CR4_PGE	(1UL << 7)

#define MSR_EFER		0xc0000080
#define EFER_SCE		(1UL << 0)
#define EFER_LME		(1UL << 8)
#define EFER_NXE		(1UL << 11)
#define MSR_FS_BASE		0xc0000100
#define MSR_GS_BASE		0xc0000101
#define MSR_KERNEL_GS_BASE	0xc0000102
#define MSR_IA32_APIC_BASE	0x1b

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ __volatile__("wrmsr" :: "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)));
}

#define DEFINE_CR(n)								\
static inline u64 read_cr##n(void)						\
{ u64 v; __asm__ __volatile__("mov %%cr" #n ", %0" : "=r"(v)); return v; }	\
static inline void write_cr##n(u64 v)						\
{ __asm__ __volatile__("mov %0, %%cr" #n :: "r"(v) : "memory"); }
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)
DEFINE_CR(8)
#undef DEFINE_CR

static inline u64 read_rflags(void)
{
	u64 f;

	__asm__ __volatile__("pushfq; popq %0" : "=r"(f));
	return f;
}

static inline void cpuid(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ __volatile__("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}

static inline void cpu_relax(void) { __asm__ __volatile__("pause" ::: "memory"); }
#ifdef EKDB_HOST	/* host unit tests run at CPL 3: cli/sti would fault; one thread */
static inline void local_irq_disable(void) { __asm__ __volatile__("" ::: "memory"); }
static inline void local_irq_enable(void) { __asm__ __volatile__("" ::: "memory"); }
#else
static inline void local_irq_disable(void) { __asm__ __volatile__("cli" ::: "memory"); }
static inline void local_irq_enable(void) { __asm__ __volatile__("sti" ::: "memory"); }
#endif
static inline void halt(void) { __asm__ __volatile__("hlt" ::: "memory"); }
static inline u64 local_irq_save(void)
{
	u64 f = read_rflags();

	local_irq_disable();
	return f;
}
static inline void local_irq_restore(u64 f)
{
	if (f & X86_EFLAGS_IF)
		local_irq_enable();
}
static inline void invlpg(u64 va) { __asm__ __volatile__("invlpg (%0)" :: "r"(va) : "memory"); }
static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

#endif
