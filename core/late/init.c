/* SPDX-License-Identifier: GPL-2.0 */
/*
 * init.c - the late init, the second move (the first, the loader handoff,
 * is core/handoff.c):
 * the full debug core takes over from the early debugger (Linux's
 * dbg_late_init(), without its losses), once the allocators work and
 * before the other CPUs start:
 *
 *  - the breakpoint table moves into an allocated table of EKDB_LATE_BPS
 *    entries that grows on demand; every entry keeps its number, state,
 *    owner and hit count, and installed ones stay installed (int3s in the
 *    text, DR0-3/DR7 untouched): there is no moment without them;
 *  - the gdb session (connection, no-ack mode, thread selection, last
 *    reply) and the kdb session (history, environment, defcmd macros)
 *    continue in allocated storage;
 *  - the early transports stay until the running kernel's drivers take
 *    them over (ekdb_register_io(), the takeover: takeover.c), state and unread bytes included;
 *  - the early static storage is poisoned and given to the page allocator
 *    (or, with ekdb.debug_early=unmap, taken out of the page tables so
 *    that any later use faults: the tests prove nothing reads it).
 */
#include "../debug_core.h"
#include "../opts.h"
#include "late.h"
#include <asm/processor.h>
#include <ekdb/cmdline.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <ekdb/log.h>

#define LATE_GDB_BUFSIZE 4096	/* gdb learnt PacketSize=4096 early: keep it */
#define EARLY_POISON 0x6b

struct late_state late;

static unsigned order_for(size_t bytes)
{
	unsigned o = 0;

	while (((size_t)DBG_PAGE_SIZE << o) < bytes)
		o++;
	return o;
}

/*
 * The table grows while the machine may be stopped anywhere, maybe with a
 * CPU inside the allocator: take pages only if the allocator's lock is
 * free.  The old table is kept (it may be the static one, or it is freed
 * at the next grow from process context: never here).
 */
static struct dbg_bp *grow_table(const struct dbg_bp *old, int old_cap, int *new_cap)
{
	int cap = old_cap * 2;
	size_t bytes = sizeof(*old) * (size_t)cap;
	unsigned order = order_for(bytes);
	struct dbg_bp *tab;

	if (order >= dbg_page_max_order())
		return NULL;
	tab = dbg_alloc_pages_nowait(order);
	if (!tab)
		return NULL;
	memcpy(tab, old, sizeof(*old) * (size_t)old_cap);
	memset(tab + old_cap, 0, bytes - sizeof(*old) * (size_t)old_cap);
	*new_cap = cap;
	late.bp_tables_grown++;
	return tab;
}

static int alloc_late_storage(struct ekdb_sessions *st, struct dbg_bp **tab)
{
	st->gdb = dbg_kzalloc(sizeof(*st->gdb));
	st->kdb = dbg_kzalloc(sizeof(*st->kdb));
	st->gdb_in = dbg_kmalloc(LATE_GDB_BUFSIZE);
	st->gdb_out = dbg_kmalloc(LATE_GDB_BUFSIZE);
	st->gdb_bufsize = LATE_GDB_BUFSIZE;
	st->kdb_hist = dbg_kmalloc(sizeof(*st->kdb_hist) * KDB_HISTORY);
	st->kdb_hist_cap = KDB_HISTORY;
	*tab = dbg_alloc_pages(order_for(sizeof(**tab) * EKDB_LATE_BPS));
	if (st->gdb && st->kdb && st->gdb_in && st->gdb_out && st->kdb_hist && *tab)
		return 0;
	dbg_kfree(st->kdb_hist);
	dbg_kfree(st->gdb);
	dbg_kfree(st->kdb);
	dbg_kfree(st->gdb_in);
	dbg_kfree(st->gdb_out);
	if (*tab)
		dbg_free_pages(*tab, order_for(sizeof(**tab) * EKDB_LATE_BPS));
	return -EKDB_ENOMEM;
}

/* The early region: poisoned, then free memory (or unmapped, for the tests). */
static size_t release_early_storage(void)
{
	u64 start = (u64)__ekdb_early_start, end = (u64)__ekdb_early_end;

	if (end <= start)
		return 0;
	memset(__ekdb_early_start, EARLY_POISON, end - start);
	dbg_release_range(start, end, late.unmap_early);
	dbg_addr_release(start, end);	/* ordinary memory now: writable, watchable */
	late.early_released = true;
	return end - start;
}

