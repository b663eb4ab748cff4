/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhci_dbc.c - the running kernel's driver of the xHCI Debug Capability:
 * it takes the DbC over from the early driver (io/xhci-dbc) without
 * the far host enumerating it again, on DMA memory of its own (the early
 * static block is left behind: io/xhci-dbc/xdbc_takeover.c), carries
 * the debugger (kgdbxdbc=) and the console (earlyprintk=xdbcN,keep) from
 * then on, and keeps them going while the xHCI driver (xhci_hcd.c) resets
 * the controller.
 *
 *  - The controller is found with the kernel's PCI access (pci.c), its
 *    registers reached with ioremap(); the byte handling is the early
 *    driver's code (xdbc_dev.c) on an instance of this driver.
 *  - The takeover: with kgdbxdbc= the debugger's handoff does it
 *    (ekdb_register_io(): export_state of the early transport, import
 *    here, the early one retired); with only earlyprintk=xdbc,keep this
 *    driver does the same steps itself.  Without ",keep" the early console
 *    stops at the handoff, as in Linux, and a DbC nobody else uses is
 *    turned off (DCE 0: its port goes back to the xHC).
 *  - Around the xHCI driver's reset (xdbc_reset_prep/_external_startup):
 *    output is held, nothing read; after HCRST (which resets the DbC) the
 *    DbC is enabled again on this driver's block, the unread bytes kept.
 *    A debugger entered in between brings the DbC up itself.
 */
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/pci.h>
#include <kernel/printk.h>
#include <asm/processor.h>
#include <asm/tsc_early.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/kdb.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>
#include "../../io/xhci-dbc/xhci_dbc.h"
#include "xhci_dbc.h"
#include <kernel/drivers.h>

#define MEM_ORDER		2	/* 16 KiB of pages for struct xdbc_mem (12 KiB) */
#define FIFO_LEN		(2 * XDBC_SLOTS * XDBC_MAXP)
#define HOLD_LEN		1024
#define POISON			0xa5

_Static_assert(sizeof(struct xdbc_mem) <= (4096u << MEM_ORDER), "MEM_ORDER too small");

static struct {
	struct xdbc_dev dev;
	struct xdbc_legacy lg;
	struct xdbc_io io;
	volatile u8 *regs;		/* the DbC's registers */
	u32 bdf;
	u64 bar;
	u32 dbc_off;
	struct xdbc_mem *mem;
	bool found, taken, debugger, keep, quiesced, in_debugger, poison;
	bool console_stopped, released_noted;
	struct xdbc_mem *old_mem;	/* the early driver's block, until the controller left it */
	u64 old_phys;
	u16 poll_secs;
	u64 poll_at;
	int lock_word;
	u8 held[HOLD_LEN];
	unsigned held_len;
	unsigned long held_dropped, hc_resets, reenabled, kept;
	char name[8];
	struct ekdb_transport transport;
	struct ekdb_console console;
} lx;

/* ---------------------------------------------------------------- registers */
static __ekdb_nobp u32 lx_read(struct xdbc_io *io, u32 off)
{
	return *(volatile u32 *)(lx.regs + off);
}

static __ekdb_nobp void lx_write(struct xdbc_io *io, u32 off, u32 val)
{
	*(volatile u32 *)(lx.regs + off) = val;
}

static __ekdb_nobp u64 lx_now(struct xdbc_io *io)
{
	return early_now_us();		/* the TSC, calibrated when the DbC came up */
}

static __ekdb_nobp bool lx_lock(void)
{
	return __atomic_exchange_n(&lx.lock_word, 1, __ATOMIC_ACQUIRE) == 0;
}

static __ekdb_nobp void lx_unlock(void)
{
	__atomic_store_n(&lx.lock_word, 0, __ATOMIC_RELEASE);
}

/* The controller the early driver used: BAR0 as programmed (never re-sized: the DbC is live). */
static u32 bar_rd(void *base, u32 off)
{
	return *(volatile u32 *)((volatile u8 *)base + off);
}

static int map_controller(u32 bdf)
{
	u32 off;
	volatile u8 *base;

	lx.bar = pci_bar_address(bdf, 0);
	if (!lx.bar)
		return -EKDB_ENODEV;
	base = ioremap(lx.bar, XHCI_MAP_LEN);
	if (!base)
		return -EKDB_EFAULT;
	off = xhci_ext_cap(bar_rd, (void *)base, XHCI_MAP_LEN - DBC_REGS_LEN, XHCI_EXT_DBC);
	if (!off)
		return -EKDB_ENODEV;
	lx.dbc_off = off;
	lx.regs = base + off;
	lx.bdf = bdf;
	lx.io = (struct xdbc_io){ .read = lx_read, .write = lx_write, .now_us = lx_now };
	lx.found = true;
	return 0;
}

