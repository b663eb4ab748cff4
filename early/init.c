/* SPDX-License-Identifier: GPL-2.0 */
/*
 * init.c - ekdb_early_init(): the early debugger comes up inside
 * setup_arch(), right after the early parameters, before any allocator:
 * the transport named by ekgdboc=, the debug vectors, kgdbcon, and the
 * kgdbwait stop.
 */
#include "early.h"
#include "../core/debug_core.h"
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

/* Does ekgdboc=@opt ("ttyS1,115200") name the line the handed-over session is on? */
static bool names_handoff_line(const char *opt)
{
	const struct ekdb_transport *t = dbg_transport_at(0);
	size_t n = 0;

	while (opt[n] && opt[n] != ',')
		n++;
	return t && t->name && strlen(t->name) == n && !strncmp(t->name, opt, n);
}

/*
 * ekgdboc='s devices, from the kind table: the serial line of
 * "kbd,ttyS0" first (it says NAK to a waiting gdb), then the keyboard;
 * without a keyboard the serial line alone.  The first transport to
 * register, *@second the other one (or NULL).
 */
static struct ekdb_transport *ekgdboc_instantiate(struct ekdb_transport **second, int *err)
{
	const struct ekdb_transport_cfg *dev = ekdb_opts.ekgdboc_dev;
	struct ekdb_transport *serial = NULL, *first;

	*second = NULL;
	if (ekdb_opts.n_ekgdboc_dev == 2) {
		serial = dev[1].ops->instantiate(&dev[1], err);
		if (!serial)
			return NULL;
	}
	first = dev[0].ops->instantiate(&dev[0], err);
	if (!first)
		return serial;		/* ekgdboc=kbd,ttyS0 without a keyboard: serial only */
	*second = serial;
	*err = 0;
	return first;
}

/*
 * kgdboc_earlycon[=name]: the serial transport of the port earlycon= set
 * up, sharing it with the console (Linux 5.8+'s kgdboc_earlycon).  NULL
 * (with Linux's message) when there is no such early console.
 */
static struct ekdb_transport *earlycon_instantiate(int *err)
{
	const char *name = NULL, *want = ekdb_opts.kgdboc_earlycon_name;
	const struct uart_port *port = early_earlycon_port(&name);
	struct ekdb_transport *t;

	*err = -EKDB_ENODEV;
	/* Linux's console of both uart8250 and uart is named "uart": either works */
	if (!port || (*want && strcmp(want, name) && strcmp(want, "uart"))) {
		pr_info("kgdboc: Couldn't find kgdb earlycon%s%s%s\n", *want ? " '" : "", want,
			*want ? "'" : "");
		return NULL;
	}
	pr_info("kgdboc: Going to register kgdb with earlycon '%s'\n", name);
	t = early_transport_serial_from(port, err);
	if (!t)
		pr_err("kgdboc: earlycon '%s': %s\n", name, ekdb_strerror(*err));
	return t;
}

void ekdb_early_init(void)
{
	struct ekdb_transport *t = NULL, *t2 = NULL, *td = NULL, *tx = NULL;
	bool earlycon_t = false;
	int err = 0;

	ekdb_handoff_report();
	if (ekdb_handoff_taken()) {
		/* the loader's session goes on: no second transport, no re-init */
		active_frontend = early_frontend_get();
		/* the kernel's reading of kdb.cmd_enable= (0 if malformed) is the one that counts */
		dbg_frontend_set_cmd_enable(ekdb_opts.cmd_enable);
		if (ekdb_opts.bad)
			pr_err("kgdb: malformed %s= option: the session handed over by the loader goes on%s\n",
			       ekdb_opts.bad_opt, ekdb_opts.cmd_enable ? "" :
			       " (kdb: the always-safe commands only)");
		if (ekdb_opts.ekgdboc[0] && !names_handoff_line(ekdb_opts.ekgdboc))
			pr_warn("kgdb: ekgdboc=%s: the session handed over by the loader stays on %s\n",
				ekdb_opts.ekgdboc, dbg_transport_at(0)->name);
		goto wait;
	}
	if (ekdb_handoff_refused())
		return;
	if (ekdb_opts.bad) {
		pr_err("kgdb: malformed %s= option: the debugger stays off\n", ekdb_opts.bad_opt);
		return;
	}
	if (ekdb_opts.kgdboc_earlycon && ekdb_opts.ekgdboc[0]) {
		pr_warn("kgdb: kgdboc_earlycon ignored: ekgdboc=%s names the early debugger's line\n",
			ekdb_opts.ekgdboc);
	} else if (ekdb_opts.kgdboc_earlycon) {
		t = earlycon_instantiate(&err);
		earlycon_t = t != NULL;
	}
	if (!ekdb_opts.ekgdboc[0] && !ekdb_opts.kgdbdbgp && !ekdb_opts.kgdbxdbc && !t) {
		if (ekdb_opts.kgdbwait)
			pr_warn("kgdb: kgdbwait without ekgdboc=, kgdbdbgp= or kgdbxdbc=: nothing to wait on\n");
		return;
	}
	if (ekdb_opts.ekgdboc[0]) {
		t = ekgdboc_instantiate(&t2, &err);
		if (!t) {
			pr_err("kgdb: ekgdboc=%s: %s: the debugger stays off\n", ekdb_opts.ekgdboc,
			       ekdb_strerror(err));
			return;
		}
	}
	if (ekdb_opts.kgdbdbgp) {
		const struct ekdb_transport_cfg *c = &ekdb_opts.kgdbdbgp_dev;

		td = c->ops->instantiate(c, &err);
		if (!td) {
			pr_err("kgdb: kgdbdbgp=%u: %s: the debugger stays off\n",
			       c->u.dbgp.index, ekdb_strerror(err));
			return;
		}
	}
	if (ekdb_opts.kgdbxdbc) {
		const struct ekdb_transport_cfg *c = &ekdb_opts.kgdbxdbc_dev;

		tx = c->ops->instantiate(c, &err);
		if (!tx) {
			pr_err("kgdb: kgdbxdbc=%u: %s: the debugger stays off\n",
			       c->u.dbgp.index, ekdb_strerror(err));
			return;
		}
	}
	active_frontend = early_frontend_get();
	if (!active_frontend || (t && dbg_transport_register(t)) ||
	    (t2 && dbg_transport_register(t2)) || (td && dbg_transport_register(td)) ||
	    (tx && dbg_transport_register(tx))) {
		pr_err("kgdb: cannot start the early debugger\n");
		return;
	}
	dbg_core_init(active_frontend);
	if (t)
		pr_info("kgdb: Registered I/O driver %s (%s%s%s)\n",
			earlycon_t ? "kgdboc_earlycon" : "ekgdboc", t->name, t2 ? "," : "",
			t2 ? t2->name : "");
	if (td)
		pr_info("kgdb: Registered I/O driver kgdbdbgp (%s)\n", td->name);
	if (tx)
		pr_info("kgdb: Registered I/O driver kgdbxdbc (%s)\n", tx->name);
wait:
	if (ekdb_opts.kgdbcon)
		ekdb_log_hook(kgdbcon_write);
	if (ekdb_opts.kgdbwait) {
		pr_notice("kgdb: Waiting for connection from remote gdb...\n");
		kgdb_breakpoint();
	}
}
