/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xdbc_transport.c - the early driver of the xHCI Debug Capability: the
 * early console (earlyprintk=xdbc[N][,keep]) and the debugger transport
 * (kgdbxdbc=N[,secs]), sharing the DbC the way both share a serial line.
 * The DbC's DMA memory is one static block (struct xdbc_mem, 12 KiB) in
 * ordinary .bss, not in the early region the handoff frees: the
 * controller keeps using it.  Static storage only.
 */
#include "xhci_dbc.h"
#include "xdbc.h"
#include "../xhci/xhci_pci.h"
#include <ekdb/log.h>
#include <ekdb/port.h>
#include <asm/processor.h>
#include <asm/tsc_early.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>

static struct xdbc_mem xdbc_mem __aligned(4096);
static struct xdbc_dev dev;
static struct xhci_pci pci;
static int xdbc_index = -1;
static int xdbc_init_err;
static bool console_keep;
static bool in_debugger;
static unsigned poll_secs;
static u64 poll_at;
static bool noted_waiting, noted_gone;
static int lock_word;
static bool handed_over;		/* the running kernel's driver has the DbC */
static bool resetting;			/* between early_xdbc_reset_prep() and _external_startup() */

/* ------------------------------------------------------------ io */
static u32 dbc_off;

static u32 io_read(struct xdbc_io *io, u32 off)
{
	return xhci_mmio_read(&pci, dbc_off + off);
}

static void io_write(struct xdbc_io *io, u32 off, u32 val)
{
	xhci_mmio_write(&pci, dbc_off + off, val);
}

static u64 io_now(struct xdbc_io *io)
{
	return early_now_us();
}

static struct xdbc_io xdbc_io = { .read = io_read, .write = io_write, .now_us = io_now };

/* Not re-entered (printk from inside the driver, an NMI): the nested caller backs off. */
static bool xdbc_lock(void)
{
	return __atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE) == 0;
}

static void xdbc_unlock(void)
{
	__atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
}

/* State changes worth a line, printed outside printk's console callback. */
static void note_state(void)
{
	if (!dev.configured && !noted_gone && noted_waiting) {
		noted_gone = true;
		pr_warn("xdbc: the debug host went away (cable, port reset or host): output dropped until it is back\n");
	} else if (dev.configured && noted_gone) {
		noted_gone = false;
		pr_info("xdbc: debug host back (port %u): the session goes on\n", dev.port);
	}
	noted_waiting = true;
}

/* ------------------------------------------------------------ transport */
static int xdbc_t_getc(struct ekdb_transport *t)
{
	int ch = EKDB_NO_CHAR;

	if (handed_over)
		return EKDB_NO_CHAR;
	if (!in_debugger) {
		if (!poll_secs || early_now_us() < poll_at)
			return EKDB_NO_CHAR;
		poll_at = early_now_us() + poll_secs * 1000000ULL;
	}
	if (!xdbc_lock())
		return EKDB_NO_CHAR;
	if (!dev.enabled && dev.mem)
		xdbc_start(&dev, 0);	/* a controller reset turned the DbC off: again */
	xdbc_flush(&dev);
	ch = xdbc_getc(&dev);
	xdbc_unlock();
	if (in_debugger)
		note_state();
	return ch;
}

static void xdbc_t_putc(struct ekdb_transport *t, u8 c)
{
	if (handed_over || !xdbc_lock())
		return;
	xdbc_putc(&dev, c);
	xdbc_unlock();
}

static void xdbc_t_write(struct ekdb_transport *t, const u8 *buf, size_t n)
{
	if (!xdbc_lock())
		return;
	xdbc_write(&dev, buf, n);
	xdbc_unlock();
}

static void xdbc_t_flush(struct ekdb_transport *t)
{
	if (handed_over || !xdbc_lock())
		return;
	xdbc_flush(&dev);
	xdbc_unlock();
}

static void xdbc_t_pre(struct ekdb_transport *t)
{
	in_debugger = true;
}

static void xdbc_t_post(struct ekdb_transport *t)
{
	xdbc_t_flush(t);
	in_debugger = false;
	poll_at = early_now_us() + poll_secs * 1000000ULL;
}

static struct ekdb_console xdbc_console;

