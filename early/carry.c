/* SPDX-License-Identifier: GPL-2.0 */
/*
 * carry.c - the kernel's first debug step: take over what the loader's
 * debugger left in the boot-info record (include/ekdb/carry.h), called
 * by x86_64_start_kernel() right after the kernel's GDT and IDT, before
 * start_kernel().  From here on the carried breakpoints fire (the one on
 * start_kernel first of all) and the same gdb or kdb session serves them
 * on the same line.  Nothing is printed here (no console yet): the result
 * is told by ekdb_early_init() in setup_arch() (ekdb_carry_report()).
 *
 * Every lifetime also refuses breakpoints in the jump window (the code
 * from _start to the end of this call, where a breakpoint could not fire):
 * the kernel learns its window here, with or without a carried state.
 */
#include "early.h"
#include "../core/debug_core.h"
#include "../earlyio/serial/serial_transport.h"
#include <ekdb/bootinfo.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <ekdb/log.h>

extern char __jump_window_start[], __jump_window_end[];
extern char _text[], _etext[];

static struct {
	bool carried;		/* the loader's session goes on here */
	const char *refused;	/* why a record was refused (debugger off), or NULL */
	int err;
	unsigned unplanted;	/* int3s a refused record left, taken out again */
	struct dbg_carry_stats st;
	u16 base;
	u32 baud;
	u32 gdb_flags;
} carry;

bool ekdb_carried(void)
{
	return carry.carried;
}

bool ekdb_carry_refused(void)
{
	return carry.refused != NULL;
}

static void refuse(const struct ekdb_carry *c, const char *why, int err)
{
	carry.refused = why;
	carry.err = err;
	carry.unplanted = dbg_carry_unplant(c, (u64)_text, (u64)_etext);
}

void ekdb_carry_takeover(u64 bootinfo_phys)
{
	const struct ekdb_bootinfo *bi = (const struct ekdb_bootinfo *)bootinfo_phys;
	const struct ekdb_carry *c;
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
	why = dbg_carry_check(c);
	if (why)
		return refuse(c, why, -EKDB_EINVAL);
	t = serial_transport_adopt(c->line.base, c->line.baud, c->line.pending, c->line.npending);
	fe = early_frontend_get();
	if (!fe || dbg_transport_register(t))
		return refuse(c, "cannot set up the early debugger", -EKDB_ENODEV);
	err = dbg_carry_import(c, (u64)_text, (u64)_etext, &carry.st);
	if (err) {
		dbg_transport_unregister(t);
		return refuse(c, "breakpoint table not taken over", err);
	}
	dbg_core_init(fe);	/* #BP, #DB, NMI: the debugger's from here on */
	carry.carried = true;
	carry.base = c->line.base;
	carry.baud = c->line.baud;
	carry.gdb_flags = c->gdb.flags;
}

/* ekdb_early_init() tells what the takeover did, once a console exists. */
void ekdb_carry_report(void)
{
	if (carry.refused) {
		pr_err("kgdb: the debugger state carried from the loader is refused: %s (%s); "
		       "%u breakpoints taken out of the text: the debugger stays off\n",
		       carry.refused, ekdb_strerror(carry.err), carry.unplanted);
		return;
	}
	if (!carry.carried)
		return;
	pr_info("kgdb: carried from the loader: %u breakpoints (%u sw, %u hw)%s on %s (0x%x, %u baud), %s session%s\n",
		carry.st.sw + carry.st.hw, carry.st.sw, carry.st.hw,
		carry.st.disabled ? ", loader-only ones disabled" : "",
		dbg_transport_at(0) ? dbg_transport_at(0)->name : "?", carry.base, carry.baud,
		(carry.gdb_flags & EKDB_CARRY_GDB_OWNS_LINE) ? "gdb" : "kdb",
		(carry.gdb_flags & EKDB_CARRY_GDB_NO_ACK) ? " (no-ack)" : "");
	if (carry.st.dropped)
		pr_warn("kgdb: %u carried breakpoints were in the jump window: removed\n",
			carry.st.dropped);
}
