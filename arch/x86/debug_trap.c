/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debug_trap.c - x86 trap policy of the debugger: the #DB, #BP and NMI
 * vectors, decoded into the core's portable events (asm/debug_trap.h).
 * #BP: int3 leaves rip past itself, so the breakpoint is at rip - 1.
 * #DB: DR6 says which DR slot hit (B0-B3) and whether a TF step ended
 * (BS); it is cleared here, as the SDM asks of the handler.
 */
#include <asm/debug_trap.h>
#include <ekdb/ekdb.h>
#include <asm/debugreg.h>
#include <asm/desc.h>
#include <asm/fixup.h>
#include <asm/processor.h>
#include <ekdb/gdb_signal.h>

void arch_dbg_resume_no_rehit(struct pt_regs *regs)
{
	regs->rflags |= X86_EFLAGS_RF;
}

bool arch_dbg_break_insn_at(u64 addr)
{
	u8 byte;

	return arch_dbg_probe_read(&byte, addr, 1) == 1 && byte == ARCH_BREAK_INSN;
}

int arch_dbg_fault_signal(unsigned vector)
{
	switch (vector) {
	case X86_TRAP_DE: case X86_TRAP_MF: case X86_TRAP_XF: return GDB_SIGFPE;
	case X86_TRAP_UD: return GDB_SIGILL;
	case X86_TRAP_AC: return GDB_SIGBUS;
	default: return GDB_SIGSEGV;
	}
}

/* One int3 with a name of its own (never inlined: the label must be unique). */
__attribute__((noinline)) void arch_dbg_park_trap(void)
{
	__asm__ __volatile__(".globl x86_park_insn\n"
			     ".hidden x86_park_insn\n"	/* the debugger's name only */
			     "x86_park_insn:\n\t"
			     "int3" ::: "memory");
}

bool arch_dbg_park_trap_at(u64 addr)
{
	extern const u8 x86_park_insn[];

	return addr == (u64)(uintptr_t)x86_park_insn;
}

/* #BP: the int3 at rip - 1. */
bool ekdb_trap_breakpoint(struct pt_regs *regs)
{
	dbg_trap_begin();
	return dbg_trap_end(regs, dbg_trap_swbreak(regs, regs->rip - ARCH_BREAK_INSN_SIZE));
}

/* #DB: which slot, or a finished step; DR6 is sticky, so clear it. */
bool ekdb_trap_debug(struct pt_regs *regs)
{
	u64 dr6;

	dbg_trap_begin();
	dr6 = x86_get_dr(6);
	x86_set_dr(6, 0);
	return dbg_trap_end(regs, dbg_trap_debug(regs, x86_dr6_hit_slot(dr6),
						 x86_dr6_single_step(dr6)));
}

/* NMI: a round-up of the debugger's, or one nobody claimed while it is on. */
bool ekdb_trap_nmi(struct pt_regs *regs)
{
	return dbg_cpu_park(regs);
}

/*
 * The vectors of the IDT arch/x86/idt.c keeps (the reference kernel's and
 * the loader's).  A kernel with an IDT of its own calls the three entry
 * points above from its #BP, #DB and NMI handlers instead (<ekdb/ekdb.h>);
 * these table entries are then never dispatched.
 */
void arch_dbg_traps_init(void)
{
	x86_set_trap_handler(X86_TRAP_DB, ekdb_trap_debug);
	x86_set_trap_handler(X86_TRAP_BP, ekdb_trap_breakpoint);
	x86_set_trap_handler(X86_TRAP_NMI, ekdb_trap_nmi);
}
