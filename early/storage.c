/* SPDX-License-Identifier: GPL-2.0 */
/*
 * storage.c - the early lifetime's session storage: static buffers the
 * gdbstub and kdb run on before any allocator exists.  They sit in the
 * early region (__ekdb_early) that the handoff releases: core/late/
 * moves the sessions out first.
 */
#include "early.h"
#include "../core/core_early.h"
#include <ekdb/gdbstub.h>
#include <ekdb/kdb.h>

/* gdb's PacketSize: a 'g' reply or a 2 KiB memory read fits */
#define EARLY_GDB_BUFSIZE 4096

static char gdb_inbuf[EARLY_GDB_BUFSIZE] __ekdb_early;
static char gdb_outbuf[EARLY_GDB_BUFSIZE] __ekdb_early;
static struct gdb_session gdb_early_session __ekdb_early;
static struct kdb_session kdb_early_session __ekdb_early;

static const struct ekdb_sessions early_store = {
	.gdb = &gdb_early_session, .kdb = &kdb_early_session,
	.gdb_in = gdb_inbuf, .gdb_out = gdb_outbuf, .gdb_bufsize = EARLY_GDB_BUFSIZE,
};

const struct ekdb_sessions *early_sessions(void)
{
	return &early_store;
}

const struct dbg_frontend *early_frontend_get(void)
{
	return dbg_frontend_init(&early_store, ekdb_opts.cmd_enable);
}
