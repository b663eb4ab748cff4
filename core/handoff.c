/* SPDX-License-Identifier: GPL-2.0 */
/*
 * handoff.c - the loader handoff: the debugger's state across the jump
 * from the loader to the kernel (include/ekdb/handoff.h): the same code in both lifetimes.  The
 * loader's debugger exports its breakpoint table, its line and its
 * sessions into the boot-info record as its last act; the kernel's checks
 * the record and imports it into its freshly set up core before
 * start_kernel() (early/handoff.c).  Breakpoint numbers, installed int3s,
 * the gdb connection (no-ack mode, features) and the kdb history and
 * environment go on as they were: one session.
 *
 * A record is taken whole or not at all: dbg_handoff_check() names the
 * first thing wrong, and the kernel then leaves its debugger off.
 */
#include "debug_core.h"
#include <ekdb/handoff.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>

_Static_assert(EKDB_HANDOFF_BPS == EKDB_EARLY_BPS, "the handed-over table is the early table");
_Static_assert(EKDB_HANDOFF_HIST == KDB_HISTORY_EARLY, "the handed-over history is the early ring");
_Static_assert(EKDB_HANDOFF_LINE == KDB_LINE_MAX, "kdb lines");
_Static_assert(EKDB_HANDOFF_ENV == KDB_ENV_SLOTS && EKDB_HANDOFF_ENV_LEN == KDB_ENV_LEN, "kdb env");

#define BP_FLAGS (EKDB_HANDOFF_BP_USED | EKDB_HANDOFF_BP_ENABLED | EKDB_HANDOFF_BP_INSTALLED)
#define GDB_FLAGS (EKDB_HANDOFF_GDB_CONNECTED | EKDB_HANDOFF_GDB_OWNS_LINE | EKDB_HANDOFF_GDB_NO_ACK | \
		   EKDB_HANDOFF_GDB_SWBREAK | EKDB_HANDOFF_GDB_HWBREAK | EKDB_HANDOFF_GDB_BINARY_UPLOAD)

static bool terminated(const char *s, size_t max)
{
	return strnlen(s, max) < max;
}

static const char *check_bp(const struct ekdb_handoff_bp *b, unsigned *slots_seen)
{
	if (b->flags & ~BP_FLAGS)
		return "unknown breakpoint flags";
	if (!(b->flags & EKDB_HANDOFF_BP_USED))
		return b->flags ? "flags on an unused breakpoint" : NULL;
	if (b->type > EKDB_BP_ACCESS)
		return "unknown breakpoint type";
	if (!b->owner || (b->owner & ~(DBG_OWNER_GDB | DBG_OWNER_KDB)))
		return "breakpoint without a known owner";
	if ((b->flags & EKDB_HANDOFF_BP_INSTALLED) && !(b->flags & EKDB_HANDOFF_BP_ENABLED))
		return "disabled breakpoint marked installed";
	if (b->type == EKDB_BP_SW)
		return b->slot == -1 && b->len == 1 ? NULL : "software breakpoint with a slot or length";
	if (b->slot < 0 || b->slot >= ARCH_HW_BP_SLOTS)
		return "hardware breakpoint slot out of range";
	if (*slots_seen & (1u << b->slot))
		return "two breakpoints in one hardware slot";
	*slots_seen |= 1u << b->slot;
	/* what dbg_bp_restore() refuses must be refused here: a record is taken whole */
	if (!arch_hw_bp_addr_ok(b->addr))
		return "hardware breakpoint address the debug registers cannot hold";
	if (b->type == EKDB_BP_HW)
		return b->len == 1 ? NULL : "hardware breakpoint length is not 1";
	if ((b->len != 1 && b->len != 2 && b->len != 4 && b->len != 8) || (b->addr & (b->len - 1)))
		return "watchpoint length not 1/2/4/8 or not aligned";
	return NULL;
}

/*
 * Entry @i is a software breakpoint at an address an earlier one holds:
 * the loader's table never makes one, and the second would take the
 * first's int3 for the original byte (the text would keep an int3).
 */
static bool sw_used_twice(const struct ekdb_handoff *c, unsigned i)
{
	const struct ekdb_handoff_bp *b = &c->bp[i];

	if (!(b->flags & EKDB_HANDOFF_BP_USED) || b->type != EKDB_BP_SW)
		return false;
	for (unsigned j = 0; j < i; j++)
		if ((c->bp[j].flags & EKDB_HANDOFF_BP_USED) && c->bp[j].type == EKDB_BP_SW &&
		    c->bp[j].addr == b->addr)
			return true;
	return false;
}

