/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhc.c - the xHCI host controller, polled, for the early keyboards
 * (xHCI 1.1 section 4.2): halt and reset, then run with a Device Context
 * Base Address Array of XHC_SLOTS slots (scratchpad pages when the
 * controller asks for them), a command ring and interrupter 0's event
 * ring, interrupts off.  Events are read from memory when polled; every
 * wait is bounded.  Static storage only (the blocks are the caller's).
 */
#include "xhc.h"
#include <asm/tsc_early.h>
#include <ekdb/errno.h>
#include <ekdb/log.h>
#include <ekdb/string.h>

u32 xhc_rd(struct xhc *hc, u32 off)
{
	return xhci_mmio_read(&hc->pci, off);
}

void xhc_wr(struct xhc *hc, u32 off, u32 val)
{
	xhci_mmio_write(&hc->pci, off, val);
}

static void wr64(struct xhc *hc, u32 off, u64 val)
{
	xhc_wr(hc, off, (u32)val);
	xhc_wr(hc, off + 4, (u32)(val >> 32));
}

u64 xhc_phys(const struct xhc *hc, const void *p)
{
	return hc->mem_phys + (u64)((const u8 *)p - (const u8 *)hc->mem);
}

u64 xhc_dev_phys(const struct xhc_dev *d, const void *p)
{
	return d->mem_phys + (u64)((const u8 *)p - (const u8 *)d->mem);
}

u32 *xhc_ctx(const struct xhc *hc, u8 *base, unsigned i)
{
	return (u32 *)(base + i * hc->ctx_size);
}

void xhc_ring_db(struct xhc *hc, unsigned slot, unsigned target)
{
	xhc_wr(hc, hc->db + 4 * slot, target);
}

/* Wait up to @us for (register @off & @mask) == @want. */
static int handshake(struct xhc *hc, u32 off, u32 mask, u32 want, u64 us)
{
	u64 t0 = early_now_us();

	for (;;) {
		u32 v = xhc_rd(hc, off);

		if (v == 0xffffffffu)
			return -EKDB_ENODEV;	/* the controller is gone */
		if ((v & mask) == want)
			return 0;
		if (early_now_us() - t0 > us)
			return -EKDB_ETIMEDOUT;
	}
}

/* Halt and HCRST; a DbC in use: its driver told before and after (xhc.h). */
static int reset(struct xhc *hc)
{
	bool dbc = hc->dbc_prep && hc->dbc_startup && hc->dbc_prep(xhc_bdf(hc));
	int r;

	if (hc->dbc_prep && !dbc)	/* enabled, by someone not ekdb (the firmware?) */
		pr_warn("kbd: xHCI %s: its Debug Capability is not ekdb's: the reset for the "
			"keyboards turns it off\n", hc->name);

	xhc_wr(hc, hc->op + XHCI_USBCMD, xhc_rd(hc, hc->op + XHCI_USBCMD) & ~(CMD_RUN | CMD_INTE));
	r = handshake(hc, hc->op + XHCI_USBSTS, STS_HCH, STS_HCH, XHC_HALT_US);
	if (!r) {
		xhc_wr(hc, hc->op + XHCI_USBCMD, CMD_HCRST);
		r = handshake(hc, hc->op + XHCI_USBCMD, CMD_HCRST, 0, XHC_RESET_US);
		if (!r)
			r = handshake(hc, hc->op + XHCI_USBSTS, STS_CNR, 0, XHC_RESET_US);
	}
	if (dbc)
		hc->dbc_startup(xhc_bdf(hc));	/* also when the reset failed: the DbC first */
	return r;
}

/* The scratchpad pages the controller asks for, from the shared pool. */
static int scratchpads(struct xhc *hc, u64 *pool_phys_next, unsigned *left)
{
	unsigned n = HCS_SCRATCH(xhc_rd(hc, XHCI_HCSPARAMS2));

	if (!n)
		return 0;
	if (!hc->n_scratch) {			/* the first start: pages from the pool */
		if (n > *left || n > XHC_SCRATCH_PAGES) {
			pr_err("kbd: xHCI %s wants %u scratchpad pages, the early driver has %u left: not used\n",
			       hc->name, n, *left);
			return -EKDB_ENOSPC;
		}
		hc->scratch_phys = *pool_phys_next;
		hc->n_scratch = n;
		*pool_phys_next += 4096ULL * n;
		*left -= n;
	} else if (n > hc->n_scratch) {
		return -EKDB_ENOSPC;		/* a restart: the same pages again */
	}
	for (unsigned i = 0; i < n; i++)
		hc->mem->scratch[i] = hc->scratch_phys + 4096ULL * i;
	hc->mem->dcbaa[0] = xhc_phys(hc, hc->mem->scratch);
	return 0;
}

int xhc_start(struct xhc *hc, u64 *scratch_next, unsigned *scratch_left)
{
	struct xhc_mem *m = hc->mem;
	int r;

	hc->op = xhc_rd(hc, XHCI_CAPLENGTH) & 0xff;
	hc->rt = xhc_rd(hc, XHCI_RTSOFF) & ~0x1fu;
	hc->db = xhc_rd(hc, XHCI_DBOFF) & ~0x3u;
	hc->hcs1 = xhc_rd(hc, XHCI_HCSPARAMS1);
	hc->hcc1 = xhc_rd(hc, XHCI_HCCPARAMS1);
	hc->ctx_size = hc->hcc1 & HCC_CSZ ? 64 : 32;
	hc->max_ports = MIN(HCS_MAX_PORTS(hc->hcs1), XHC_PORTS_MAX);
	hc->max_slots = MIN(HCS_MAX_SLOTS(hc->hcs1), XHC_SLOTS);
	if (!hc->max_slots || !hc->max_ports)
		return -EKDB_ENODEV;
	if (!(xhc_rd(hc, hc->op + XHCI_PAGESIZE) & 1)) {
		pr_err("kbd: xHCI %s has no 4 KiB page size: not used\n", hc->name);
		return -EKDB_ENOSYS;
	}
	r = reset(hc);
	if (r)
		return r;
	memset(m, 0, sizeof(*m));
	r = scratchpads(hc, scratch_next, scratch_left);
	if (r)
		return r;
	xhci_ring_init_xfer(&hc->cmd, m->cmd, xhc_phys(hc, m->cmd), XHC_CMD_TRBS);
	xhci_ring_init_event(&hc->evt, m->evt, xhc_phys(hc, m->evt), XHC_EVT_TRBS);
	m->erst.base = hc->evt.phys;
	m->erst.size = XHC_EVT_TRBS;
	xhc_wr(hc, hc->op + XHCI_CONFIG, hc->max_slots);
	wr64(hc, hc->op + XHCI_DCBAAP, xhc_phys(hc, m->dcbaa));
	wr64(hc, hc->op + XHCI_CRCR, hc->cmd.phys | 1);		/* RCS 1 */
	xhc_wr(hc, hc->rt + XHCI_IMAN, 1);			/* IP cleared, IE off */
	xhc_wr(hc, hc->rt + XHCI_ERSTSZ, 1);
	wr64(hc, hc->rt + XHCI_ERDP, hc->evt.phys);
	wr64(hc, hc->rt + XHCI_ERSTBA, xhc_phys(hc, &m->erst));
	xhc_wr(hc, hc->op + XHCI_USBSTS, STS_W1C);
	xhc_wr(hc, hc->op + XHCI_USBCMD, CMD_RUN);
	r = handshake(hc, hc->op + XHCI_USBSTS, STS_HCH, 0, XHC_HALT_US);
	if (r)
		return r;
	hc->running = true;
	for (unsigned p = 1; p <= hc->max_ports; p++) {		/* power (when PPC lets us switch it) */
		u32 sc = xhc_rd(hc, hc->op + XHCI_PORTSC(p));

		if (!(sc & PORT_PP))
			xhc_wr(hc, hc->op + XHCI_PORTSC(p), (sc & PORT_KEEP) | PORT_PP);
	}
	return 0;
}

static struct xhc_dev *dev_of_slot(struct xhc *hc, struct xhc_dev *devs, unsigned n, u8 slot)
{
	for (unsigned i = 0; i < n; i++)
		if (devs[i].used && devs[i].hc == hc && devs[i].slot == slot)
			return &devs[i];
	return NULL;
}

static void transfer_event(struct xhc *hc, struct xhc_dev *devs, unsigned n, u64 trb, u32 status,
			   u32 ctrl)
{
	struct xhc_dev *d = dev_of_slot(hc, devs, n, (u8)TRB_GET_SLOT(ctrl));
	unsigned ep = TRB_EP_ID(ctrl);

	if (!d)
		return;
	if (ep == 1) {
		/* the control transfer's last TRB, or an error on an earlier one */
		if (trb == d->ctrl_last || TRB_CC(status) != CC_SUCCESS) {
			d->ctrl_cc = (u8)TRB_CC(status);
			d->ctrl_done = true;
		}
	} else if (ep == d->dci && d->active) {
		xhc_dev_report(d, trb, status, early_now_us());
	}
}

void xhc_events(struct xhc *hc, struct xhc_dev *devs, unsigned ndevs)
{
	const volatile struct xhci_trb *ev;
	unsigned seen = 0;

	if (!hc->running || hc->released)
		return;
	while ((ev = xhci_event_peek(&hc->evt))) {
		u64 param = ev->param;
		u32 status = ev->status, ctrl = ev->ctrl;

		switch (TRB_GET_TYPE(ctrl)) {
		case TRB_CMD_DONE:
			hc->cmd_trb = param;
			hc->cmd_cc = (u8)TRB_CC(status);
			hc->cmd_slot = (u8)TRB_GET_SLOT(ctrl);
			hc->cmd_done = true;
			break;
		case TRB_TRANSFER:
			transfer_event(hc, devs, ndevs, param, status, ctrl);
			break;
		case TRB_PORT_STATUS:
			if ((param >> 24) >= 1 && (param >> 24) <= 32)
				hc->port_changed |= 1u << ((param >> 24) - 1);
			break;
		}
		xhci_event_advance(&hc->evt);
		seen++;
	}
	if (seen) {
		u64 deq = xhci_ring_deq_phys(&hc->evt);

		hc->events += seen;
		xhc_wr(hc, hc->rt + XHCI_ERDP, (u32)deq | XHCI_ERDP_EHB);
		xhc_wr(hc, hc->rt + XHCI_ERDP + 4, (u32)(deq >> 32));
	}
}

int xhc_command(struct xhc *hc, struct xhc_dev *devs, unsigned ndevs, u64 param, u32 status,
		u32 ctrl, u8 *slot)
{
	u64 t0 = early_now_us(), trb;
	unsigned i;

	if (!hc->running || hc->released || !xhci_ring_room(&hc->cmd))
		return -EKDB_EIO;
	i = xhci_ring_push(&hc->cmd, param, status, ctrl);
	trb = hc->cmd.phys + i * sizeof(struct xhci_trb);
	hc->cmd_done = false;
	xhc_ring_db(hc, 0, 0);
	for (;;) {
		xhc_events(hc, devs, ndevs);
		if (hc->cmd_done && hc->cmd_trb == trb)
			break;
		hc->cmd_done = false;		/* an older command's late completion */
		if (early_now_us() - t0 > XHC_CMD_US)
			return -EKDB_ETIMEDOUT;	/* the ring position stays taken: rare, and bounded */
	}
	while (xhci_ring_pop(&hc->cmd) != i)
		;
	if (slot)
		*slot = hc->cmd_slot;
	return hc->cmd_cc;
}

int xhc_port_reset(struct xhc *hc, unsigned port, u8 *speed)
{
	u32 off = hc->op + XHCI_PORTSC(port), sc = xhc_rd(hc, off);
	u64 t0;

	if (!(sc & PORT_CCS))
		return -EKDB_ENODEV;
	if (!(sc & PORT_PED)) {			/* USB 2 ports enable after a reset; USB 3 by themselves */
		xhc_wr(hc, off, (sc & PORT_KEEP) | PORT_PR);
		t0 = early_now_us();
		while (!((sc = xhc_rd(hc, off)) & PORT_PRC)) {
			if (sc == 0xffffffffu || !(sc & PORT_CCS))
				return -EKDB_ENODEV;	/* unplugged during the reset */
			if (early_now_us() - t0 > XHC_PORT_RESET_US)
				return -EKDB_ETIMEDOUT;
		}
		for (t0 = early_now_us(); early_now_us() - t0 < XHC_RECOVERY_US;)
			;
	}
	sc = xhc_rd(hc, off);
	xhc_wr(hc, off, (sc & PORT_KEEP) | (sc & PORT_CHANGES));
	if (!(sc & PORT_PED))
		return -EKDB_EIO;
	*speed = (u8)PORT_SPEED(sc);
	return 0;
}
