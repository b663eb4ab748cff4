/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debug_trap.h - the contract between the portable debug core (core/)
 * and the architecture's debug traps (arch/x86/debug_trap.c), as Linux
 * splits kgdb between kernel/debug/ and arch/x86/kernel/kgdb.c.
 *
 * The arch owns the vectors and decodes each trap into portable events:
 *   - "a breakpoint instruction at @addr trapped"  -> dbg_trap_swbreak()
 *   - "hardware slot N hit" / "single step done"    -> dbg_trap_debug()
 *   - an NMI (round-up or not)                       -> dbg_cpu_park()
 * The core decides what the event means (its breakpoint table, stepping
 * state, the round-up) and asks the arch back in portable terms: move the
 * pc, resume without re-hitting an execute breakpoint at pc, is there a
 * breakpoint instruction at an address, which gdb signal a fault is.
 * The hardware slots themselves: asm/hw_breakpoint.h.
 */
#ifndef ASM_X86_DEBUG_TRAP_H
#define ASM_X86_DEBUG_TRAP_H

#include <asm/regs.h>

/* ------------------------------------------------ provided by the arch */

/* The breakpoint instruction planted for a software breakpoint (x86: int3). */
#define ARCH_BREAK_INSN		0xcc
#define ARCH_BREAK_INSN_SIZE	1

/* arch_dbg_breakpoint - a compiled-in break instruction (kgdb_breakpoint). */
static inline void arch_dbg_breakpoint(void)
{
	__asm__ __volatile__("int3" ::: "memory");
}

/*
 * arch_dbg_park_trap - a break instruction of its own, for a CPU that parks
 * for a round-up through a trap (the core's deferred park): its frame is a
 * real one, which the CPU resumes from.  arch_dbg_park_trap_at(@addr): is
 * @addr that instruction (the #BP decoder then reports it as handled).
 */
void arch_dbg_park_trap(void);
bool arch_dbg_park_trap_at(u64 addr);

/*
 * arch_dbg_traps_init - route the debug vectors (x86: #DB, #BP, NMI) to
 * the decoders below.  Idempotent; called by dbg_core_init().
 */
void arch_dbg_traps_init(void);

/* arch_dbg_pc / arch_dbg_set_pc - the trapped context's program counter. */
static inline u64 arch_dbg_pc(const struct pt_regs *regs)
{
	return regs->rip;
}

static inline void arch_dbg_set_pc(struct pt_regs *regs, u64 pc)
{
	regs->rip = pc;
}

/*
 * arch_dbg_trap_vector / arch_dbg_trap_error - the vector that made the
 * frame @regs and the error code the CPU pushed with it (0 when it pushes
 * none): the core's stop record (gdb's T packet, kdb's "due to" line).
 */
static inline unsigned arch_dbg_trap_vector(const struct pt_regs *regs)
{
	return (unsigned)regs->vector;
}

static inline u64 arch_dbg_trap_error(const struct pt_regs *regs)
{
	return regs->error_code;
}

/*
 * arch_dbg_resume_no_rehit - when @regs resumes, the instruction at its
 * pc runs once without its hardware execute breakpoint firing again
 * (x86: RFLAGS.RF).  Other breakpoints and a step still trap.
 */
void arch_dbg_resume_no_rehit(struct pt_regs *regs);

/*
 * arch_dbg_break_insn_at - is a breakpoint instruction in memory at
 * @addr right now (a compiled-in one, or one not yet taken out)?
 * Fault-safe: false for an unreadable address.
 */
bool arch_dbg_break_insn_at(u64 addr);

/* arch_dbg_fault_signal - the gdb signal for fault vector @vector. */
int arch_dbg_fault_signal(unsigned vector);

/* ------------------------------------------------ provided by the core */

/*
 * dbg_trap_begin / dbg_trap_end - bracket a debug trap's handling on this
 * CPU: a round-up NMI that lands in between is swallowed, and the CPU
 * stops with the registers of its trap instead (never with a pc inside
 * the debugger).  dbg_trap_end returns @handled.
 */
void dbg_trap_begin(void);
bool dbg_trap_end(struct pt_regs *regs, bool handled);

/*
 * dbg_trap_swbreak - a breakpoint instruction at @addr trapped; the pc in
 * @regs is past it (it resumes after the instruction unless the core moves
 * it).  Returns true when consumed, false for the default (oops).
 */
bool dbg_trap_swbreak(struct pt_regs *regs, u64 addr);

/*
 * dbg_trap_debug - a debug trap: hardware slot @slot hit (-1: none) and/or
 * a single step completed (@stepped).  The arch has already acknowledged
 * the trap (x86: DR6 cleared).  Returns true when consumed.
 */
bool dbg_trap_debug(struct pt_regs *regs, int slot, bool stepped);

/*
 * dbg_cpu_park - the NMI handler: park for a round-up, or stop on an NMI
 * nobody claimed.  Returns true when handled.
 */
bool dbg_cpu_park(struct pt_regs *regs);

#endif
