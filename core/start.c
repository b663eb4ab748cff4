// SPDX-License-Identifier: GPL-2.0
/*
 * start.c - the one way in for a host: ekdb_start() with what the host
 * decided (struct ekdb_start, <ekdb/ekdb.h>), and the host's other calls
 * that reach the core's tables (export, shutdown, address policy, raw
 * line output, the fault-safe read).  The reference kernel's
 * ekdb_early_init(), the loader and the ekdbts self-test all start here.
 */
#include "debug_core.h"
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>

_Static_assert(KDB_LINE_MAX == sizeof(*((struct ekdb_sessions *)0)->kdb_hist),
	       "struct ekdb_sessions' history lines are kdb's");

static bool started;

int ekdb_start(const struct ekdb_start *s)
{
	const struct dbg_frontend *fe;
	unsigned n = 0;
	int err;

	if (started || ekdb_enabled())
		return -EKDB_EBUSY;
	if (!s->sessions || !s->io[0])
		return -EKDB_EINVAL;
	fe = dbg_frontend_init(s->sessions, s->cmd_enable);
	if (!fe)
		return -EKDB_ENOMEM;
	for (; n < EKDB_START_IO && s->io[n]; n++) {
		err = dbg_transport_register(s->io[n]);
		if (err) {
			while (n--)
				dbg_transport_unregister(s->io[n]);
			return err;
		}
	}
	dbg_bp_set_code_check(s->code_addr);
	dbg_bp_set_lifetime(s->lifetime ? s->lifetime : EKDB_LIFE_EARLY);
	dbg_target_set_libraries(s->libraries);
	dbg_target_set_libraries_svr4(s->libraries_svr4);
	if (s->gdb_owns_line)
		dbg_frontend_set_gdb_owns_line(true);
	dbg_core_init(fe);
	started = true;
	return 0;
}

void ekdb_shutdown(void)
{
	dbg_bp_uninstall_all();
	dbg_core_exit();
	started = false;
}

static int handoff_end(int err)
{
	if (err)
		dbg_bp_uninstall_all();
	dbg_core_exit();	/* off either way: the table is the successor's */
	return err;
}

int ekdb_handoff_export(struct ekdb_handoff *rec)
{
	return handoff_end(dbg_handoff_export(rec));
}

int ekdb_handoff_lend(struct ekdb_handoff *rec)
{
	return handoff_end(dbg_handoff_lend(rec));
}

int ekdb_handoff_describe(struct ekdb_handoff *rec)
{
	return dbg_handoff_describe(rec);
}

void ekdb_set_jump_window(u64 start, u64 end)
{
	dbg_bp_set_jump_window(start, end);
}

void ekdb_set_nobp_range(u64 start, u64 end)
{
	dbg_bp_set_nobp_range(start, end);
}

int ekdb_add_nobp_range(u64 start, u64 end)
{
	return dbg_bp_add_nobp_range(start, end);
}

extern char __ekdb_text_start[], __ekdb_text_end[];

void ekdb_text_range(u64 *start, u64 *end)
{
	*start = (u64)__ekdb_text_start;
	*end = (u64)__ekdb_text_end;
}

void ekdb_io_write(const char *s, size_t len)
{
	dbg_chan_write_lines((const u8 *)s, len);
	if (dbg_chan.flush)
		dbg_chan.flush(dbg_chan.arg);
}

int ekdb_io_write_screen(const char *s, size_t len)
{
	unsigned n = dbg_chan_write_consoles((const u8 *)s, len);

	if (n && len && dbg_chan.flush)
		dbg_chan.flush(dbg_chan.arg);
	return n;
}

void ekdb_set_gdb_plain(bool on)
{
	gdb_set_plain(on);
}

int ekdb_io_getc(void)
{
	int c = dbg_chan.getc(dbg_chan.arg);

	return c < 0 ? -1 : c;
}

int ekdb_io_kbd_state(struct ekdb_kbd_state *ks)
{
	struct ekdb_transport *t = dbg_transport_find("kbd");
	struct ekdb_transport_state st;

	if (!t || t->kind != EKDB_TRANSPORT_KBD || !t->export_state)
		return -EKDB_ENODEV;
	memset(&st, 0, sizeof(st));
	t->export_state(t, &st);
	*ks = (struct ekdb_kbd_state){
		.ps2 = st.u.kbd.ps2,
		.usb = st.u.kbd.usb,
		.shift = st.u.kbd.shift,
		.ctrl = st.u.kbd.ctrl,
		.alt = st.u.kbd.alt,
		.caps_lock = st.u.kbd.caps_lock,
		.enter_down = st.u.kbd.enter_down,
	};
	return 0;
}

void ekdb_io_stop_begin(void)
{
	dbg_transports_pre();
}

void ekdb_io_stop_end(void)
{
	dbg_transports_post();
}

long ekdb_mem_read(u64 addr, void *buf, size_t len)
{
	return dbg_mem_read(addr, buf, len);
}
