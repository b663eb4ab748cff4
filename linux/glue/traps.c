// SPDX-License-Identifier: GPL-2.0
/*
 * The traps Linux's handlers hand ekdb first: int3 (do_int3()), #DB
 * (exc_debug_kernel()) and a fault inside one of ekdb's fault-safe
 * accessors (fixup_exception()).
 *
 * ekdb's trap frame is its own struct pt_regs: Linux's registers in Linux's
 * order, with the vector and the error code where Linux keeps orig_ax.
 * The traps convert in and back.
 */
#include <linux/build_bug.h>
#include <linux/ekdb.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#include <asm/debugreg.h>
#include <asm/nmi.h>
#include <asm/ptrace.h>
#include <asm/trapnr.h>

#include <ekdb/ekdb.h>

#include "glue.h"

bool ekdb_linux_started;

/* ekdb's struct pt_regs (its arch/x86/include/asm/regs.h) */
struct ekdb_frame {
	unsigned long gpr[15];		/* r15 .. di, as Linux's pt_regs */
	unsigned long vector;
	unsigned long error_code;
	unsigned long iret[5];		/* ip, cs, flags, sp, ss */
};

static __ekdb_linux_nobp void to_ekdb(struct ekdb_frame *f, const struct pt_regs *regs,
		    unsigned long vector, unsigned long error_code)
{
	BUILD_BUG_ON(sizeof(struct ekdb_frame) != 22 * 8);
	BUILD_BUG_ON(offsetof(struct pt_regs, orig_ax) != sizeof(f->gpr));
	BUILD_BUG_ON(offsetof(struct pt_regs, ss) - offsetof(struct pt_regs, ip) != 4 * 8);

	memcpy(f->gpr, regs, sizeof(f->gpr));
	f->vector = vector;
	f->error_code = error_code;
	memcpy(f->iret, &regs->ip, sizeof(f->iret));
}
NOKPROBE_SYMBOL(to_ekdb);

static __ekdb_linux_nobp void from_ekdb(struct pt_regs *regs, const struct ekdb_frame *f)
{
	memcpy(regs, f->gpr, sizeof(f->gpr));
	memcpy(&regs->ip, f->iret, sizeof(f->iret));
}
NOKPROBE_SYMBOL(from_ekdb);

/* ekdb's @trap on Linux's frame (converted in, and back when ekdb took it) */
static __ekdb_linux_nobp bool ekdb_linux_trap(struct pt_regs *regs, unsigned long vector,
					      bool (*trap)(struct pt_regs *regs))
{
	struct ekdb_frame f;

	to_ekdb(&f, regs, vector, 0);
	if (!trap((struct pt_regs *)&f))
		return false;
	from_ekdb(regs, &f);
	return true;
}
NOKPROBE_SYMBOL(ekdb_linux_trap);

/* do_int3(): an int3 of ekdb's (a breakpoint it planted, its kgdbwait stop). */
__ekdb_linux_nobp bool ekdb_linux_int3(struct pt_regs *regs)
{
	return ekdb_linux_started && ekdb_linux_trap(regs, X86_TRAP_BP, ekdb_trap_breakpoint);
}
NOKPROBE_SYMBOL(ekdb_linux_int3);

/*
 * exc_debug_kernel(), after local_db_save(): ekdb reads DR6 and DR7 as the
 * CPU left them, and what it arms in DR7 is what local_db_restore() puts
 * back (*@dr7).
 */
__ekdb_linux_nobp bool ekdb_linux_debug(struct pt_regs *regs, unsigned long dr6,
					 unsigned long *dr7)
{
	struct ekdb_frame f;
	unsigned long armed;
	bool handled;

	if (!ekdb_linux_started)
		return false;
	if (*dr7)
		set_debugreg(*dr7, 7);
	set_debugreg(dr6 ^ DR6_RESERVED, 6);
	to_ekdb(&f, regs, X86_TRAP_DB, 0);
	handled = ekdb_trap_debug((struct pt_regs *)&f);
	set_debugreg(DR6_RESERVED, 6);
	get_debugreg(armed, 7);
	armed &= ~0x400UL;
	*dr7 = armed;
	if (armed)
		set_debugreg(0, 7);
	if (handled)
		from_ekdb(regs, &f);
	return handled;
}
NOKPROBE_SYMBOL(ekdb_linux_debug);

/* fixup_exception(): a fault in one of ekdb's fault-safe accessors. */
__ekdb_linux_nobp bool ekdb_linux_fixup(struct pt_regs *regs)
{
	struct ekdb_frame f;

	if (!ekdb_linux_started)
		return false;
	to_ekdb(&f, regs, 0, 0);
	if (!ekdb_trap_fault((struct pt_regs *)&f))
		return false;
	regs->ip = f.iret[0];
	return true;
}
NOKPROBE_SYMBOL(ekdb_linux_fixup);

/*
 * NMI: a round-up of ekdb's (NMI_LOCAL, only when it is one: Linux's other
 * NMIs, a backtrace or a reboot's stop, are not ekdb's), or an NMI no
 * handler claimed (NMI_UNKNOWN: an NMI button), which stops in ekdb.
 */
__ekdb_linux_nobp int ekdb_linux_nmi(unsigned int type, struct pt_regs *regs)
{
	if (!ekdb_linux_started || (type == NMI_LOCAL && !ekdb_nmi_is_roundup()))
		return NMI_DONE;
	return ekdb_linux_trap(regs, X86_TRAP_NMI, ekdb_trap_nmi) ? NMI_HANDLED : NMI_DONE;
}
NOKPROBE_SYMBOL(ekdb_linux_nmi);