/* ---------------------------------------------------------------- the old block */
/*
 * The controller left the early driver's block (or a reset voided it):
 * nothing reads it any more.  With ekdb.debug_early=unmap it is poisoned,
 * so a stray DMA read would show (the model reports TRB errors).
 */
static __ekdb_nobp void old_block_done(void)
{
	if (!lx.old_mem)
		return;
	if (lx.poison)
		memset(lx.old_mem, POISON, sizeof(*lx.old_mem));
	lx.old_mem = NULL;
}

static __ekdb_nobp void check_legacy(void)
{
	if (xdbc_legacy_done(&lx.dev, &lx.lg) || (lx.lg.released && lx.old_mem))
		old_block_done();
}

/* DCE found clear (a controller reset): enable the DbC again, the unread bytes kept. */
static __ekdb_nobp int restart(u64 wait_us)
{
	xdbc_keep_unread(&lx.dev, &lx.lg);
	xdbc_legacy_drop(&lx.lg);
	old_block_done();
	lx.dev.foreign = NULL;
	lx.reenabled++;
	return xdbc_start(&lx.dev, wait_us);
}

/* ---------------------------------------------------------------- transport */
static __ekdb_nobp int lx_getc(struct ekdb_transport *t)
{
	int ch;

	if (!lx.taken)
		return EKDB_NO_CHAR;
	if (!lx.in_debugger) {
		if (lx.quiesced || !lx.poll_secs || early_now_us() < lx.poll_at)
			return EKDB_NO_CHAR;
		lx.poll_at = early_now_us() + lx.poll_secs * 1000000ULL;
	}
	if (!lx_lock())
		return EKDB_NO_CHAR;
	if (!lx.dev.enabled)
		restart(0);	/* xdbc_poll found DCE clear: something reset the controller */
	xdbc_flush(&lx.dev);
	xdbc_poll(&lx.dev);
	ch = xdbc_legacy_getc(&lx.lg);
	/* the new ring's bytes come after every old IN TRB's */
	if (ch == EKDB_NO_CHAR && lx.lg.in_deq == lx.lg.in_enq)
		ch = xdbc_getc(&lx.dev);
	if (ch == EKDB_NO_CHAR)
		xdbc_idle(&lx.dev);	/* the register writes put off (DCERDP, IN doorbell) */
	check_legacy();
	lx_unlock();
	return ch;
}

static __ekdb_nobp void lx_putc(struct ekdb_transport *t, u8 c)
{
	if (!lx.taken || !lx_lock())
		return;
	if (lx.quiesced && !lx.in_debugger) {
		if (lx.held_len < HOLD_LEN)
			lx.held[lx.held_len++] = c;
		else
			lx.held_dropped++;
	} else {
		xdbc_putc(&lx.dev, c);
	}
	lx_unlock();
}

static __ekdb_nobp void lx_flush(struct ekdb_transport *t)
{
	if (!lx.taken || (lx.quiesced && !lx.in_debugger) || !lx_lock())
		return;
	xdbc_flush(&lx.dev);
	xdbc_poll(&lx.dev);
	check_legacy();
	lx_unlock();
}

static __ekdb_nobp void lx_pre(struct ekdb_transport *t)
{
	lx.in_debugger = true;
	if (!lx.taken || !lx_lock())
		return;
	/*
	 * Stopped inside the xHCI driver's reset, or after something else
	 * reset the controller: the debugger needs the DbC before its first
	 * byte (a stop reply written into a reset DbC would be lost).
	 */
	if (!(lx_read(&lx.io, DBC_DCCTRL) & DCCTRL_DCE))
		restart(XDBC_CONFIGURE_US);
	lx_unlock();
}

static __ekdb_nobp void lx_post(struct ekdb_transport *t)
{
	lx_flush(t);
	lx.in_debugger = false;
	lx.poll_at = early_now_us() + lx.poll_secs * 1000000ULL;
}

static __ekdb_nobp void lx_console_write(struct ekdb_console *con, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			lx_putc(&lx.transport, '\r');
		lx_putc(&lx.transport, (u8)s[i]);
	}
	lx_flush(&lx.transport);
}

/*
 * From the early driver of the same DbC: its state, checked against the
 * registers found here; the rings move to this driver's block.  Interrupts
 * are off and only this CPU runs; nothing is printed here (the early
 * console is still registered until the early driver's deinit).
 */
