/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runtime.c - the debugger's module parameters in the running system, as
 * Linux has them under /sys/module: kgdboc (the debugger's I/O: show,
 * configure, switch, unconfigure; Linux's drivers/tty/serial/kgdboc.c
 * param_set_kgdboc_var + configure_kgdboc) and kdb's cmd_enable (the
 * command mask, an int).  The kernel's pseudo-files call these from
 * process context.
 *
 * One deliberate difference: Linux unconfigures the old I/O before it
 * tries the new value, so a bad value leaves kgdboc unconfigured; here a
 * bad value is refused with Linux's error and changes nothing.
 */
#include "late.h"
#include "../opts.h"
#include <asm/processor.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <ekdb/kdb.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>
#include <ekdb/log.h>

#define KGDBOC_MAX_CONFIG_LEN	40	/* Linux's MAX_CONFIG_LEN */
#define KGDBOC_MAX_DEVS		2	/* kbd and one serial line: kms is not a transport */

static const struct ekdb_io_driver *io_drivers[EKDB_IO_DRIVERS_MAX];
static int (*display_set)(bool on);
static char config[KGDBOC_MAX_CONFIG_LEN];	/* what `cat .../kgdboc` shows */
static bool config_set;				/* config[] is the value in force */

int ekdb_register_io_driver(const struct ekdb_io_driver *drv)
{
	if (!drv || !drv->find || !drv->kind)
		return -EKDB_EINVAL;
	for (unsigned i = 0; i < ARRAY_SIZE(io_drivers); i++) {
		if (io_drivers[i] == drv)
			return 0;
		if (!io_drivers[i]) {
			io_drivers[i] = drv;
			return 0;
		}
	}
	pr_err("kgdboc: no room for the %s driver (%u)\n", drv->name, EKDB_IO_DRIVERS_MAX);
	return -EKDB_ENOSPC;
}

/* The instance of @kind's line @line from the first registered driver that has it. */
static struct ekdb_transport *io_driver_find(enum ekdb_transport_kind kind, int line, u32 baud)
{
	struct ekdb_transport *t;

	for (unsigned i = 0; i < ARRAY_SIZE(io_drivers) && io_drivers[i]; i++)
		if (io_drivers[i]->kind == kind && (t = io_drivers[i]->find(line, baud)))
			return t;
	return NULL;
}

void ekdb_set_display_fn(int (*fn)(bool on))
{
	display_set = fn;
}

/*
 * kgdboc's kms word (Linux's kgdboc_use_kms): the display driver gives the
 * debugger its hooks (its own page while kdb runs, the kernel's picture
 * back on leave) or takes them back.  No kms display is not an error
 * (Linux accepts kms,kbd without one): kdb then shows on the console as
 * it is.
 */
static void set_display(bool on)
{
	if (display_set && display_set(on) && on)
		pr_warn("kgdboc: kms: no kms display: kdb shows on the console as it is\n");
}

bool ekdb_io_registered(void)
{
	return ekdb_enabled() && dbg_transport_count() > 0;
}

