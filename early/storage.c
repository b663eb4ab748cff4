/* SPDX-License-Identifier: GPL-2.0 */
/*
 * storage.c - the early debugger's session: static buffers the gdbstub
 * runs on before any allocator exists, and the front end that drives it.
 */
#include "early.h"
#include "../core/debug_core.h"
#include <ekdb/gdbstub.h>

/* gdb's PacketSize: a 'g' reply or a 2 KiB memory read fits */
#define EARLY_GDB_BUFSIZE 4096

static char gdb_inbuf[EARLY_GDB_BUFSIZE];
static char gdb_outbuf[EARLY_GDB_BUFSIZE];
static struct gdb_session gdb_early_session;
static bool session_ready;

static struct ekdb_resume early_gdb_run(const struct ekdb_stop *stop, bool announce)
{
	return gdb_session_run(&gdb_early_session, stop, announce);
}

static void early_gdb_console(const char *s, size_t len)
{
	if (gdb_session_connected(&gdb_early_session))
		gdb_session_output(&gdb_early_session, s, len);
}

static const struct dbg_frontend early_gdb = {
	.name = "gdb",
	.run = early_gdb_run,
	.console_write = early_gdb_console,
};

const struct dbg_frontend *early_gdb_frontend(void)
{
	if (!session_ready &&
	    gdb_session_init(&gdb_early_session, &dbg_target, &dbg_chan, gdb_inbuf, gdb_outbuf,
			     sizeof(gdb_inbuf)) == 0)
		session_ready = true;
	return session_ready ? &early_gdb : NULL;
}
