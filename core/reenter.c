/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reenter.c - a trap on the CPU that holds the debugger (Linux's
 * kgdb_reenter_check).  A breakpoint or watchpoint of ours that fired in
 * code the stop path runs (a display hook, a transport op, a kernel helper
 * the debugger calls), or in code the debugger runs while the kernel runs
 * (the tick's break-in poll and the transport ops it calls, a kgdbcon
 * packet), is taken out, a warning names it, and the debugger goes on
 * where it was.  Software and hardware breakpoints and watchpoints alike.
 * Anything else (a trap that is not one of ours, a fault, a trap while
 * recovering from one) cannot be recovered: the caller (core/entry.c,
 * dbg_enter) then gives the debugger up.
 */
#include "debug_core.h"
#include <ekdb/fmt.h>

#define MSG_LEN		192
#define QUEUED		4	/* warnings of recoveries made while the kernel ran */

static int depth;		/* recoveries under way (the master role serializes them) */
static char msg[MSG_LEN];	/* static: the stop path does not use much stack */

/*
 * A recovery made while the kernel runs (in the tick's poll, in a kgdbcon
 * packet) cannot print at once: the driver it interrupted may be half-way
 * through a transaction on the very line the log goes to.  Its warning
 * waits here (0 free, 1 written, 2 being printed) for dbg_reenter_flush(),
 * called by the poll when no driver op is under way.  Writers hold the
 * master role; one flush at a time claims each slot.
 */
static struct {
	u8 state;
	char text[MSG_LEN];
} queued[QUEUED];
static unsigned queue_lost;	/* warnings that found the queue full */

static void queue_warning(void)
{
	for (unsigned i = 0; i < QUEUED; i++) {
		if (__atomic_load_n(&queued[i].state, __ATOMIC_ACQUIRE))
			continue;
		for (unsigned j = 0; j < MSG_LEN; j++)
			queued[i].text[j] = msg[j];
		__atomic_store_n(&queued[i].state, 1, __ATOMIC_RELEASE);
		return;
	}
	__atomic_add_fetch(&queue_lost, 1, __ATOMIC_RELAXED);
}

void dbg_reenter_flush(void)
{
	unsigned lost;

	for (unsigned i = 0; i < QUEUED; i++) {
		u8 full = 1;

		if (!__atomic_compare_exchange_n(&queued[i].state, &full, 2, false,
						 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			continue;
		dbg_kernel_warn(queued[i].text);
		__atomic_store_n(&queued[i].state, 0, __ATOMIC_RELEASE);
	}
	lost = __atomic_exchange_n(&queue_lost, 0, __ATOMIC_RELAXED);
	if (lost) {
		static char more[96];

		ekdb_snprintf(more, sizeof(more), "ekdb: %u more breakpoints or watchpoints hit "
			      "inside the debugger: removed\n", lost);
		dbg_kernel_warn(more);
	}
}

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

bool dbg_reenter_recover(const struct pt_regs *regs, const struct ekdb_stop *stop, bool running)
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
	if (running)
		queue_warning();
	else
		dbg_kernel_warn(msg);
	ok = true;
out:
	depth--;
	return ok;
}
