/* SPDX-License-Identifier: GPL-2.0 */
/*
 * takeover.c - the takeover (the third move, after the loader handoff,
 * core/handoff.c, and the late init, init.c):
 * which devices the debugger wants from the running kernel's drivers
 * (kgdboc=, and whatever the early debugger already uses), and the
 * takeover of an early transport by the driver of the same device
 * (ekdb_register_io()).  Drivers that register before the
 * handoff are queued and taken over by it, so its one log line says
 * what moved where.
 */
#include "late.h"
#include "../opts.h"
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>
#include <ekdb/log.h>

#define LATE_PENDING_MAX 8

static struct ekdb_transport *pending[LATE_PENDING_MAX];
static char moved[96];		/* "ttyS0 -> kgdboc ttyS0 (irq 4)", for the handoff line */
static size_t moved_len;
static bool waited;		/* kgdbwait served (early, or at the first late transport) */

bool ekdb_io_wanted(const char *name)
{
	if (!name || late.off || ekdb_opts.bad)
		return false;
	if (late.have_kgdboc || (!late.done && ekdb_opts.kgdboc[0])) {
		struct kgdboc_cfg cfg;

		if (late.have_kgdboc)
			cfg = late.kgdboc;
		else if (kgdboc_parse(ekdb_opts.kgdboc, &cfg))
			return false;
		if (kgdboc_names(&cfg, name))
			return true;
	}
	if (dbg_transport_find(name))
		return true;		/* the early debugger's device: its driver takes over */
	/* ekgdboc=kbd drew on the screen: the display driver takes that over too */
	return !strcmp(name, "kms") && dbg_transport_find("kbd") != NULL;
}

bool ekdb_io_wanted_dev(const char *dev)
{
	if (!dev || late.off || ekdb_opts.bad)
		return false;
	return dbg_transport_find_dev(dev) != NULL;
}

static void note_move(const char *fmt, const char *a, const char *b, int irq)
{
	int n;

	if (moved_len >= sizeof(moved) - 1)
		return;
	n = ekdb_snprintf(moved + moved_len, sizeof(moved) - moved_len, "%s%s -> %s%s",
			  moved_len ? ", " : "", a, fmt, b);
	if (n > 0)
		moved_len += (size_t)n;
	if (irq > 0 && moved_len < sizeof(moved) - 1) {
		n = ekdb_snprintf(moved + moved_len, sizeof(moved) - moved_len, " (irq %d)", irq);
		if (n > 0)
			moved_len += (size_t)n;
	}
	if (moved_len >= sizeof(moved))
		moved_len = sizeof(moved) - 1;
}

void late_io_describe(char *buf, size_t len)
{
	unsigned n = 0;

	if (moved_len) {
		strlcpy(buf, moved, len);
		return;
	}
	for (unsigned i = 0; dbg_transport_at(i) || i < 8; i++)
		n += dbg_transport_at(i) != NULL;
	ekdb_snprintf(buf, len, n ? "%u early transport(s) kept polled" : "no transport yet", n);
}

static void serve_kgdbwait(void)
{
	if (waited || !ekdb_opts.kgdbwait || !ekdb_enabled() || !dbg_transport_count())
		return;
	waited = true;
	pr_notice("kgdb: Waiting for connection from remote gdb...\n");
	kgdb_breakpoint();
}

static int do_register(struct ekdb_transport *t)
{
	struct ekdb_transport *old = dbg_transport_find(t->name);
	int err;

	if (!old && t->dev)
		old = dbg_transport_find_dev(t->dev);	/* "uart0" early, "ttyS4" now */

	if (old == t)
		return -EKDB_EEXIST;
	if (old) {
		err = dbg_transport_takeover(old, t);
		if (err) {
			pr_err("kgdb: %s: the driver could not take over the early transport (%s): "
			       "the early one stays\n", t->name, ekdb_strerror(err));
			return err;
		}
		note_move(late.have_kgdboc && kgdboc_names(&late.kgdboc, t->name) ? "kgdboc " : "",
			  old->name, t->name, t->irq);
	} else {
		err = dbg_transport_register(t);
		if (err) {
			pr_err("kgdb: %s: cannot register (%s)\n", t->name, ekdb_strerror(err));
			return err;
		}
		note_move("kgdboc ", "", t->name, t->irq);
	}
	if (late.early_released)
		pr_info("kgdb: Registered I/O driver kgdboc (%s)\n", t->name);
	return 0;
}

int ekdb_register_io(struct ekdb_transport *t)
{
	if (!t || !t->name || !t->getc || !t->putc)
		return -EKDB_EINVAL;
	if (!ekdb_io_wanted(t->name))
		return -EKDB_ENODEV;
	if (!late.done) {
		for (unsigned i = 0; i < LATE_PENDING_MAX; i++) {
			if (pending[i] == t)
				return -EKDB_EEXIST;
			if (!pending[i]) {
				pending[i] = t;
				return 0;
			}
		}
		return -EKDB_ENOSPC;
	}
	if (late.off)
		return -EKDB_ENODEV;
	moved_len = 0;
	if (do_register(t))
		return -EKDB_EIO;
	serve_kgdbwait();
	return 0;
}

int ekdb_unregister_io(struct ekdb_transport *t)
{
	for (unsigned i = 0; i < LATE_PENDING_MAX; i++)
		if (pending[i] == t) {
			pending[i] = NULL;
			return 0;
		}
	if (!t || dbg_transport_find(t->name) != t)
		return -EKDB_ENOENT;
	dbg_transport_unregister(t);
	return 0;
}

/* At the handoff: the drivers that asked before it take over now. */
void late_io_pending_register(void)
{
	for (unsigned i = 0; i < LATE_PENDING_MAX; i++) {
		struct ekdb_transport *t = pending[i];

		pending[i] = NULL;
		if (t && !late.off)
			do_register(t);
	}
	if (late.have_kgdboc && late.kgdboc.serial && ekdb_opts.ekgdboc[0] &&
	    !strncmp(ekdb_opts.ekgdboc, "ttyS", 4) && late.kgdboc.line >= 0 &&
	    ekdb_opts.ekgdboc[4] != (char)('0' + late.kgdboc.line))
		pr_warn("kgdb: ekgdboc=%s and kgdboc=%s name different lines: the debugger keeps both\n",
			ekdb_opts.ekgdboc, ekdb_opts.kgdboc);
}

/* After the handoff line: kgdbwait with kgdboc= only waits at the first transport. */
void late_io_after_handoff(bool early_served)
{
	waited |= early_served;
	if (ekdb_opts.kgdbwait && ekdb_enabled() && !dbg_transport_count() && !waited)
		pr_notice("kgdb: kgdbwait: waiting for the first kgdboc= driver\n");
	serve_kgdbwait();
}