static const char *check_line(const struct ekdb_handoff_line *l)
{
	if (l->kind != EKDB_HANDOFF_LINE_16550)
		return "no serial line to hand the session over on";
	if (!l->base)
		return "serial line without an I/O base";
	if (!l->baud || l->baud > 115200 || 115200 % l->baud)
		return "serial line baud rate not a divisor of 115200";
	if (l->npending > EKDB_HANDOFF_PENDING_MAX)
		return "too many pending line bytes";
	return NULL;
}

const char *dbg_handoff_check(const struct ekdb_handoff *c)
{
	unsigned slots = 0;
	const char *why;

	if (!c)
		return "no handoff record";
	if (c->magic != EKDB_HANDOFF_MAGIC)
		return "bad handoff magic";
	if (c->version != EKDB_HANDOFF_VERSION)
		return "unsupported handoff version";
	if (c->size != sizeof(*c))
		return "handoff record size mismatch";
	if (c->nbps > EKDB_HANDOFF_BPS)
		return "breakpoint count out of range";
	why = check_line(&c->line);
	if (why)
		return why;
	if (c->gdb.flags & ~GDB_FLAGS)
		return "unknown gdb session flags";
	if (c->gdb.waiting != EKDB_HANDOFF_RUN_CONTINUE)
		return "a single step cannot be handed over across the jump";
	if (c->kdb.cmd_enable & ~KDB_ENABLE_MASK)
		return "kdb.cmd_enable out of range";
	if (c->kdb.nhist > EKDB_HANDOFF_HIST)
		return "kdb history count out of range";
	for (unsigned i = 0; i < c->kdb.nhist; i++)
		if (!terminated(c->kdb.hist[i], EKDB_HANDOFF_LINE))
			return "kdb history line not terminated";
	for (unsigned i = 0; i < EKDB_HANDOFF_ENV; i++)
		if (!terminated(c->kdb.env[i], EKDB_HANDOFF_ENV_LEN))
			return "kdb environment entry not terminated";
	for (unsigned i = 0; i < c->nbps; i++) {
		why = check_bp(&c->bp[i], &slots);
		if (why)
			return why;
		if (sw_used_twice(c, i))
			return "two software breakpoints at one address";
	}
	return NULL;
}

/* ------------------------------------------------------------- export */

static int export_line(struct ekdb_handoff_line *l)
{
	struct ekdb_transport_state st;

	for (unsigned i = 0; i < dbg_transport_count(); i++) {
		struct ekdb_transport *t = dbg_transport_at(i);

		if (!t || t->kind != EKDB_TRANSPORT_SERIAL || !t->export_state)
			continue;
		memset(&st, 0, sizeof(st));
		t->export_state(t, &st);
		l->kind = EKDB_HANDOFF_LINE_16550;
		if (st.u.serial.iotype || st.u.serial.base > 0xffff)
			continue;	/* the handoff record holds an I/O port line */
		l->base = (u16)st.u.serial.base;
		l->baud = st.u.serial.baud;
		l->npending = (u16)(st.npending < EKDB_HANDOFF_PENDING_MAX ? st.npending : EKDB_HANDOFF_PENDING_MAX);
		memcpy(l->pending, st.pending, l->npending);
		return 0;
	}
	return -EKDB_ENODEV;	/* a session needs a line the kernel can drive */
}

static void export_gdb(struct ekdb_handoff_gdb *cg, const struct gdb_session *g)
{
	cg->flags = (g->connected ? EKDB_HANDOFF_GDB_CONNECTED : 0) |
		    (dbg_frontend_gdb_owns_line() ? EKDB_HANDOFF_GDB_OWNS_LINE : 0) |
		    (g->no_ack ? EKDB_HANDOFF_GDB_NO_ACK : 0) |
		    (g->gdb_swbreak ? EKDB_HANDOFF_GDB_SWBREAK : 0) |
		    (g->gdb_hwbreak ? EKDB_HANDOFF_GDB_HWBREAK : 0) |
		    (g->gdb_binary_upload ? EKDB_HANDOFF_GDB_BINARY_UPLOAD : 0);
	cg->waiting = g->resume.action == EKDB_RESUME_STEP ? EKDB_HANDOFF_RUN_STEP
							   : EKDB_HANDOFF_RUN_CONTINUE;
}

