/* SPDX-License-Identifier: GPL-2.0 */
/*
 * storage.c - the early debugger's sessions and the front end that drives
 * them: static buffers the gdbstub and kdb run on before any allocator
 * exists.
 *
 * One line, two shells, as in Linux: a stop is served by kdb (the
 * `[0]kdb> ` prompt) unless gdb is the one attached.  gdb traffic at the
 * kdb prompt, or kdb's `kgdb` command, hands the line to gdb; gdb's
 * `$3#33` (maintenance packet 3) hands it back; a gdb detach returns the
 * next stop to kdb.  With `ekgdboc=ttySn` and no kdb use, gdb just
 * connects: the kdb prompt sent before it did went nowhere.
 */
#include "early.h"
#include "../core/debug_core.h"
#include <ekdb/gdbstub.h>
#include <ekdb/kdb.h>

/* gdb's PacketSize: a 'g' reply or a 2 KiB memory read fits */
#define EARLY_GDB_BUFSIZE 4096

static char gdb_inbuf[EARLY_GDB_BUFSIZE];
static char gdb_outbuf[EARLY_GDB_BUFSIZE];
static struct gdb_session gdb_early_session;
static struct kdb_session kdb_early_session;
static bool session_ready;
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

static void gdb_chan_flush(void *arg)
{
	if (dbg_chan.flush)
		dbg_chan.flush(arg);
}

static const struct ekdb_chan gdb_chan = {
	.getc = gdb_chan_getc,
	.putc = gdb_chan_putc,
	.flush = gdb_chan_flush,
};

static struct ekdb_resume run_gdb(const struct ekdb_stop *stop, bool announce)
{
	const struct dbg_bp *b = dbg_bp_get(stop->bp_index);
	struct ekdb_stop st = *stop;
	struct ekdb_resume r;

	/*
	 * A breakpoint gdb did not plant (kdb's): a swbreak/hwbreak stop would
	 * make gdb take it for a leftover of its own and silently continue.
	 * Report a plain SIGTRAP so the user sees the stop.
	 */
	if (b && !(b->owner & DBG_OWNER_GDB) &&
	    (st.reason == EKDB_STOP_SWBREAK || st.reason == EKDB_STOP_HWBREAK))
		st.reason = EKDB_STOP_ENTRY;
	gdb_mode = true;
	r = gdb_session_run(&gdb_early_session, &st, announce);
	if (r.action == EKDB_RESUME_DETACH || r.action == EKDB_RESUME_KILL ||
	    r.action == EKDB_RESUME_TO_KDB)
		gdb_mode = false;
	return r;
}

static struct ekdb_resume early_run(const struct ekdb_stop *stop, bool announce)
{
	struct ekdb_resume r;
	const char *pb;
	size_t pblen;

	if (gdb_mode) {
		r = run_gdb(stop, announce);
		if (r.action != EKDB_RESUME_TO_KDB)
			return r;
		announce = true;	/* back from gdb: the entry line again, as Linux's kdb_stub */
	}
	for (;;) {
		r = kdb_session_run(&kdb_early_session, stop, announce);
		if (r.action != EKDB_RESUME_TO_GDB)
			return r;
		/* gdb spoke at the prompt (or `kgdb`): give it what kdb already read */
		kdb_session_pushback(&kdb_early_session, &pb, &pblen);
		gdb_session_pushback(&gdb_early_session, pb, pblen);
		r = run_gdb(stop, false);
		if (r.action != EKDB_RESUME_TO_KDB)
			return r;
		announce = true;
	}
}

static void early_console(const char *s, size_t len)
{
	if (gdb_mode && gdb_session_connected(&gdb_early_session))
		gdb_session_output(&gdb_early_session, s, len);
}

static const struct dbg_frontend early_frontend = {
	.name = "kdb+gdb",
	.run = early_run,
	.console_write = early_console,
};

const struct dbg_frontend *early_frontend_get(void)
{
	if (!session_ready &&
	    gdb_session_init(&gdb_early_session, &dbg_target, &gdb_chan, gdb_inbuf, gdb_outbuf,
			     sizeof(gdb_inbuf)) == 0 &&
	    kdb_session_init(&kdb_early_session, &dbg_target, &dbg_chan) == 0) {
		kdb_early_session.cmd_enable = ekdb_opts.cmd_enable;
		kdb_run_cmds(&kdb_early_session, kdb_builtin_cmds);
		session_ready = true;
	}
	return session_ready ? &early_frontend : NULL;
}