static __ekdb_nobp int lx_import(struct ekdb_transport *t, const struct ekdb_transport_state *st)
{
	int r;

	if (!lx.found || !lx.mem || !lx.lg.fifo)
		return -EKDB_ENODEV;
	r = xdbc_state_check(st, lx.bar + lx.dbc_off);
	if (r)
		return r;
	lx.dev.io = &lx.io;
	lx.dev.mem = lx.mem;
	lx.dev.mem_phys = __pa(lx.mem);
	lx.old_mem = st->u.xdbc.mem;
	lx.old_phys = st->u.xdbc.mem_phys;
	xdbc_adopt(&lx.dev, &lx.lg, st);
	lx.poll_secs = st->u.xdbc.poll_secs;
	lx.poll_at = early_now_us() + lx.poll_secs * 1000000ULL;
	lx.keep = st->u.xdbc.keep;
	lx.taken = true;
	if (st->u.xdbc.console && lx.keep)
		register_console(&lx.console);	/* no replay: the log is out already */
	else if (st->u.xdbc.console)
		lx.console_stopped = true;
	return 0;
}

/* ---------------------------------------------------------------- kdb */
static int kdb_xdbc(struct kdb_session *s, int argc, const char **argv)
{
	struct xdbc_dev *d = &lx.dev;

	if (argc)
		return kdb_printf(s, "usage: xdbc\n"), 0;
	if (!lx.taken)
		return kdb_printf(s, "no DbC taken over\n"), 0;
	kdb_printf(s, "%s: xHCI %02x:%02x.%u DbC at 0x%llx, port %u, %s%s%s%s\n", lx.name,
		   lx.bdf >> 8, (lx.bdf >> 3) & 0x1f, lx.bdf & 7,
		   (unsigned long long)(lx.bar + lx.dbc_off), d->port,
		   d->configured ? "configured" : d->enabled ? "enabled, no debug host" : "disabled",
		   lx.debugger ? ", debugger" : "", lx.console.enabled ? ", console" : "",
		   lx.keep ? " (keep)" : "");
	kdb_printf(s, "rings at 0x%llx; early block %s; carried %lu bytes, %lu old events\n",
		   (unsigned long long)d->mem_phys,
		   lx.lg.mem ? "still in use (TRBs the controller owns)" : "no longer used",
		   lx.lg.carried, lx.lg.events);
	kdb_printf(s, "xHCI resets survived %lu (DbC enabled again %lu, kept %lu), output held and "
		   "dropped %lu, stalls %lu, lost %lu, dropped %lu\n", lx.hc_resets, lx.reenabled,
		   lx.kept, lx.held_dropped, d->stalls, d->lost + lx.lg.lost, d->dropped);
	return 0;
}

static const struct kdb_cmd xdbc_cmd = {
	.name = "xdbc",
	.fn = kdb_xdbc,
	.usage = "",
	.help = "Show the xHCI Debug Capability's state and counters",
	.flags = KDB_ENABLE_INSPECT,
};

/* ---------------------------------------------------------------- takeover */
void xhci_dbc_init(void)
{
	struct ekdb_transport *old = early_xdbc_transport();
	struct ekdb_transport_state st;
	const char *dbg = cmdline_get("ekdb.debug_early");
	u64 flags;
	int r;

	if (!old || !old->export_state)
		return;
	memset(&st, 0, sizeof(st));
	old->export_state(old, &st);		/* where the DbC is (nothing changes yet) */
	strlcpy(lx.name, old->name, sizeof(lx.name));
	r = map_controller(st.u.xdbc.pci_bdf);
	if (r) {
		pr_err("xdbc: xHCI at %02x:%02x.%u not reachable (%s): the early driver keeps the DbC\n",
		       st.u.xdbc.pci_bdf >> 8, (st.u.xdbc.pci_bdf >> 3) & 0x1f,
		       st.u.xdbc.pci_bdf & 7, ekdb_strerror(r));
		return;
	}
	lx.poison = dbg && !strcmp(dbg, "unmap");
	lx.transport = (struct ekdb_transport){
		.name = lx.name,
		.kind = EKDB_TRANSPORT_XDBC,
		.getc = lx_getc,
		.quiet_polls = XDBC_QUIET_POLLS,
		.putc = lx_putc,
		.flush = lx_flush,
		.pre_exception = lx_pre,
		.post_exception = lx_post,
		.import_state = lx_import,
	};
	lx.console = (struct ekdb_console){ .name = "xdbc", .write = lx_console_write };
	if (!ekdb_io_wanted(lx.name) && !st.u.xdbc.keep) {
		/* only the console without ",keep": it stops, and the DbC is let go (Linux) */
		if (st.u.xdbc.console)		/* its last line, on the DbC itself */
			pr_info("xdbc: the early console on %s stops at the handoff (earlyprintk=%s,keep "
				"keeps it): DbC turned off\n", lx.name, lx.name);
		flags = local_irq_save();
		old->deinit(old);
		lx_write(&lx.io, DBC_DCCTRL, 0);
		local_irq_restore(flags);
		return;
	}
	lx.mem = alloc_pages(MEM_ORDER);
	lx.lg.fifo = kmalloc(FIFO_LEN);
	lx.lg.fifo_cap = FIFO_LEN;
	if (!lx.mem || !lx.lg.fifo) {
		pr_err("xdbc: %s: no memory for the DbC's rings: the early driver keeps it\n", lx.name);
		return;
	}
	memset(lx.mem, 0, sizeof(*lx.mem));
	kdb_register(&xdbc_cmd);
	if (ekdb_io_wanted(lx.name)) {
		/* the debugger's device: its handoff moves it (queued until then) */
		r = ekdb_register_io(&lx.transport);
		if (r)
			pr_err("xdbc: %s: the debugger did not take the late driver (%s)\n", lx.name,
			       ekdb_strerror(r));
		else
			lx.debugger = true;
		return;
	}
	/* only the console, with ",keep": the same steps as the debugger's takeover */
	memset(&st, 0, sizeof(st));
	flags = local_irq_save();
	old->export_state(old, &st);
	r = lx_import(&lx.transport, &st);
	if (!r)
		old->deinit(old);
	local_irq_restore(flags);
	if (r)
		pr_err("xdbc: %s: cannot take the DbC over (%s): the early driver keeps it\n",
		       lx.name, ekdb_strerror(r));
	else
		xhci_dbc_handoff_done();
}

