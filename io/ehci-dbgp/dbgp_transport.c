/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dbgp_transport.c - the early driver of the one USB debug device: the
 * early console (earlyprintk=dbgp[N][,keep]) and the debugger transport
 * (kgdbdbgp=N[,secs]), sharing the port the way both share a serial line.
 * The byte handling is dbgp_chan.c's, on a static instance.
 *
 * At the handoff the running kernel's driver (kernel-glue/drivers/
 * ehci_dbgp.c) takes the device over: export_state gives it the device's
 * state and unread bytes, deinit retires this driver (and its console:
 * the successor writes the log from then on).  Static storage only.
 */
#include "ehci_dbgp.h"
#include "dbgp.h"
#include "dbgp_chan.h"
#include "dbgp_pci.h"
#include <ekdb/log.h>
#include <ekdb/port.h>
#include <asm/processor.h>
#include <asm/tsc_early.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>

static struct dbgp_chan chan;
static int dbgp_index = -1;
static int dbgp_init_err;
static bool console_keep;
static bool handed_over;		/* the running kernel's driver has the device */

/* ------------------------------------------------------------ transport */
static int dbgp_t_getc(struct ekdb_transport *t)
{
	return dbgp_chan_getc(&chan);
}

static void dbgp_t_putc(struct ekdb_transport *t, u8 c)
{
	dbgp_chan_putc(&chan, c);
}

static void dbgp_t_flush(struct ekdb_transport *t)
{
	dbgp_chan_flush(&chan);
}

static void dbgp_t_pre(struct ekdb_transport *t)
{
	dbgp_chan_pre(&chan);
}

static void dbgp_t_post(struct ekdb_transport *t)
{
	dbgp_chan_post(&chan);
}

static struct ekdb_console dbgp_console;

/*
 * For the successor: everything queued goes out first, then the device's
 * state and the unread bytes.  Nothing changes here until deinit (if the
 * successor refuses, this driver goes on).
 */
static void dbgp_t_export(struct ekdb_transport *t, struct ekdb_transport_state *st)
{
	bool locked = dbgp_chan_lock(&chan);

	dbgp_chan_flush_locked(&chan);
	dbgp_state_export(&chan.dev.st, st);
	st->u.dbgp.poll_secs = (u16)chan.poll_secs;
	st->u.dbgp.console = dbgp_console.enabled;
	st->u.dbgp.keep = console_keep;
	if (locked)
		dbgp_chan_unlock(&chan);
}

/* The successor took over: this driver never touches the device again. */
static void dbgp_t_deinit(struct ekdb_transport *t)
{
	if (dbgp_chan_lock(&chan)) {
		chan.ready = false;
		chan.dev.st.pending_len = chan.dev.st.pending_pos = 0;
		dbgp_chan_unlock(&chan);
	} else {
		chan.ready = false;
	}
	handed_over = true;
	if (dbgp_console.enabled) {
		ekdb_console_unregister(&dbgp_console);
		dbgp_console.enabled = false;
	}
}

static char dbgp_name[8] = "dbgp0";

static struct ekdb_transport dbgp_transport = {
	.name = dbgp_name,
	.kind = EKDB_TRANSPORT_DBGP,
	.getc = dbgp_t_getc,
	.quiet_polls = DBGP_QUIET_POLLS,
	.putc = dbgp_t_putc,
	.flush = dbgp_t_flush,
	.pre_exception = dbgp_t_pre,
	.post_exception = dbgp_t_post,
	.export_state = dbgp_t_export,
	.deinit = dbgp_t_deinit,
};

/* ------------------------------------------------------------ console */
static void dbgp_console_write(struct ekdb_console *con, const char *s, size_t len)
{
	dbgp_chan_console_write(&chan, s, len);
}

static struct ekdb_console dbgp_console = {
	.name = "earlydbg",
	.write = dbgp_console_write,
	.replay = true,
};

