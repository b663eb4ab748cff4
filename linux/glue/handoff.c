// SPDX-License-Identifier: GPL-2.0
/*
 * The handoff to Linux's own debug core (docs/linux.md, "Handoff"): once
 * dbg_late_init() has set kdb up, ekdb gives kgdb its breakpoints (kdb
 * keeps their numbers and enabled state; the int3s stay in the text, the
 * hardware ones go into the x86 kgdb slots) and its line, as a kgdb I/O
 * module that Linux's kgdboc replaces later, as it replaces
 * kgdboc_earlycon; a gdb attached to ekdb goes on with Linux's gdbstub
 * (its next stop reply comes from there).  From then on Linux's kgdb takes int3 and #DB; ekdb
 * takes no more traps.
 *
 * Linux's kgdb must not plant a breakpoint where its own stop runs
 * through ekdb (the I/O driver, console ekdbfb, ekdb's code they call):
 * ekdb's refused ranges go on the kprobe blocklist kgdb honours
 * (CONFIG_KGDB_HONOUR_BLOCKLIST), so kdb's `bp` and gdb's Z0 there fail.
 *
 * Everything is checked first (ekdb_handoff_describe(), a dry run of
 * kgdb_adopt_breakpoints()): a table Linux cannot take whole is not handed
 * over at all, and ekdb stays the debugger.
 */
#include <linux/console.h>
#include <linux/ekdb.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/kdb.h>
#include <linux/kgdb.h>
#include <linux/kprobes.h>
#include <linux/printk.h>
#include <linux/serial_core.h>
#include <linux/string.h>

#include <ekdb/ekdb.h>
#include <ekdb/handoff.h>
#include <ekdb/target.h>

#include "glue.h"

static struct ekdb_handoff ekdb_rec;
static struct kgdb_adopt_bp ekdb_bps[EKDB_HANDOFF_BPS] __initdata;
static unsigned int ekdb_pending_pos;
bool ekdb_linux_screen_lent;
static int ekdb_line = -1;		/* ttyS<n> of the line, -1: not a ttyS */

/* ---------------------------------------------- the kgdb I/O module */

static __ekdb_linux_nobp int ekdb_kgdb_read_char(void)
{
	int c;

	if (ekdb_pending_pos < ekdb_rec.line.npending)
		return ekdb_rec.line.pending[ekdb_pending_pos++];
	c = ekdb_io_getc();
	return c < 0 ? NO_POLL_CHAR : c;
}
NOKPROBE_SYMBOL(ekdb_kgdb_read_char);

static __ekdb_linux_nobp void ekdb_kgdb_write_char(u8 c)
{
	char ch = c;

	ekdb_io_write(&ch, 1);
}
NOKPROBE_SYMBOL(ekdb_kgdb_write_char);

static struct kgdb_io ekdb_kgdb_io;

/*
 * kdb writes to the I/O module and to every console but ->cons: the
 * console on ekdb's line (the 8250's ttyS<n>, or before it the
 * earlyprintk=serial boot console) is that one, or kdb says it all twice.
 */
static __ekdb_linux_nobp void ekdb_kgdb_pre_exception(void)
{
	struct console *con;

	ekdb_io_stop_begin();	/* a USB debug port polls at every read_char */
	ekdb_linux_screen_stop_begin();	/* fbcon's screen: as kgdboc=kms */
	ekdb_kgdb_io.cons = NULL;
	for_each_console(con) {
		if (!(con->flags & CON_ENABLED))
			continue;
		if ((!strcmp(con->name, "ttyS") && con->index == ekdb_line) ||
		    (!strcmp(con->name, "earlyser") && ekdb_line >= 0)) {
			ekdb_kgdb_io.cons = con;
			return;
		}
	}
}
NOKPROBE_SYMBOL(ekdb_kgdb_pre_exception);

static __ekdb_linux_nobp void ekdb_kgdb_post_exception(void)
{
	ekdb_linux_screen_stop_end();
	ekdb_io_stop_end();
}
NOKPROBE_SYMBOL(ekdb_kgdb_post_exception);

/*
 * kgdboc (or another I/O module) took the line over: ekdb's part ends.
 * kgdb calls this from kgdb_register_io_module(), in the new module's
 * process context (kgdboc's initcall or its parameter written), after
 * the switch: no stop reads through ekdb's driver any more.  The
 * keyboard's state goes to Linux's kdb (kbd.c).
 */
