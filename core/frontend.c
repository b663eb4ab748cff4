/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frontend.c - the debugger's one front end: the kdb and gdb sessions on
 * the debugger's line, and the switch between them.  The sessions live in
 * storage the running lifetime provides (static while the kernel is young,
 * allocated after the handoff: dbg_frontend_move()); the session itself,
 * gdb connection and kdb history alike, goes on across the move.
 *
 * One line, two shells, as in Linux: a stop is served by kdb (the
 * `[0]kdb> ` prompt) unless gdb is the one attached.  gdb traffic at the
 * kdb prompt, or kdb's `kgdb` command, hands the line to gdb; gdb's
 * `$3#33` (maintenance packet 3) hands it back; a gdb detach returns the
 * next stop to kdb.
 */
#include "debug_core.h"
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>

static struct ekdb_sessions store;
static bool gdb_mode;		/* gdb owns the line: stops go to it */

/* gdb packets must not be drawn on a screen console: only byte lines carry them */
static int gdb_chan_getc(void *arg)
{
	return dbg_chan.getc(arg);
}

static void gdb_chan_putc(void *arg, u8 c)
{
	dbg_chan_putc_lines(c);
}

static void gdb_chan_write(void *arg, const u8 *buf, size_t n)
{
	dbg_chan_write_lines(buf, n);
}

static void gdb_chan_flush(void *arg)
{
	if (dbg_chan.flush)
		dbg_chan.flush(arg);
}

static unsigned long gdb_chan_quiet_polls(void *arg)
{
	return dbg_chan.quiet_polls(arg);
}

/*
 * a live line: what waits behind a request is a backlog the stub reads
 * first (gdbstub/packet.c); not with a scripted peer (run_gdb sets it)
 */
static struct ekdb_chan gdb_chan = {
	.getc = gdb_chan_getc,
	.putc = gdb_chan_putc,
	.write = gdb_chan_write,
	.flush = gdb_chan_flush,
	.quiet_polls = gdb_chan_quiet_polls,
	.drop_stale = true,
};

static struct ekdb_resume run_gdb(const struct ekdb_stop *stop, bool announce)
{
	const struct dbg_bp *b = dbg_bp_get(stop->bp_index);
	struct ekdb_stop st = *stop;
	struct ekdb_resume r;

	gdb_chan.drop_stale = !dbg_transports_scripted();

	/*
	 * A breakpoint gdb did not plant (kdb's): a swbreak/hwbreak stop would
	 * make gdb take it for a leftover of its own and silently continue.
	 * Report a plain SIGTRAP so the user sees the stop.
	 */
	if (b && !(b->owner & DBG_OWNER_GDB) &&
	    (st.reason == EKDB_STOP_SWBREAK || st.reason == EKDB_STOP_HWBREAK))
		st.reason = EKDB_STOP_ENTRY;
	gdb_mode = true;
	r = gdb_session_run(store.gdb, &st, announce);
	if (r.action == EKDB_RESUME_DETACH || r.action == EKDB_RESUME_KILL ||
	    r.action == EKDB_RESUME_TO_KDB)
		gdb_mode = false;
	return r;
}

static struct ekdb_resume frontend_run(const struct ekdb_stop *stop, bool announce)
{
	struct ekdb_resume r;
	const char *pb;
	size_t pblen;

	if (gdb_mode) {
		r = run_gdb(stop, announce);
		if (r.action != EKDB_RESUME_TO_KDB)
			return r;
		announce = true;	/* back from gdb: the entry line again, as Linux's kdb_stub */
		kdb_session_from_gdb(store.kdb);
	}
	for (;;) {
		r = kdb_session_run(store.kdb, stop, announce);
		if (r.action != EKDB_RESUME_TO_GDB)
			return r;
		/* gdb spoke at the prompt (or `kgdb`): give it what kdb already read */
		kdb_session_pushback(store.kdb, &pb, &pblen);
		gdb_session_pushback(store.gdb, pb, pblen);
		r = run_gdb(stop, false);
		if (r.action != EKDB_RESUME_TO_KDB)
			return r;
		announce = true;
		kdb_session_from_gdb(store.kdb);
	}
}

static void frontend_console(const char *s, size_t len)
{
	if (!ekdb_enabled() || !gdb_mode || !store.gdb || !gdb_session_connected(store.gdb))
		return;
	if (!dbg_console_begin())
		return;		/* a CPU is in the debugger: gdb is not listening for O */
	gdb_session_output(store.gdb, s, len);
	dbg_console_end();
}

static const struct dbg_frontend kdb_gdb_frontend = {
	.name = "kdb+gdb",
	.run = frontend_run,
	.console_write = frontend_console,
};

const struct dbg_frontend *dbg_frontend_init(const struct ekdb_sessions *st, u32 cmd_enable)
{
	if (store.kdb)
		return &kdb_gdb_frontend;
	if (gdb_session_init(st->gdb, &dbg_target, &gdb_chan, st->gdb_in, st->gdb_out,
			     st->gdb_bufsize) || kdb_session_init(st->kdb, &dbg_target, &dbg_chan))
		return NULL;
	st->kdb->cmd_enable = cmd_enable;
	gdb_session_set_monitor(st->gdb, kdb_monitor, st->kdb);	/* gdb's `monitor <kdb command>` */
	kdb_session_set_host(st->kdb, &dbg_host_ops);		/* ps, dmesg, lsmod ... */
	store = *st;
	kdb_run_cmds(store.kdb, kdb_builtin_cmds);
	return &kdb_gdb_frontend;
}

int dbg_frontend_move(const struct ekdb_sessions *st)
{
	if (!store.kdb)
		return -EKDB_ENODEV;
	if (!st->gdb || !st->kdb || !st->gdb_in || !st->gdb_out)
		return -EKDB_EINVAL;
	memcpy(st->gdb, store.gdb, sizeof(*st->gdb));
	if (gdb_session_set_buffers(st->gdb, st->gdb_in, st->gdb_out, st->gdb_bufsize))
		return -EKDB_EINVAL;
	kdb_session_move(st->kdb, store.kdb);
	gdb_session_set_monitor(st->gdb, kdb_monitor, st->kdb);
	if (st->kdb_hist)
		kdb_session_set_history(st->kdb, st->kdb_hist, st->kdb_hist_cap);
	store = *st;
	return 0;
}

void dbg_frontend_sessions(struct gdb_session **gdb, struct kdb_session **kdb)
{
	*gdb = store.gdb;
	*kdb = store.kdb;
}

bool dbg_frontend_gdb_owns_line(void)
{
	return gdb_mode;
}

void dbg_frontend_set_gdb_owns_line(bool on)
{
	gdb_mode = on;
}

void dbg_frontend_set_cmd_enable(u32 cmd_enable)
{
	if (store.kdb)
		store.kdb->cmd_enable = cmd_enable;
}

bool dbg_frontend_gdb_attached(void)
{
	return gdb_mode && store.gdb && gdb_session_connected(store.gdb);
}