void xhci_dbc_handoff_done(void)
{
	if (!lx.taken || lx.released_noted)
		return;
	lx.released_noted = true;
	pr_info("xdbc: %s: DbC taken over from the early driver (port %u, not enumerated again), "
		"rings at 0x%llx; the early block at 0x%llx is left once the controller has "
		"passed its TRBs there%s\n", lx.name, lx.dev.port,
		(unsigned long long)lx.dev.mem_phys, (unsigned long long)lx.old_phys,
		lx.poison ? " (then poisoned: ekdb.debug_early=unmap)" : "");
	if (lx.console_stopped)
		pr_info("xdbc: the early console on %s stopped at the handoff (earlyprintk=%s,keep "
			"keeps it)\n", lx.name, lx.name);
}

/* ---------------------------------------------------------------- xHCI reset */
int xdbc_reset_prep(u32 bdf)
{
	u64 t0;

	if (!lx.taken || bdf != lx.bdf || (!lx.debugger && !lx.console.enabled))
		return 0;
	if (lx_lock()) {
		xdbc_flush(&lx.dev);
		for (t0 = early_now_us(); lx.dev.configured && lx.dev.out.deq != lx.dev.out.enq &&
		     early_now_us() - t0 < XDBC_OUT_US;)
			xdbc_poll(&lx.dev);
		lx.quiesced = true;
		lx_unlock();
	} else {
		lx.quiesced = true;
	}
	return 1;
}

int xdbc_external_startup(u32 bdf)
{
	bool kept;
	int r = 0;

	if (!lx.taken || bdf != lx.bdf || !lx.quiesced)
		return -EKDB_ENODEV;
	if (!lx_lock())
		return -EKDB_EBUSY;
	kept = lx_read(&lx.io, DBC_DCCTRL) & DCCTRL_DCE;
	if (kept)
		lx.kept++;
	else
		r = restart(XDBC_CONFIGURE_US);
	lx.quiesced = false;
	for (unsigned i = 0; i < lx.held_len; i++)
		xdbc_putc(&lx.dev, lx.held[i]);
	lx.held_len = 0;
	xdbc_flush(&lx.dev);
	lx_unlock();
	lx.hc_resets++;
	if (kept)
		pr_info("xdbc: %s: DbC kept across the xHCI reset (still enabled)\n", lx.name);
	else if (r == -EKDB_EAGAIN)
		pr_warn("xdbc: %s: the xHCI reset turned the DbC off: enabled again, no debug host "
			"yet: used when it comes\n", lx.name);
	else if (r)
		pr_err("xdbc: %s: the DbC did not come back after the xHCI reset (%s)\n", lx.name,
		       ekdb_strerror(r));
	else
		pr_info("xdbc: %s: the xHCI reset turned the DbC off: enabled again, debug host "
			"back on port %u (enumerated again), the session goes on\n", lx.name,
			lx.dev.port);
	return r == -EKDB_EAGAIN ? 0 : r;
}