static void ekdb_kgdb_deinit(void)
{
	ekdb_kgdb_io.cons = NULL;
	ekdb_linux_kbd_handover();
}

static struct kgdb_io ekdb_kgdb_io = {
	.name		= "ekdb",
	.read_char	= ekdb_kgdb_read_char,
	.write_char	= ekdb_kgdb_write_char,
	.pre_exception	= ekdb_kgdb_pre_exception,
	.post_exception	= ekdb_kgdb_post_exception,
	.deinit		= ekdb_kgdb_deinit,
};

/* ---------------------------------------------- the breakpoints */

static enum kgdb_bptype __init ekdb_kgdb_type(u8 type)
{
	switch (type) {
	case EKDB_BP_SW:
		return BP_BREAKPOINT;
	case EKDB_BP_HW:
		return BP_HARDWARE_BREAKPOINT;
	case EKDB_BP_WRITE:
		return BP_WRITE_WATCHPOINT;
	default:		/* x86 watches reads as accesses */
		return BP_ACCESS_WATCHPOINT;
	}
}

/* ekdb's table as kgdb_adopt_breakpoints() takes it; the count. */
static int __init ekdb_adopt_table(const struct ekdb_handoff *rec)
{
	int i, n = 0;

	for (i = 0; i < rec->nbps; i++) {
		const struct ekdb_handoff_bp *e = &rec->bp[i];
		struct kgdb_adopt_bp *b = &ekdb_bps[n];

		if (!(e->flags & EKDB_HANDOFF_BP_USED))
			continue;	/* a number kdb leaves free too */
		memset(b, 0, sizeof(*b));
		b->addr = e->addr;
		b->type = ekdb_kgdb_type(e->type);
		b->len = e->len;
		b->kdb_bpno = e->owner & 2 ? i : -1;	/* kdb's, at its number */
		b->enabled = e->flags & EKDB_HANDOFF_BP_ENABLED;
		b->planted = e->flags & EKDB_HANDOFF_BP_INSTALLED;
		b->saved_instr[0] = e->saved;
		n++;
	}
	return n;
}

static const char *__init ekdb_adopt_error(int err)
{
	switch (err) {
	case -E2BIG:
		return "more breakpoints, or higher numbers, than Linux's kdb has (0-15)";
	case -EBUSY:
		return "a breakpoint number or hardware slot Linux already uses";
	case -EEXIST:
		return "Linux's kgdb has a breakpoint at the same address";
	default:
		return "a breakpoint Linux's kgdb does not take";
	}
}

/*
 * ekdb's kdb session goes on in Linux's kdb (patch 0016): the variables
 * (set, or ekdb's defaults, which are Linux's: kdb_adopt_session() skips
 * a value it has already) and the history, oldest first.
 */
static const char *ekdb_kdb_env[EKDB_HANDOFF_ENV] __initdata;
static const char *ekdb_kdb_hist[EKDB_HANDOFF_HIST] __initdata;

static void __init ekdb_kdb_session(const struct ekdb_handoff_kdb *k,
				    int *nenv, int *nhist)
{
	int i, err;

	*nenv = 0;
	*nhist = min_t(int, k->nhist, EKDB_HANDOFF_HIST);
	if (!IS_ENABLED(CONFIG_KGDB_KDB))
		return;
	for (i = 0; i < EKDB_HANDOFF_ENV; i++)
		if (k->env[i][0])
			ekdb_kdb_env[(*nenv)++] = k->env[i];
	for (i = 0; i < *nhist; i++)
		ekdb_kdb_hist[i] = k->hist[i];
	err = kdb_adopt_session(ekdb_kdb_env, *nenv, ekdb_kdb_hist, *nhist);
	if (err)
		pr_warn("ekdb: Linux's kdb did not take all of ekdb's kdb variables (kdb diag %d): it keeps its own for those\n",
			err);
}

/* The 16550 ports Linux names ttyS0..3 (their legacy I/O bases). */
static int __init ekdb_ttys_index(u16 base)
{
	static const u16 bases[] __initconst = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
	int i;

	for (i = 0; i < ARRAY_SIZE(bases); i++)
		if (bases[i] == base)
			return i;
	return -1;
}