static void count_bps(unsigned *sw, unsigned *hw, unsigned *installed)
{
	*sw = *hw = *installed = 0;
	for (int i = 0; i < dbg_bp_capacity(); i++) {
		const struct dbg_bp *b = dbg_bp_get(i);

		if (!b)
			continue;
		if (b->type == EKDB_BP_SW)
			(*sw)++;
		else
			(*hw)++;
		*installed += b->installed;
	}
}

/* The full core's sessions in @st, its breakpoint table @tab (interrupts off meanwhile). */
static void start_sessions(const struct ekdb_sessions *st, struct dbg_bp *tab, bool had_early)
{
	u64 flags = local_irq_save();

	if (had_early || !late.early_released)
		dbg_bp_table_move(tab, EKDB_LATE_BPS, grow_table);
	else
		dbg_bp_table_fresh(tab, EKDB_LATE_BPS, grow_table);
	dbg_bp_set_lifetime(EKDB_LIFE_FULL);
	if (had_early) {
		dbg_frontend_move(st);
	} else {
		const struct dbg_frontend *fe = dbg_frontend_init(st, ekdb_opts.cmd_enable);

		if (fe)
			dbg_core_init(fe);
	}
	local_irq_restore(flags);
}

/*
 * late_start_debugger - kgdboc written at run time on a kernel that booted
 * without a debugger (Linux's kgdboc configured after boot): the full
 * core's sessions and breakpoint table, allocated now.  0 or -errno.
 */
int late_start_debugger(void)
{
	struct ekdb_sessions st;
	struct dbg_bp *tab;

	if (ekdb_enabled())
		return 0;
	if (!late.done || late.off || ekdb_opts.bad)
		return -EKDB_ENODEV;
	if (alloc_late_storage(&st, &tab))
		return -EKDB_ENOMEM;
	start_sessions(&st, tab, false);
	return ekdb_enabled() ? 0 : -EKDB_ENODEV;
}

void ekdb_late_init(void)
{
	struct ekdb_sessions st;
	struct dbg_bp *tab;
	unsigned sw, hw, inst;
	size_t freed = 0;
	bool had_early = ekdb_enabled();
	char io[96];

	if (late.done)
		return;
	late.done = true;
	if (ekdb_opts.bad) {
		late.off = true;	/* a malformed option already turned the debugger off */
		return;
	}
	if (ekdb_opts.kgdboc[0] && kgdboc_parse(ekdb_opts.kgdboc, &late.kgdboc) == 0)
		late.have_kgdboc = true;
	if (!had_early && !late.have_kgdboc) {
		/* no debugger asked for: the early storage is simply returned */
		freed = release_early_storage();
		pr_info("ekdb: no debugger configured (ekgdboc=/kgdboc=): %zu KiB of early storage freed\n",
			freed / 1024);
		return;
	}
	if (alloc_late_storage(&st, &tab)) {
		pr_err("ekdb: handoff: out of memory: the early debugger stays in place\n");
		late.off = !had_early;
		return;
	}
	start_sessions(&st, tab, had_early);
	count_bps(&sw, &hw, &inst);
	freed = release_early_storage();
	late_io_pending_register();
	late_io_describe(io, sizeof(io));
	pr_info("ekdb: handoff: %u breakpoints (%u sw, %u hw) kept, %u installed, %s, %s session kept, %zu KiB of early storage freed\n",
		sw + hw, sw, hw, inst, io,
		had_early ? "kdb+gdb" : "new", freed / 1024);
	late_io_after_handoff(had_early);
}

/* ekdb.debug_early=unmap: take the released storage out of the page tables.
 * Anything else is refused and the debugger stays off (fail closed). */
static int setup_debug_early(const char *v)
{
	if (!v || strcmp(v, "unmap"))
		return dbg_opts_refuse("ekdb.debug_early", -EKDB_EINVAL);
	late.unmap_early = true;
	return 0;
}
EARLY_PARAM("ekdb.debug_early", setup_debug_early, "unmap");