static void export_kdb(struct ekdb_handoff_kdb *ck, const struct kdb_session *k)
{
	unsigned n = 0;

	ck->cmd_enable = k->cmd_enable;
	while (n < EKDB_HANDOFF_HIST && kdb_hist_get(k, n))
		n++;
	for (unsigned i = 0; i < n; i++)	/* oldest first */
		strlcpy(ck->hist[i], kdb_hist_get(k, n - 1 - i), EKDB_HANDOFF_LINE);
	ck->nhist = n;
	for (unsigned i = 0; i < EKDB_HANDOFF_ENV; i++)
		strlcpy(ck->env[i], k->env[i], EKDB_HANDOFF_ENV_LEN);
}

static int export_bps(struct ekdb_handoff *c)
{
	for (int i = 0; i < dbg_bp_capacity(); i++) {
		const struct dbg_bp *b = dbg_bp_get(i);
		struct ekdb_handoff_bp *cb;

		if (!b)
			continue;
		if (i >= EKDB_HANDOFF_BPS)
			return -EKDB_ENOSPC;
		cb = &c->bp[i];
		cb->addr = b->addr;
		cb->hits = b->hits;
		cb->flags = EKDB_HANDOFF_BP_USED | (b->enabled ? EKDB_HANDOFF_BP_ENABLED : 0) |
			    (b->enabled && b->installed ? EKDB_HANDOFF_BP_INSTALLED : 0);
		cb->type = (u8)b->type;
		cb->owner = b->owner;
		cb->saved = b->saved;
		cb->slot = b->slot;
		cb->len = (u8)b->len;
		c->nbps = (u32)i + 1;
	}
	return 0;
}

/* The breakpoints and the sessions into @c (magic 0), nothing changed. */
int dbg_handoff_describe(struct ekdb_handoff *c)
{
	struct gdb_session *g;
	struct kdb_session *k;
	int err;

	memset(c, 0, sizeof(*c));
	dbg_frontend_sessions(&g, &k);
	if (!g || !k)
		return -EKDB_ENODEV;
	err = export_bps(c);
	if (err) {
		memset(c, 0, sizeof(*c));
		return err;
	}
	export_gdb(&c->gdb, g);
	export_kdb(&c->kdb, k);
	return 0;
}

/* @need_line: the successor drives the line itself (a 16550 it takes over). */
static int handoff_export(struct ekdb_handoff *c, bool need_line)
{
	int err = dbg_handoff_describe(c);

	if (!err) {
		err = export_line(&c->line);
		if (err && !need_line) {
			memset(&c->line, 0, sizeof(c->line));	/* LINE_NONE */
			err = 0;
		}
	}
	if (err) {
		memset(c, 0, sizeof(*c));	/* magic 0: nothing handed over */
		return err;
	}
	c->version = EKDB_HANDOFF_VERSION;
	c->size = sizeof(*c);
	c->magic = EKDB_HANDOFF_MAGIC;
	/* DR7 = 0 through the jump: the kernel re-arms the slots from the table */
	arch_hw_bp_disarm();
	return 0;
}

int dbg_handoff_export(struct ekdb_handoff *c)
{
	return handoff_export(c, true);
}

int dbg_handoff_lend(struct ekdb_handoff *c)
{
	return handoff_export(c, false);
}

/* ------------------------------------------------------------- import */

static void import_gdb(struct gdb_session *g, const struct ekdb_handoff_gdb *cg)
{
	g->connected = cg->flags & EKDB_HANDOFF_GDB_CONNECTED;
	g->no_ack = cg->flags & EKDB_HANDOFF_GDB_NO_ACK;
	g->gdb_swbreak = cg->flags & EKDB_HANDOFF_GDB_SWBREAK;
	g->gdb_hwbreak = cg->flags & EKDB_HANDOFF_GDB_HWBREAK;
	g->gdb_binary_upload = cg->flags & EKDB_HANDOFF_GDB_BINARY_UPLOAD;
	dbg_frontend_set_gdb_owns_line(cg->flags & EKDB_HANDOFF_GDB_OWNS_LINE);
}

static void import_kdb(struct kdb_session *k, const struct ekdb_handoff_kdb *ck)
{
	k->cmd_enable = ck->cmd_enable;
	for (unsigned i = 0; i < ck->nhist; i++)
		kdb_hist_add(k, ck->hist[i]);
	for (unsigned i = 0; i < EKDB_HANDOFF_ENV; i++)
		strlcpy(k->env[i], ck->env[i], KDB_ENV_LEN);
}

