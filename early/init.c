/* SPDX-License-Identifier: GPL-2.0 */
/*
 * init.c - ekdb_early_init(): the early debugger comes up inside
 * setup_arch(), right after the early parameters, before any allocator:
 * the transport named by ekgdboc=, the debug vectors, kgdbcon, and the
 * kgdbwait stop.
 */
#include "early.h"
#include "../core/debug_core.h"
#include "../earlyio/serial/serial_transport.h"
#include "../earlyio/kbd/kbd_transport.h"
#include "../earlyio/ehci-dbgp/ehci_dbgp.h"
#include <ekdb/string.h>
#include <ekdb/log.h>
#include <ekdb/port.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>

static const struct dbg_frontend *active_frontend;

static void kgdbcon_write(const char *s, size_t len)
{
	if (active_frontend && active_frontend->console_write)
		active_frontend->console_write(s, len);
}

/* Does ekgdboc=@opt ("ttyS1,115200") name the line the carried session is on? */
static bool names_carried_line(const char *opt)
{
	const struct ekdb_transport *t = dbg_transport_at(0);
	size_t n = 0;

	while (opt[n] && opt[n] != ',')
		n++;
	return t && t->name && strlen(t->name) == n && !strncmp(t->name, opt, n);
}

void ekdb_early_init(void)
{
	struct ekdb_transport *t = NULL, *t2 = NULL, *td = NULL;
	int err = 0;

	ekdb_carry_report();
	if (ekdb_carried()) {
		/* the loader's session goes on: no second transport, no re-init */
		active_frontend = early_frontend_get();
		/* the kernel's reading of kdb.cmd_enable= (0 if malformed) is the one that counts */
		dbg_frontend_set_cmd_enable(ekdb_opts.cmd_enable);
		if (ekdb_opts.bad)
			pr_err("kgdb: malformed %s= option: the session carried from the loader goes on%s\n",
			       ekdb_opts.bad_opt, ekdb_opts.cmd_enable ? "" :
			       " (kdb: the always-safe commands only)");
		if (ekdb_opts.ekgdboc[0] && !names_carried_line(ekdb_opts.ekgdboc))
			pr_warn("kgdb: ekgdboc=%s: the session carried from the loader stays on %s\n",
				ekdb_opts.ekgdboc, dbg_transport_at(0)->name);
		goto wait;
	}
	if (ekdb_carry_refused())
		return;
	if (ekdb_opts.bad) {
		pr_err("kgdb: malformed %s= option: the debugger stays off\n", ekdb_opts.bad_opt);
		return;
	}
	if (!ekdb_opts.ekgdboc[0] && !ekdb_opts.kgdbdbgp) {
		if (ekdb_opts.kgdbwait)
			pr_warn("kgdb: kgdbwait without ekgdboc= or kgdbdbgp=: nothing to wait on\n");
		return;
	}
	if (!strncmp(ekdb_opts.ekgdboc, "kbd", 3))	/* keyboard+screen [+ serial] */
		t = kbd_transport_init(ekdb_opts.ekgdboc + 3, &t2, &err);
	else if (ekdb_opts.ekgdboc[0])
		t = serial_transport_init(ekdb_opts.ekgdboc, &err);
	if (ekdb_opts.ekgdboc[0] && !t) {
		pr_err("kgdb: ekgdboc=%s: %s: the debugger stays off\n", ekdb_opts.ekgdboc,
		       ekdb_strerror(err));
		return;
	}
	if (ekdb_opts.kgdbdbgp) {
		td = dbgp_transport_init(ekdb_opts.kgdbdbgp_index, ekdb_opts.kgdbdbgp_secs, &err);
		if (!td) {
			pr_err("kgdb: kgdbdbgp=%u: %s: the debugger stays off\n",
			       ekdb_opts.kgdbdbgp_index, ekdb_strerror(err));
			return;
		}
	}
	active_frontend = early_frontend_get();
	if (!active_frontend || (t && dbg_transport_register(t)) ||
	    (t2 && dbg_transport_register(t2)) || (td && dbg_transport_register(td))) {
		pr_err("kgdb: cannot start the early debugger\n");
		return;
	}
	dbg_core_init(active_frontend);
	if (t)
		pr_info("kgdb: Registered I/O driver ekgdboc (%s%s%s)\n", t->name, t2 ? "," : "",
			t2 ? t2->name : "");
	if (td)
		pr_info("kgdb: Registered I/O driver kgdbdbgp (%s)\n", td->name);
wait:
	if (ekdb_opts.kgdbcon)
		ekdb_log_hook(kgdbcon_write);
	if (ekdb_opts.kgdbwait) {
		pr_notice("kgdb: Waiting for connection from remote gdb...\n");
		kgdb_breakpoint();
	}
}