size_t ekdb_kgdboc_get(char *buf, size_t len)
{
	/* until it is written, the boot's kgdboc= (Linux: the parameter as given) */
	const char *v = config_set ? config : ekdb_opts.kgdboc;

	return strlcpy(buf, v, len);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool in_set(struct ekdb_transport *t, struct ekdb_transport *const *set, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (set[i] == t)
			return true;
	return false;
}

/*
 * The debugger's transports become exactly @want[0..n): the ones it keeps
 * stay (their state untouched), the others are retired (deinit), the new
 * ones start (init).  Interrupts off meanwhile: no break-in sees half.
 */
static void set_transports(struct ekdb_transport *const *want, unsigned n)
{
	struct ekdb_transport *gone[8];
	unsigned ngone = 0;
	u64 flags = local_irq_save();

	for (unsigned i = 0; i < n; i++) {
		struct ekdb_transport *old = dbg_transport_find(want[i]->name);

		if (old == want[i])
			continue;
		/* the early polled transport of that device: the driver takes over */
		if (!(old ? dbg_transport_takeover(old, want[i]) : dbg_transport_register(want[i])) &&
		    want[i]->init)
			want[i]->init(want[i]);
	}
	for (unsigned i = 0; dbg_transport_at(i) || i < 8; i++) {
		struct ekdb_transport *t = dbg_transport_at(i);

		if (t && !in_set(t, want, n) && ngone < ARRAY_SIZE(gone))
			gone[ngone++] = t;
	}
	for (unsigned i = 0; i < ngone; i++) {
		dbg_transport_unregister(gone[i]);
		if (gone[i]->deinit)
			gone[i]->deinit(gone[i]);
	}
	local_irq_restore(flags);
}

static int unconfigure(void)
{
	bool had = dbg_transport_count() > 0;

	set_transports(NULL, 0);
	set_display(false);
	late.have_kgdboc = false;
	memset(&late.kgdboc, 0, sizeof(late.kgdboc));
	if (had)
		pr_info("kgdb: Unregistered I/O driver kgdboc, debugger disabled\n");
	return 0;
}

int ekdb_kgdboc_set(const char *val)
{
	struct ekdb_transport *want[KGDBOC_MAX_DEVS];
	char cfgstr[KGDBOC_MAX_CONFIG_LEN], names[24];
	struct kgdboc_cfg cfg;
	size_t len = val ? strlen(val) : 0;
	unsigned n = 0;
	int err;

	if (len >= sizeof(cfgstr)) {
		pr_err("kgdboc: config string too long\n");
		return -EKDB_ENOSPC;
	}
	if (dbg_frontend_gdb_attached()) {
		pr_err("kgdboc: Cannot reconfigure while KGDB is connected.\n");
		return -EKDB_EBUSY;
	}
	memcpy(cfgstr, val ? val : "", len + 1);
	if (len && cfgstr[len - 1] == '\n')	/* as echo writes it */
		cfgstr[--len] = '\0';
	if (!late.done || late.off || ekdb_opts.bad)
		return -EKDB_ENODEV;	/* off for good (fail closed): nothing to configure */
	if (!len || is_space(cfgstr[0])) {
		err = unconfigure();
		goto set;
	}
	/* Linux: a device no tty driver polls is -ENODEV; so is any malformed word */
	if (kgdboc_parse(cfgstr, &cfg) || (cfg.serial && cfg.line < 0))
		return -EKDB_ENODEV;
	if (cfg.kbd && !(want[n++] = io_driver_find(EKDB_TRANSPORT_KBD, -1, 0)))
		return -EKDB_ENODEV;
	/* a baud rate given is set, even on a line already open; none keeps the line's */
	if (cfg.serial && !(want[n++] = io_driver_find(EKDB_TRANSPORT_SERIAL, cfg.line,
						      cfg.baud_given ? cfg.baud : 0)))
		return -EKDB_ENODEV;
	if (!n)
		return -EKDB_ENODEV;	/* "kms" alone names no input: Linux's -ENODEV too */
	err = late_start_debugger();
	if (err)
		return err;
	set_transports(want, n);
	set_display(cfg.kms);
	late.kgdboc = cfg;
	late.have_kgdboc = true;
	names[0] = '\0';
	for (unsigned i = 0; i < n; i++)
		ekdb_snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			      i ? "," : "", want[i]->name);
	pr_info("kgdb: Registered I/O driver kgdboc (%s%s%s)\n", cfg.kms ? "kms" : "",
		cfg.kms && n ? "," : "", names);
set:
	strlcpy(config, cfgstr, sizeof(config));
	config_set = true;
	return err;
}

int ekdb_cmd_enable_get(void)
{
	struct gdb_session *g;
	struct kdb_session *k;

	dbg_frontend_sessions(&g, &k);
	return (int)(k ? k->cmd_enable : ekdb_opts.cmd_enable);
}

int ekdb_cmd_enable_set(const char *val)
{
	int v, err = kdb_parse_cmd_enable_int(val, &v);

	if (err)
		return err;
	ekdb_opts.cmd_enable = (u32)v;		/* a session started later gets it too */
	dbg_frontend_set_cmd_enable((u32)v);
	return 0;
}