/*
 * kgdb's stop runs through ekdb's code from the handoff on (this file's
 * I/O driver and console, in the glue's stop-path section, and the
 * transports behind them): both go on the kprobe blocklist kgdb honours,
 * so no breakpoint of kgdb's fires inside its own I/O.  (The Linux
 * functions ekdb's own stop calls, nobp.c, are not added: kgdb takes its
 * software breakpoints out while stopped, as Linux alone does.  The
 * glue's NOKPROBE_SYMBOL()s join the list only at init_kprobes(), an
 * early_initcall, after the handoff.)
 */
static void __init ekdb_kgdb_blocklist(void)
{
#ifdef CONFIG_KGDB_HONOUR_BLOCKLIST
	u64 start, end;

	ekdb_text_range(&start, &end);
	if (kprobe_add_area_blacklist(start, end) ||
	    kprobe_add_area_blacklist((unsigned long)__ekdb_nobp_text_start,
				      (unsigned long)__ekdb_nobp_text_end))
		pr_warn("ekdb: kgdb may take breakpoints in ekdb's code (kprobe blocklist: no room)\n");
#else
	pr_warn("ekdb: kernel without CONFIG_KGDB_HONOUR_BLOCKLIST: kgdb takes breakpoints in ekdb's code\n");
#endif
}

/* dbg_late_init(), once kdb is set up: hand over, or keep everything. */
void __init ekdb_linux_handoff(void)
{
	unsigned long flags;
	int n, err, kdb = 0, i, nenv, nhist;
	bool screen = false;
	char line[24];

	if (!ekdb_linux_started)
		return;
	err = ekdb_handoff_describe(&ekdb_rec);
	if (err) {
		pr_err("ekdb: handoff to kgdb refused: ekdb's table cannot be read (%d); ekdb stays the debugger\n",
		       err);
		return;
	}
	n = ekdb_adopt_table(&ekdb_rec);
	err = kgdb_adopt_breakpoints(ekdb_bps, n, true);
	if (err) {
		pr_err("ekdb: handoff to kgdb refused: %s; ekdb keeps its breakpoints and the line\n",
		       ekdb_adopt_error(err));
		return;
	}

	ekdb_kgdb_blocklist();	/* allocates: before interrupts go off */
	local_irq_save(flags);
	err = ekdb_handoff_lend(&ekdb_rec);
	if (err) {
		local_irq_restore(flags);
		pr_err("ekdb: handoff to kgdb failed (%d): ekdb's breakpoints were removed\n",
		       err);
		ekdb_linux_started = false;
		return;
	}
	ekdb_line = ekdb_ttys_index(ekdb_rec.line.base);
	err = kgdb_register_io_module(&ekdb_kgdb_io);
	if (!err)
		err = kgdb_adopt_breakpoints(ekdb_bps, n, false);
	/* gdb waits for its next stop reply: Linux's gdbstub sends it */
	if (!err && (ekdb_rec.gdb.flags & EKDB_HANDOFF_GDB_OWNS_LINE))
		kgdb_adopt_gdb();
	/* from here Linux's kgdb owns int3 and #DB */
	ekdb_linux_started = false;
	local_irq_restore(flags);
	if (err) {
		/* the int3s are nobody's: out of the text */
		ekdb_shutdown();
		pr_err("ekdb: handoff to kgdb failed (%d): ekdb's breakpoints were removed\n",
		       err);
		return;
	}
	for (i = 0; i < n; i++)
		kdb += ekdb_bps[i].kdb_bpno >= 0;
	ekdb_kdb_session(&ekdb_rec.kdb, &nenv, &nhist);
	screen = ekdb_linux_screen_handoff();
	ekdb_linux_screen_lent = screen;	/* io.c maps it at early_initcall() */
	if (ekdb_line >= 0)
		snprintf(line, sizeof(line), "the line (ttyS%d)", ekdb_line);
	else
		snprintf(line, sizeof(line), "the line");
	pr_info("ekdb: handoff to kgdb: %d breakpoints (%d kdb's), kdb's session (%d variables, %d commands), %s is kgdb I/O driver ekdb until kgdboc takes it%s%s\n",
		n, kdb, nenv, nhist, line,
		screen ?
		", Linux's kdb on ekdb's screen (console ekdbfb)" : "",
		ekdb_rec.gdb.flags & EKDB_HANDOFF_GDB_OWNS_LINE ?
		", gdb goes on with Linux's gdbstub" : "");
}