static bool byte_is_break(u64 addr)
{
	u8 v;

	return arch_dbg_probe_read(&v, addr, 1) == 1 && v == ARCH_BREAK_INSN;
}

/*
 * One handed-over entry as this lifetime's table entry.  A software one
 * inside this image's text stays installed if its int3 is really there;
 * one outside (the loader's code, gone now) is kept disabled, so gdb's z
 * and kdb's bc still find it; one in the jump window (a loader that did
 * not refuse it) gets its byte back and is dropped.
 */
static int import_bp(int i, const struct ekdb_handoff_bp *cb, u64 text_start, u64 text_end,
		     struct dbg_handoff_stats *st)
{
	struct dbg_bp b = {
		.used = true, .enabled = cb->flags & EKDB_HANDOFF_BP_ENABLED,
		.installed = cb->flags & EKDB_HANDOFF_BP_INSTALLED, .type = cb->type,
		.owner = cb->owner, .saved = cb->saved, .slot = cb->slot, .len = cb->len,
		.addr = cb->addr, .hits = (unsigned long)cb->hits,
		.planted = EKDB_LIFE_LOADER,	/* every handed-over entry was set in the loader */
	};

	if (b.type == EKDB_BP_SW) {
		if (dbg_addr_in_jump_window(b.addr, 1)) {
			if (b.installed && byte_is_break(b.addr))
				arch_dbg_text_poke(b.addr, &b.saved, 1);
			st->dropped++;
			return 0;
		}
		if (b.addr < text_start || b.addr >= text_end) {
			b.enabled = b.installed = false;
			st->disabled++;
		} else if (b.installed && !byte_is_break(b.addr)) {
			b.installed = false;	/* planted again below, with the byte read now */
		}
		st->sw++;
	} else {
		b.installed = false;		/* DR7 was 0 through the jump: armed below */
		st->hw++;
	}
	return dbg_bp_restore(i, &b);
}

int dbg_handoff_import(const struct ekdb_handoff *c, u64 text_start, u64 text_end,
		     struct dbg_handoff_stats *st)
{
	struct gdb_session *g;
	struct kdb_session *k;
	int err;

	memset(st, 0, sizeof(*st));
	if (dbg_handoff_check(c))
		return -EKDB_EINVAL;
	dbg_frontend_sessions(&g, &k);
	if (!g || !k)
		return -EKDB_ENODEV;
	for (unsigned i = 0; i < c->nbps; i++) {
		if (!(c->bp[i].flags & EKDB_HANDOFF_BP_USED))
			continue;
		err = import_bp((int)i, &c->bp[i], text_start, text_end, st);
		if (err)
			return err;
	}
	import_gdb(g, &c->gdb);
	import_kdb(k, &c->kdb);
	dbg_bp_install_all(0);	/* the hardware slots on this CPU, any int3 still missing */
	return 0;
}

/*
 * dbg_handoff_unplant - a record the kernel refuses must not leave int3s
 * behind with nobody to catch them: give the original byte back where the
 * text really holds the loader's int3 (only for a record whose header is
 * sound; a garbage record's bytes are not trusted either way).
 */
unsigned dbg_handoff_unplant(const struct ekdb_handoff *c, u64 text_start, u64 text_end)
{
	unsigned n = 0, max;

	if (!c || c->magic != EKDB_HANDOFF_MAGIC || c->version != EKDB_HANDOFF_VERSION ||
	    c->size != sizeof(*c))
		return 0;
	max = c->nbps < EKDB_HANDOFF_BPS ? c->nbps : EKDB_HANDOFF_BPS;
	for (unsigned i = 0; i < max; i++) {
		const struct ekdb_handoff_bp *cb = &c->bp[i];

		if (cb->flags != (EKDB_HANDOFF_BP_USED | EKDB_HANDOFF_BP_ENABLED | EKDB_HANDOFF_BP_INSTALLED) ||
		    cb->type != EKDB_BP_SW || cb->saved == ARCH_BREAK_INSN ||
		    cb->addr < text_start || cb->addr >= text_end || !byte_is_break(cb->addr))
			continue;
		if (arch_dbg_text_poke(cb->addr, &cb->saved, 1) == 1)
			n++;
	}
	return n;
}
