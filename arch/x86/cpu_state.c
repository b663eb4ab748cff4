/* SPDX-License-Identifier: GPL-2.0 */
/* cpu_state.c - trap frame + live registers <-> the debugger's flat register copy. */
#include <asm/cpu_state.h>
#include <ekdb/arch.h>
#include <asm/debugreg.h>
#include <asm/processor.h>

static u16 read_seg(int which)
{
	u16 v = 0;

	switch (which) {
	case 0: __asm__ __volatile__("mov %%ds, %0" : "=r"(v)); break;
	case 1: __asm__ __volatile__("mov %%es, %0" : "=r"(v)); break;
	case 2: __asm__ __volatile__("mov %%fs, %0" : "=r"(v)); break;
	case 3: __asm__ __volatile__("mov %%gs, %0" : "=r"(v)); break;
	}
	return v;
}

void arch_dbg_state_capture(struct arch_dbg_state *st, const struct pt_regs *r)
{
	st->rax = r->rax; st->rbx = r->rbx; st->rcx = r->rcx; st->rdx = r->rdx;
	st->rsi = r->rsi; st->rdi = r->rdi; st->rbp = r->rbp; st->rsp = r->rsp;
	st->r8 = r->r8; st->r9 = r->r9; st->r10 = r->r10; st->r11 = r->r11;
	st->r12 = r->r12; st->r13 = r->r13; st->r14 = r->r14; st->r15 = r->r15;
	st->rip = r->rip;
	st->eflags = r->rflags;
	st->cs = r->cs;
	st->ss = r->ss;
	st->ds = read_seg(0);
	st->es = read_seg(1);
	st->fs = read_seg(2);
	st->gs = read_seg(3);
	st->fs_base = rdmsr(MSR_FS_BASE);
	st->gs_base = rdmsr(MSR_GS_BASE);
	st->k_gs_base = rdmsr(MSR_KERNEL_GS_BASE);
	st->cr0 = read_cr0();
	st->cr2 = read_cr2();
	st->cr3 = read_cr3();
	st->cr4 = read_cr4();
	st->cr8 = read_cr8();
	st->efer = rdmsr(MSR_EFER);
	st->dr0 = x86_get_dr(0);
	st->dr1 = x86_get_dr(1);
	st->dr2 = x86_get_dr(2);
	st->dr3 = x86_get_dr(3);
	st->dr6 = x86_get_dr(6);
	st->dr7 = x86_get_dr(7);
}

void arch_dbg_state_writeback(const struct arch_dbg_state *st, struct pt_regs *r)
{
	r->rax = st->rax; r->rbx = st->rbx; r->rcx = st->rcx; r->rdx = st->rdx;
	r->rsi = st->rsi; r->rdi = st->rdi; r->rbp = st->rbp; r->rsp = st->rsp;
	r->r8 = st->r8; r->r9 = st->r9; r->r10 = st->r10; r->r11 = st->r11;
	r->r12 = st->r12; r->r13 = st->r13; r->r14 = st->r14; r->r15 = st->r15;
	r->rip = st->rip;
	/* keep the bits the CPU requires (bit 1 is always 1) */
	r->rflags = (st->eflags & 0x3f7fd7ULL) | 0x2;
}

u64 arch_dbg_mm_generation(void)
{
	return read_cr3();
}
