/* SPDX-License-Identifier: GPL-2.0 */
/*
 * handoff.c - the kernel's first debug step: take over what the loader's
 * debugger left in the boot-info record (include/ekdb/handoff.h), called
 * by x86_64_start_kernel() right after the kernel's GDT and IDT, before
 * start_kernel().  From here on the handed-over breakpoints fire (the one on
 * start_kernel first of all) and the same gdb or kdb session serves them
 * on the same line.  Nothing is printed here (no console yet): the result
 * is told by ekdb_early_init() in setup_arch() (ekdb_handoff_report()).
 *
 * Every lifetime also refuses breakpoints in the jump window (the code
 * from _start to the end of this call, where a breakpoint could not fire):
 * the kernel learns its window here, with or without a handoff record.
 */
#include "early.h"
#include "../core/core_early.h"
#include "../io/serial/serial_transport.h"
#include <ekdb/bootinfo.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <ekdb/log.h>

extern char __jump_window_start[], __jump_window_end[];
extern char _text[], _etext[];

static struct {
	bool taken;		/* the loader's session goes on here */
	const char *refused;	/* why a record was refused (debugger off), or NULL */
	int err;
	unsigned unplanted;	/* int3s a refused record left, taken out again */
	struct dbg_handoff_stats st;
	u16 base;
	u32 baud;
	u32 gdb_flags;
} handoff;

bool ekdb_handoff_taken(void)
{
	return handoff.taken;
}

bool ekdb_handoff_refused(void)
{
	return handoff.refused != NULL;
}

static void refuse(const struct ekdb_handoff *c, const char *why, int err)
{
	handoff.refused = why;
	handoff.err = err;
	handoff.unplanted = dbg_handoff_unplant(c, (u64)_text, (u64)_etext);
}

void ekdb_handoff_takeover(u64 bootinfo_phys)
{
	const struct ekdb_bootinfo *bi = (const struct ekdb_bootinfo *)bootinfo_phys;
	const struct ekdb_handoff *c;
	const struct dbg_frontend *fe;
	struct ekdb_transport *t;
	const char *why;
	int err;

	dbg_bp_set_jump_window((u64)__jump_window_start, (u64)__jump_window_end);
	/* a bad record stops the boot in setup_arch(), with its reason */
	if (!bi || bi->magic != EKDB_BOOTINFO_MAGIC || bi->version != EKDB_BOOTINFO_VERSION ||
	    bi->size != sizeof(*bi))
		return;
	c = &bi->dbg;
	if (!c->magic)
		return;		/* the loader ran no debugger: nothing changes */
	ekdb_set_text_offset(bi->kaslr_offset);	/* qOffsets, for a gdb that reconnects from here */
	ekdb_set_text_base((u64)_text);
	why = dbg_handoff_check(c);
	if (why)
		return refuse(c, why, -EKDB_EINVAL);
	t = serial_transport_adopt(c->line.base, c->line.baud, c->line.pending, c->line.npending);
	fe = early_frontend_get();
	if (!fe || dbg_transport_register(t))
		return refuse(c, "cannot set up the early debugger", -EKDB_ENODEV);
	err = dbg_handoff_import(c, (u64)_text, (u64)_etext, &handoff.st);
	if (err) {
		dbg_transport_unregister(t);
		return refuse(c, "breakpoint table not taken over", err);
	}
	dbg_core_init(fe);	/* #BP, #DB, NMI: the debugger's from here on */
	handoff.taken = true;
	handoff.base = c->line.base;
	handoff.baud = c->line.baud;
	handoff.gdb_flags = c->gdb.flags;
}

/* ekdb_early_init() tells what the takeover did, once a console exists. */
void ekdb_handoff_report(void)
{
	if (handoff.refused) {
		pr_err("kgdb: the debugger state handed over by the loader is refused: %s (%s); "
		       "%u breakpoints taken out of the text: the debugger stays off\n",
		       handoff.refused, ekdb_strerror(handoff.err), handoff.unplanted);
		return;
	}
	if (!handoff.taken)
		return;
	pr_info("kgdb: handoff from the loader: %u breakpoints (%u sw, %u hw)%s on %s (0x%x, %u baud), %s session%s\n",
		handoff.st.sw + handoff.st.hw, handoff.st.sw, handoff.st.hw,
		handoff.st.disabled ? ", loader-only ones disabled" : "",
		dbg_transport_at(0) ? dbg_transport_at(0)->name : "?", handoff.base, handoff.baud,
		(handoff.gdb_flags & EKDB_HANDOFF_GDB_OWNS_LINE) ? "gdb" : "kdb",
		(handoff.gdb_flags & EKDB_HANDOFF_GDB_NO_ACK) ? " (no-ack)" : "");
	if (handoff.st.dropped)
		pr_warn("kgdb: %u handed-over breakpoints were in the jump window: removed\n",
			handoff.st.dropped);
}