/*
 * For the successor: the output gathered goes out first (and, while the
 * far host reads, the OUT ring empties), then the DbC's state: where it
 * is, the rings' producer/consumer positions and cycle bits, and the IN
 * buffers not read yet.  Nothing changes here until deinit (if the
 * successor refuses, this driver goes on).
 */
static void xdbc_t_export(struct ekdb_transport *t, struct ekdb_transport_state *st)
{
	bool locked = xdbc_lock();
	u64 t0;

	xdbc_flush(&dev);
	for (t0 = early_now_us(); dev.enabled && dev.configured && dev.out.deq != dev.out.enq &&
	     early_now_us() - t0 < XDBC_OUT_US;)
		xdbc_poll(&dev);
	st->kind = EKDB_TRANSPORT_XDBC;
	st->u.xdbc.pci_bdf = (u32)pci.bus << 8 | (u32)pci.slot << 3 | pci.func;
	st->u.xdbc.regs_phys = pci.bar_phys + dbc_off;
	xdbc_state_export(&dev, st);
	st->u.xdbc.poll_secs = (u16)poll_secs;
	st->u.xdbc.console = xdbc_console.enabled;
	st->u.xdbc.keep = console_keep;
	if (locked)
		xdbc_unlock();
}

/* The successor took over: this driver never touches the DbC again. */
static void xdbc_t_deinit(struct ekdb_transport *t)
{
	handed_over = true;
	if (xdbc_console.enabled) {
		ekdb_console_unregister(&xdbc_console);
		xdbc_console.enabled = false;
	}
}

static char xdbc_name[8] = "xdbc0";

static struct ekdb_transport xdbc_transport = {
	.name = xdbc_name,
	.kind = EKDB_TRANSPORT_XDBC,
	.getc = xdbc_t_getc,
	.quiet_polls = XDBC_QUIET_POLLS,
	.putc = xdbc_t_putc,
	.write = xdbc_t_write,
	.flush = xdbc_t_flush,
	.pre_exception = xdbc_t_pre,
	.post_exception = xdbc_t_post,
	.export_state = xdbc_t_export,
	.deinit = xdbc_t_deinit,
};

/* ------------------------------------------------------------ console */
static void xdbc_console_write(struct ekdb_console *con, const char *s, size_t len)
{
	if (handed_over || !xdbc_lock())
		return;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			xdbc_putc(&dev, '\r');
		xdbc_putc(&dev, (u8)s[i]);
	}
	xdbc_flush(&dev);
	xdbc_unlock();
}

static struct ekdb_console xdbc_console = {
	.name = "earlyxdbc",
	.write = xdbc_console_write,
	.replay = true,
};

/* ------------------------------------------------------------ bring-up */
static int xdbc_setup(unsigned index)
{
	unsigned n_xhci;
	u64 t0;
	int r;

	if (handed_over)
		return -EKDB_EBUSY;
	if (xdbc_index >= 0)
		return (unsigned)xdbc_index == index ? xdbc_init_err : -EKDB_EBUSY;
	xdbc_index = (int)index;
	xdbc_name[4] = (char)('0' + index % 10);
	early_tsc_khz();			/* calibrate the clock first (PIT, ~30 ms) */
	t0 = early_now_us();
	r = xhci_pci_find(index, &pci, &n_xhci);
	if (r) {
		pr_err("xdbc: no xHCI controller %u (%u xHCI controller%s found)\n", index, n_xhci,
		       n_xhci == 1 ? "" : "s");
		return xdbc_init_err = r;
	}
	r = xhci_pci_setup(&pci);
	if (!r)
		r = xhci_pci_map(&pci);
	if (r) {
		pr_err("xdbc: xHCI %02x:%02x.%u: registers not reachable (%s)\n", pci.bus, pci.slot,
		       pci.func, ekdb_strerror(r));
		return xdbc_init_err = r;
	}
	dbc_off = xhci_pci_ext_cap(&pci, XHCI_EXT_DBC);
	if (!dbc_off) {
		pr_err("xdbc: xHCI %02x:%02x.%u has no Debug Capability\n", pci.bus, pci.slot, pci.func);
		return xdbc_init_err = -EKDB_ENODEV;
	}
	xhci_pci_handoff(&pci, "xdbc");
	dev.io = &xdbc_io;
	dev.mem = &xdbc_mem;
	if (xhci_dma_phys(&xdbc_mem, sizeof(xdbc_mem), &dev.mem_phys)) {
		pr_err("xdbc: the DbC's memory has no contiguous physical address\n");
		dev.mem = NULL;
		return xdbc_init_err = -EKDB_EFAULT;
	}
	r = xdbc_start(&dev, XDBC_CONFIGURE_US);
	if (r == -EKDB_EAGAIN) {
		pr_warn("xdbc: xHCI %02x:%02x.%u: DbC enabled, no debug host yet (cable, or the other machine not ready): it is used when it comes\n",
			pci.bus, pci.slot, pci.func);
		noted_gone = noted_waiting = true;
		return 0;
	}
	if (r) {
		pr_err("xdbc: xHCI %02x:%02x.%u: the Debug Capability does not start (%s)\n",
		       pci.bus, pci.slot, pci.func, ekdb_strerror(r));
		dev.mem = NULL;
		return xdbc_init_err = r;
	}
	noted_waiting = true;
	pr_info("xdbc: xHCI %02x:%02x.%u: DbC configured by the debug host on port %u, bring-up %llu us\n",
		pci.bus, pci.slot, pci.func, dev.port, (unsigned long long)(early_now_us() - t0));
	return 0;
}