/* ------------------------------------------------------------ bring-up */
static int dbgp_setup(unsigned index)
{
	unsigned n_ehci, n_dbgp;
	bool reused;
	u32 hcs;
	int cap, r;
	u64 t0;

	if (handed_over)
		return -EKDB_EBUSY;
	if (dbgp_index >= 0)
		return (unsigned)dbgp_index == index ? dbgp_init_err : -EKDB_EBUSY;
	dbgp_index = (int)index;
	dbgp_name[4] = (char)('0' + index % 10);
	early_tsc_khz();			/* calibrate the clock first (PIT, ~30 ms) */
	t0 = early_now_us();
	cap = dbgp_pci_find(index, &chan.dev.st, &n_ehci, &n_dbgp);
	if (cap < 0) {
		pr_err("dbgp: no EHCI debug port %u (%u EHCI controller%s, %u with a debug port)\n",
		       index, n_ehci, n_ehci == 1 ? "" : "s", n_dbgp);
		return dbgp_init_err = cap;
	}
	r = dbgp_pci_setup(&chan.dev.st, (u8)cap);
	if (!r) {
		chan.dev.io = dbgp_pci_io(chan.dev.st.bar_phys);
		r = chan.dev.io ? 0 : -EKDB_EFAULT;
	}
	if (r) {
		pr_err("dbgp: EHCI %02x:%02x.%u: registers not reachable (%s)\n", chan.dev.st.bus,
		       chan.dev.st.slot, chan.dev.st.func, ekdb_strerror(r));
		return dbgp_init_err = r;
	}
	chan.dev.st.op_off = chan.dev.io->read(chan.dev.io, EHCI_CAPLENGTH) & 0xff;
	hcs = chan.dev.io->read(chan.dev.io, EHCI_HCSPARAMS);
	chan.dev.st.port = (u8)HCS_DEBUG_PORT(hcs);
	if (!chan.dev.st.port || chan.dev.st.port > HCS_N_PORTS(hcs)) {
		pr_err("dbgp: EHCI %02x:%02x.%u: no debug port number in HCSPARAMS\n",
		       chan.dev.st.bus, chan.dev.st.slot, chan.dev.st.func);
		return dbgp_init_err = -EKDB_ENODEV;
	}
	dbgp_pci_handoff(&chan.dev.st, chan.dev.io->read(chan.dev.io, EHCI_HCCPARAMS));
	r = dbgp_bring_up(&chan.dev, &reused);
	if (r) {
		pr_err("dbgp: EHCI %02x:%02x.%u port %u: %s: %s\n", chan.dev.st.bus, chan.dev.st.slot,
		       chan.dev.st.func, chan.dev.st.port,
		       r == -EKDB_ENODEV ? "no debug device" : "debug device does not respond",
		       ekdb_strerror(r));
		return dbgp_init_err = r;
	}
	chan.dev.st.magic = DBGP_STATE_MAGIC;
	chan.ready = true;
	pr_info("dbgp: EHCI %02x:%02x.%u debug port %u: debug device at %u (in ep %u, out ep %u)%s, bring-up %llu us\n",
		chan.dev.st.bus, chan.dev.st.slot, chan.dev.st.func, chan.dev.st.port, chan.dev.st.devnum,
		chan.dev.st.ep_in, chan.dev.st.ep_out, reused ? ", already set up: reused" : "",
		(unsigned long long)(early_now_us() - t0));
	return 0;
}

int early_dbgp_console_init(const char *opt, bool keep)
{
	unsigned index = 0;
	const char *p = opt + 4;
	int r;

	if (strncmp(opt, "dbgp", 4))
		return -EKDB_EINVAL;
	if (*p) {
		if (*p < '0' || *p > '9' || p[1])
			return -EKDB_EINVAL;
		index = (unsigned)(*p - '0');
	}
	r = dbgp_setup(index);
	if (r)
		return r;
	console_keep = keep;
	if (dbgp_console.enabled)
		return -EKDB_EBUSY;
	return ekdb_console_register(&dbgp_console) ? -EKDB_ENOSPC : 0;
}

struct ekdb_transport *dbgp_transport_init(unsigned index, unsigned secs, int *err)
{
	*err = dbgp_setup(index);
	if (*err)
		return NULL;
	chan.poll_secs = secs;
	chan.poll_at = early_now_us() + secs * 1000000ULL;
	return &dbgp_transport;
}

/* ------------------------------------------------------------ handoff */
struct ekdb_transport *early_dbgp_transport(void)
{
	return chan.ready && !handed_over ? &dbgp_transport : NULL;
}
