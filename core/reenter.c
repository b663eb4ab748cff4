/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reenter.c - a trap on the CPU that holds the debugger (Linux's
 * kgdb_reenter_check).  A breakpoint or watchpoint of ours that fired in
 * code the stop path runs (a display hook, a transport op, a kernel helper
 * the debugger calls) is taken out, a warning names it, and the stop path
 * goes on where it was.  Anything else (a trap that is not one of ours, a
 * fault, a trap while recovering from one) cannot be recovered: the caller
 * (core/entry.c, dbg_enter) then gives the debugger up.
 */
#include "debug_core.h"
#include <ekdb/fmt.h>

static int depth;		/* recoveries under way on the master CPU */
static char msg[192];		/* static: the stop path does not use much stack */

static const char *kind_of(enum ekdb_bp_type type)
{
	switch (type) {
	case EKDB_BP_SW: return "breakpoint";
	case EKDB_BP_HW: return "hardware breakpoint";
	case EKDB_BP_WRITE: return "write watchpoint";
	case EKDB_BP_READ: return "read watchpoint";
	default: return "access watchpoint";
	}
}

const char *dbg_stop_what(const struct ekdb_stop *stop)
{
	switch (stop->reason) {
	case EKDB_STOP_ENTRY: return "a break instruction that is not a breakpoint";
	case EKDB_STOP_SWBREAK: return "a breakpoint";
	case EKDB_STOP_HWBREAK: return "a hardware breakpoint";
	case EKDB_STOP_WATCH: case EKDB_STOP_RWATCH: case EKDB_STOP_AWATCH:
		return "a watchpoint";
	case EKDB_STOP_STEP: return "a single step";
	case EKDB_STOP_PANIC: return "a panic";
	case EKDB_STOP_FAULT: return "a fault";
	default: return "a debug event";
	}
}

static bool is_breakpoint_stop(enum ekdb_stop_reason r)
{
	return r == EKDB_STOP_SWBREAK || r == EKDB_STOP_HWBREAK || r == EKDB_STOP_WATCH ||
	       r == EKDB_STOP_RWATCH || r == EKDB_STOP_AWATCH;
}

bool dbg_reenter_recover(const struct pt_regs *regs, const struct ekdb_stop *stop)
{
	const struct dbg_bp *b = dbg_bp_get(stop->bp_index);
	struct dbg_bp gone;
	bool ok = false;

	if (depth++ || !is_breakpoint_stop(stop->reason) || !b)
		goto out;	/* nested, or not one of ours: no recovery */
	gone = *b;
	if (dbg_bp_drop_reentered(stop->bp_index))
		goto out;
	if (gone.type == EKDB_BP_SW || gone.type == EKDB_BP_HW)
		ekdb_snprintf(msg, sizeof(msg), "ekdb: %s #%d at 0x%llx (%pS) hit inside the "
			      "debugger: removed\n", kind_of(gone.type), stop->bp_index,
			      (unsigned long long)gone.addr, (void *)gone.addr);
	else
		ekdb_snprintf(msg, sizeof(msg), "ekdb: %s #%d at 0x%llx (%pS, %u bytes) hit "
			      "inside the debugger by %pS: removed\n", kind_of(gone.type),
			      stop->bp_index, (unsigned long long)gone.addr, (void *)gone.addr,
			      gone.len, (void *)arch_dbg_pc(regs));
	dbg_kernel_warn(msg);
	ok = true;
out:
	depth--;
	return ok;
}