int early_xdbc_console_init(const char *opt, bool keep)
{
	unsigned index = 0;
	const char *p = opt + 4;
	int r;

	if (strncmp(opt, "xdbc", 4))
		return -EKDB_EINVAL;
	if (*p) {
		if (*p < '0' || *p > '9' || p[1])
			return -EKDB_EINVAL;
		index = (unsigned)(*p - '0');
	}
	r = xdbc_setup(index);
	if (r)
		return r;
	console_keep = keep;
	if (xdbc_console.enabled)
		return -EKDB_EBUSY;
	return ekdb_console_register(&xdbc_console) ? -EKDB_ENOSPC : 0;
}

struct ekdb_transport *xdbc_transport_init(unsigned index, unsigned secs, int *err)
{
	*err = xdbc_setup(index);
	if (*err)
		return NULL;
	poll_secs = secs;
	poll_at = early_now_us() + secs * 1000000ULL;
	return &xdbc_transport;
}

/* ------------------------------------------------------------ handoff */
struct ekdb_transport *early_xdbc_transport(void)
{
	return dev.mem && !handed_over ? &xdbc_transport : NULL;
}

/* ------------------------------------------------------------ the keyboards' reset */
int early_xdbc_reset_prep(u32 bdf)
{
	u64 t0;

	if (!dev.mem || handed_over || resetting ||
	    bdf != ((u32)pci.bus << 8 | (u32)pci.slot << 3 | pci.func))
		return 0;
	if (!xdbc_lock())
		return 0;
	xdbc_flush(&dev);
	for (t0 = early_now_us(); dev.enabled && dev.configured && dev.out.deq != dev.out.enq &&
	     early_now_us() - t0 < XDBC_OUT_US;)
		xdbc_poll(&dev);
	resetting = true;		/* the lock stays taken: nothing goes out until startup */
	return 1;
}

int early_xdbc_external_startup(u32 bdf)
{
	bool kept;
	int r = 0;

	if (!resetting)
		return -EKDB_ENODEV;
	kept = io_read(&xdbc_io, DBC_DCCTRL) & DCCTRL_DCE;
	if (!kept)
		r = xdbc_start(&dev, XDBC_CONFIGURE_US);
	resetting = false;
	xdbc_unlock();
	if (kept)
		pr_info("xdbc: %s: DbC kept across the keyboards' xHCI reset (still enabled)\n",
			xdbc_name);
	else if (r == -EKDB_EAGAIN)
		pr_warn("xdbc: %s: the keyboards' xHCI reset turned the DbC off: enabled again, no "
			"debug host yet: used when it comes\n", xdbc_name);
	else if (r)
		pr_err("xdbc: %s: the DbC did not come back after the keyboards' xHCI reset (%s)\n",
		       xdbc_name, ekdb_strerror(r));
	else
		pr_info("xdbc: %s: the keyboards' xHCI reset turned the DbC off: enabled again, "
			"debug host back on port %u (enumerated again), the session goes on\n",
			xdbc_name, dev.port);
	return r == -EKDB_EAGAIN ? 0 : r;
}
