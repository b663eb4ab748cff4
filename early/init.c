/* SPDX-License-Identifier: GPL-2.0 */
/*
 * init.c - ekdb_early_init(): the early debugger comes up inside
 * setup_arch(), right after the early parameters, before any allocator:
 * the transport named by ekgdboc=, the debug vectors, kgdbcon, and the
 * kgdbwait stop.
 */
#include "early.h"
#include "../core/core_early.h"
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

/* The loader's session goes on: no second transport, no re-init; say what differs. */
static void go_on_from_loader(void)
{
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
}

/* The USB debug kinds: one parameter each, the Nth device of its kind. */
static const struct {
	const char *param;
	const bool *given;
	const struct ekdb_transport_cfg *cfg;
} usb_params[] = {
	{ "kgdbdbgp", &ekdb_opts.kgdbdbgp, &ekdb_opts.kgdbdbgp_dev },
	{ "kgdbxdbc", &ekdb_opts.kgdbxdbc, &ekdb_opts.kgdbxdbc_dev },
};

/* The early debugger's transports: ekgdboc='s (or the earlycon's), then the USB ones. */
struct early_transports {
	struct ekdb_transport *line, *line2;	/* ekgdboc= (line2: its serial line with kbd) */
	const char *line_by;			/* "ekgdboc" or "kgdboc_earlycon" */
	struct ekdb_transport *usb[ARRAY_SIZE(usb_params)];
};

/*
 * Every transport the options name, from the kind table.  False, with the
 * reason logged, when one cannot be made: the debugger stays off.
 */
static bool instantiate_all(struct early_transports *ts)
{
	int err = 0;

	ts->line_by = "ekgdboc";
	if (ekdb_opts.kgdboc_earlycon && ekdb_opts.ekgdboc[0]) {
		pr_warn("kgdb: kgdboc_earlycon ignored: ekgdboc=%s names the early debugger's line\n",
			ekdb_opts.ekgdboc);
	} else if (ekdb_opts.kgdboc_earlycon) {
		ts->line = earlycon_instantiate(&err);
		ts->line_by = "kgdboc_earlycon";
	}
	if (!ekdb_opts.ekgdboc[0] && !ekdb_opts.kgdbdbgp && !ekdb_opts.kgdbxdbc && !ts->line) {
		if (ekdb_opts.kgdbwait)
			pr_warn("kgdb: kgdbwait without ekgdboc=, kgdbdbgp= or kgdbxdbc=: nothing to wait on\n");
		return false;
	}
	if (ekdb_opts.ekgdboc[0]) {
		ts->line = ekgdboc_instantiate(&ts->line2, &err);
		if (!ts->line) {
			pr_err("kgdb: ekgdboc=%s: %s: the debugger stays off\n", ekdb_opts.ekgdboc,
			       ekdb_strerror(err));
			return false;
		}
	}
	for (unsigned i = 0; i < ARRAY_SIZE(usb_params); i++) {
		const struct ekdb_transport_cfg *c = usb_params[i].cfg;

		if (!*usb_params[i].given)
			continue;
		ts->usb[i] = c->ops->instantiate(c, &err);
		if (!ts->usb[i]) {
			pr_err("kgdb: %s=%u: %s: the debugger stays off\n", usb_params[i].param,
			       c->u.dbgp.index, ekdb_strerror(err));
			return false;
		}
	}
	return true;
}

/* The transports in the order they register (ekdb_start's io[]). */
static void collect_io(const struct early_transports *ts, struct ekdb_start *start)
{
	unsigned n = 0;

	if (ts->line)
		start->io[n++] = ts->line;
	if (ts->line2)
		start->io[n++] = ts->line2;
	for (unsigned i = 0; i < ARRAY_SIZE(usb_params); i++)
		if (ts->usb[i])
			start->io[n++] = ts->usb[i];
}

static void report_registered(const struct early_transports *ts)
{
	if (ts->line)
		pr_info("kgdb: Registered I/O driver %s (%s%s%s)\n", ts->line_by, ts->line->name,
			ts->line2 ? "," : "", ts->line2 ? ts->line2->name : "");
	for (unsigned i = 0; i < ARRAY_SIZE(usb_params); i++)
		if (ts->usb[i])
			pr_info("kgdb: Registered I/O driver %s (%s)\n", usb_params[i].param,
				ts->usb[i]->name);
}

/*
 * The early debugger from the options: false when it stays off (the reason
 * logged), or when nothing names a transport.
 */
static bool start_early(void)
{
	struct early_transports ts = { 0 };
	struct ekdb_start start = { 0 };
	int err;

	if (ekdb_handoff_refused())
		return false;
	if (ekdb_opts.bad) {
		pr_err("kgdb: malformed %s= option: the debugger stays off\n", ekdb_opts.bad_opt);
		return false;
	}
	if (!instantiate_all(&ts))
		return false;
	start.sessions = early_sessions();
	start.cmd_enable = ekdb_opts.cmd_enable;
	collect_io(&ts, &start);
	err = ekdb_start(&start);
	if (err) {
		pr_err("kgdb: cannot start the early debugger: %s\n", ekdb_strerror(err));
		return false;
	}
	active_frontend = early_frontend_get();
	report_registered(&ts);
	return true;
}

/*
 * The kgdbwait stop is made here, not in a helper: its backtrace reads
 * kgdb_breakpoint <- ekdb_early_init <- setup_arch, as in Linux.
 */
void ekdb_early_init(void)
{
	ekdb_handoff_report();
	if (ekdb_handoff_taken())
		go_on_from_loader();
	else if (!start_early())
		return;
	if (ekdb_opts.kgdbcon)
		ekdb_log_hook(kgdbcon_write);
	if (ekdb_opts.kgdbwait) {
		pr_notice("kgdb: Waiting for connection from remote gdb...\n");
		kgdb_breakpoint();
	}
}
