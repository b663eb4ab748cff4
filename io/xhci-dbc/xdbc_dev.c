/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xdbc_dev.c - the Debug Capability as a byte channel: lay out the DbC's
 * memory (event ring and its segment table, the DbC context with the
 * string descriptors the far host shows, two transfer rings), enable it
 * and wait for the far host to configure it (xHCI 7.6.4), then move bytes
 * with Normal TRBs: XDBC_SLOTS buffers per direction, every free IN buffer
 * posted, output gathered into one OUT buffer and queued when full.
 * Events are polled from memory (no register access while nothing
 * happens); DCCTRL is read every XDBC_CTRL_US (XDBC_CTRL_IDLE_US while not
 * configured) and after each Port Status Change Event.
 *
 * Register writes are the expensive part of the data path (a posted write
 * on hardware, a round trip to the model under QEMU), so they are batched:
 * the OUT doorbell is rung once for all the TRBs queued since the last
 * one, at a flush or when a free buffer is needed; DCERDP is written when
 * a quarter of the event ring was consumed or when the line goes idle;
 * the IN doorbell for a reposted buffer is rung when the line goes idle
 * (getc finds nothing), i.e. while the far host reads our reply, or at
 * once when no other IN buffer is posted.
 *
 * Reaches the DbC only through struct xdbc_io (host tests: a mock).
 */
#include "xdbc.h"
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>

static u32 rd(struct xdbc_dev *d, u32 off)
{
	return d->io->read(d->io, off);
}

static void wr(struct xdbc_dev *d, u32 off, u32 val)
{
	d->io->write(d->io, off, val);
}

static void wr64(struct xdbc_dev *d, u32 off, u64 val)
{
	wr(d, off, (u32)val);
	wr(d, off + 4, (u32)(val >> 32));
}

static u64 now(struct xdbc_dev *d)
{
	return d->io->now_us(d->io);
}

u64 xdbc_phys(const struct xdbc_dev *d, const volatile void *p)
{
	return d->mem_phys + (u64)((const volatile u8 *)p - (const volatile u8 *)d->mem);
}

/* A USB string descriptor (UTF-16LE) from ASCII; returns bLength. */
static u8 string_desc(u8 *buf, const char *s)
{
	unsigned n = 2;

	for (; *s && n + 2 <= XDBC_STRING_MAX; s++, n += 2) {
		buf[n] = (u8)*s;
		buf[n + 1] = 0;
	}
	buf[0] = (u8)n;
	buf[1] = 3;		/* STRING */
	return (u8)n;
}

#define XDBC_VENDOR		0x1d6b	/* Linux Foundation, as Linux's early DbC says */
#define XDBC_PRODUCT		0x0011	/* Linux's "USB GDB Target" (usb_debug binds it) */
#define XDBC_REVISION		0x0010
#define XDBC_PROTOCOL		1	/* GNU Remote Debug Command Set */

void xdbc_mem_init(struct xdbc_dev *d)
{
	struct xdbc_mem *m = d->mem;
	struct xdbc_ctx *c = &m->ctx;
	u32 len = 0;

	memset(&m->erst, 0, sizeof(m->erst));
	memset(c, 0, sizeof(*c));
	xhci_ring_init_event(&d->evt, m->evt, xdbc_phys(d, m->evt), XDBC_EVT_TRBS);
	xhci_ring_init_xfer(&d->out, m->out, xdbc_phys(d, m->out), XDBC_XFER_TRBS);
	xhci_ring_init_xfer(&d->in, m->in, xdbc_phys(d, m->in), XDBC_XFER_TRBS);
	m->erst.base = d->evt.phys;
	m->erst.size = XDBC_EVT_TRBS;

	m->strings[0][0] = 4;			/* string 0: LANGID US English */
	m->strings[0][1] = 3;
	m->strings[0][2] = 0x09;
	m->strings[0][3] = 0x04;
	len = 4;
	len |= (u32)string_desc(m->strings[1], "ekdb") << 8;
	len |= (u32)string_desc(m->strings[2], "ekdb kgdb/kdb on the xHCI DbC") << 16;
	len |= (u32)string_desc(m->strings[3], "0001") << 24;
	c->info.string0 = xdbc_phys(d, m->strings[0]);
	c->info.manufacturer = xdbc_phys(d, m->strings[1]);
	c->info.product = xdbc_phys(d, m->strings[2]);
	c->info.serial = xdbc_phys(d, m->strings[3]);
	c->info.length = len;
	/* CErr 3, type, max packet 1024, max burst 0; dequeue pointer with DCS 1 */
	c->out.info2 = (3u << 1) | (EP_TYPE_BULK_OUT << 3) | ((u32)XDBC_MAXP << 16);
	c->out.deq = d->out.phys | 1;
	c->out.tx_info = XDBC_MAXP;
	c->in.info2 = (3u << 1) | (EP_TYPE_BULK_IN << 3) | ((u32)XDBC_MAXP << 16);
	c->in.deq = d->in.phys | 1;
	c->in.tx_info = XDBC_MAXP;

	d->out_fill = 0;
	d->out_next = 1;
	d->out_len = 0;
	d->in_head = 0;
	d->in_pos = 0;
	d->in_wait = 0;
	for (unsigned i = 0; i < XDBC_SLOTS; i++) {
		d->out_state[i] = SLOT_FREE;
		d->in_state[i] = SLOT_FREE;
	}
}

static void post_in(struct xdbc_dev *d, unsigned s)
{
	unsigned i = xhci_ring_push(&d->in, xdbc_phys(d, d->mem->inbuf[s]), XDBC_MAXP,
				    TRB_TYPE(TRB_NORMAL) | TRB_IOC | TRB_ISP);

	d->in_slot_of[i] = (u8)s;
	d->in_state[s] = SLOT_POSTED;
}

/* The far host (re)configured the device: hand it the rings again. */
static void kick(struct xdbc_dev *d)
{
	wr(d, DBC_DCDB, DCDB_TARGET(XDBC_DB_IN));
	wr(d, DBC_DCDB, DCDB_TARGET(XDBC_DB_OUT));
	d->in_db_pending = d->out_db_pending = false;
}

static void check_ctrl(struct xdbc_dev *d)
{
	u32 ctrl = rd(d, DBC_DCCTRL);
	bool was = d->configured;

	if (!(ctrl & DCCTRL_DCE)) {
		d->configured = false;	/* disabled under us (a controller reset): xdbc_start again */
		d->enabled = false;
		return;
	}
	if (ctrl & DCCTRL_DRC)
		wr(d, DBC_DCCTRL, (ctrl & ~(DCCTRL_HIT | DCCTRL_HOT)) | DCCTRL_DRC);
	d->configured = ctrl & DCCTRL_DCR;
	if (d->configured && !was) {
		d->port = (u8)DCST_PORT(rd(d, DBC_DCST));
		d->reconfigured++;
		kick(d);
	}
}

static void out_done(struct xdbc_dev *d, unsigned idx, bool ok)
{
	int i = xhci_ring_inflight(&d->out, d->out.phys + idx * sizeof(struct xhci_trb));
	unsigned k;

	if (i < 0) {
		d->ev_stale++;
		return;
	}
	do {			/* the ring completes in order: earlier TRBs are done too */
		k = xhci_ring_pop(&d->out);
		d->out_state[d->out_slot_of[k]] = SLOT_FREE;
	} while (k != idx);
	if (!ok)
		d->lost++;
}

static void in_done(struct xdbc_dev *d, unsigned idx, unsigned len)
{
	int i = xhci_ring_inflight(&d->in, d->in.phys + idx * sizeof(struct xhci_trb));
	unsigned s;

	if (i < 0) {
		d->ev_stale++;
		return;
	}
	s = d->in_slot_of[idx];
	if (d->in_state[s] != SLOT_POSTED) {
		d->ev_stale++;
		return;
	}
	d->in_state[s] = SLOT_DONE;
	d->in_len[s] = (u16)len;
}

static void transfer_event(struct xdbc_dev *d, u64 trb, u32 status, u32 ctrl)
{
	unsigned ep = TRB_EP_ID(ctrl), cc = TRB_CC(status);
	bool ok = cc == CC_SUCCESS || cc == CC_SHORT_PACKET;
	struct xhci_ring *r;

	if (d->foreign && d->foreign(d, trb, status, ctrl))
		return;			/* a predecessor's TRB (the handoff) */
	d->ev_transfer++;
	if (cc == CC_STALL)
		d->stalls++;
	if (ep == XDBC_EP_OUT || ep == 2) {
		r = &d->out;
		if (trb < r->phys || trb >= r->phys + (r->n - 1) * sizeof(struct xhci_trb)) {
			d->ev_stale++;
			return;
		}
		out_done(d, (unsigned)((trb - r->phys) / sizeof(struct xhci_trb)), ok);
	} else if (ep == XDBC_EP_IN || ep == 3) {
		unsigned len;

		r = &d->in;
		if (trb < r->phys || trb >= r->phys + (r->n - 1) * sizeof(struct xhci_trb)) {
			d->ev_stale++;
			return;
		}
		len = ok ? XDBC_MAXP - (TRB_RESIDUAL(status) > XDBC_MAXP ? XDBC_MAXP : TRB_RESIDUAL(status)) : 0;
		if (!ok)
			d->lost++;
		in_done(d, (unsigned)((trb - r->phys) / sizeof(struct xhci_trb)), len);
	} else {
		d->ev_stale++;
	}
}

/*
 * Tell the controller how far the event ring was read (xHCI 4.9.4).  Not
 * after every event: the ring (XDBC_EVT_TRBS) holds more than the TRBs
 * both transfer rings can have in flight plus a quarter of it, so it cannot
 * fill while up to a quarter of it is read but not yet acknowledged.
 */
static void write_erdp(struct xdbc_dev *d)
{
	u64 deq = xhci_ring_deq_phys(&d->evt);

	wr(d, DBC_DCERDP, (u32)deq | ERDP_EHB);
	if ((u32)(deq >> 32) != d->erdp_hi) {
		d->erdp_hi = (u32)(deq >> 32);
		wr(d, DBC_DCERDP + 4, d->erdp_hi);
	}
	d->evt_unacked = 0;
}

static void ring_out(struct xdbc_dev *d)
{
	if (d->out_db_pending && d->configured)
		wr(d, DBC_DCDB, DCDB_TARGET(XDBC_DB_OUT));
	d->out_db_pending = false;
}

static void ring_in(struct xdbc_dev *d)
{
	if (d->in_db_pending && d->configured)
		wr(d, DBC_DCDB, DCDB_TARGET(XDBC_DB_IN));
	d->in_db_pending = false;
}

/*
 * Nothing to read: the register writes that were put off (DCERDP, the IN
 * doorbell of a reposted buffer) are made now, while the far host is busy
 * with what we sent.
 */
void xdbc_idle(struct xdbc_dev *d)
{
	if (!d->enabled)
		return;
	if (d->evt_unacked)
		write_erdp(d);
	ring_in(d);
}

void xdbc_poll(struct xdbc_dev *d)
{
	const volatile struct xhci_trb *ev;
	bool port = false;

	if (!d->enabled)
		return;
	while ((ev = xhci_event_peek(&d->evt))) {
		u64 param = ev->param;
		u32 status = ev->status, ctrl = ev->ctrl;

		if (TRB_GET_TYPE(ctrl) == TRB_TRANSFER) {
			transfer_event(d, param, status, ctrl);
		} else if (TRB_GET_TYPE(ctrl) == TRB_PORT_STATUS) {
			d->ev_port++;
			port = true;
		}
		xhci_event_advance(&d->evt);
		d->evt_unacked++;
	}
	if (d->evt_unacked >= XDBC_EVT_TRBS / 4)
		write_erdp(d);
	if (port) {
		u32 sc = rd(d, DBC_DCPORTSC);

		wr(d, DBC_DCPORTSC, sc & DCPORTSC_CHANGE);	/* write 1 to clear the changes */
	}
	if (port || now(d) >= d->ctrl_at) {
		check_ctrl(d);
		d->ctrl_at = now(d) + (d->configured ? XDBC_CTRL_US : XDBC_CTRL_IDLE_US);
	}
}

int xdbc_start(struct xdbc_dev *d, u64 wait_us)
{
	u64 t0;

	wr(d, DBC_DCCTRL, 0);
	t0 = now(d);
	while (rd(d, DBC_DCCTRL) & DCCTRL_DCE)
		if (now(d) - t0 > XDBC_DCE_US)
			return -EKDB_EIO;
	d->enabled = d->configured = false;
	xdbc_mem_init(d);
	for (unsigned s = 0; s < XDBC_SLOTS; s++)
		post_in(d, s);
	wr(d, DBC_DCERSTSZ, 1);
	wr64(d, DBC_DCERSTBA, xdbc_phys(d, &d->mem->erst));
	wr64(d, DBC_DCERDP, d->evt.phys);
	d->erdp_hi = (u32)(d->evt.phys >> 32);
	d->evt_unacked = 0;
	d->in_db_pending = d->out_db_pending = false;
	wr64(d, DBC_DCCP, xdbc_phys(d, &d->mem->ctx));
	wr(d, DBC_DCDDI1, (u32)XDBC_VENDOR << 16 | XDBC_PROTOCOL);
	wr(d, DBC_DCDDI2, (u32)XDBC_REVISION << 16 | XDBC_PRODUCT);
	wr(d, DBC_DCCTRL, DCCTRL_DCE | DCCTRL_LSE);
	t0 = now(d);
	while (!(rd(d, DBC_DCCTRL) & DCCTRL_DCE))
		if (now(d) - t0 > XDBC_DCE_US)
			return -EKDB_EIO;
	d->enabled = true;
	d->ctrl_at = 0;
	t0 = now(d);
	while (!d->configured) {
		xdbc_poll(d);
		if (now(d) - t0 > wait_us)
			return -EKDB_EAGAIN;	/* enabled: the far host may come later */
	}
	return 0;
}

/* ------------------------------------------------------------ bytes */
static int getc_one(struct xdbc_dev *d)
{
	unsigned s;
	int ch;

	xdbc_poll(d);
	s = d->in_head;
	if (d->in_state[s] == SLOT_POSTED) {
		bool later = false;

		for (unsigned k = 1; k < XDBC_SLOTS; k++)
			later |= d->in_state[(s + k) % XDBC_SLOTS] == SLOT_DONE;
		/* a later buffer is done: this one's event is late, or was lost */
		if (!later || ++d->in_wait < XDBC_LOST_POLLS)
			return EKDB_NO_CHAR;
		d->in_state[s] = SLOT_DONE;
		d->in_len[s] = 0;
		d->lost++;
	}
	if (d->in_state[s] != SLOT_DONE)
		return EKDB_NO_CHAR;
	d->in_wait = 0;
	if (d->in_pos < d->in_len[s]) {
		ch = d->mem->inbuf[s][d->in_pos++];
		if (d->in_pos < d->in_len[s])
			return ch;
	} else {
		ch = EKDB_NO_CHAR;
	}
	/* buffer emptied: its TRB (the oldest on the IN ring) retires, post it again */
	xhci_ring_pop(&d->in);
	d->in_pos = 0;
	d->in_head = (u8)((s + 1) % XDBC_SLOTS);
	if (d->enabled && xhci_ring_room(&d->in)) {
		bool others = false;

		for (unsigned k = 1; k < XDBC_SLOTS; k++)
			others |= d->in_state[(s + k) % XDBC_SLOTS] == SLOT_POSTED;
		post_in(d, s);
		d->in_db_pending = true;
		if (!others)
			ring_in(d);	/* the controller has no IN buffer at all: now */
	} else {
		d->in_state[s] = SLOT_FREE;
	}
	return ch;
}

int xdbc_getc(struct xdbc_dev *d)
{
	int ch = getc_one(d);

	if (ch == EKDB_NO_CHAR)
		xdbc_idle(d);
	return ch;
}

static int free_out_slot(struct xdbc_dev *d)
{
	for (unsigned k = 0; k < XDBC_SLOTS; k++) {
		unsigned s = (d->out_next + k) % XDBC_SLOTS;

		if (d->out_state[s] == SLOT_FREE)
			return (int)s;
	}
	return -1;
}

/*
 * A buffer to fill next.  While the far host is there, wait (bounded) for
 * it to take one; a host that stops reading gets XDBC_OUT_US once, then
 * XDBC_OUT_STUCK_US per try until it reads again.  Nothing is ever written
 * into a buffer the controller may still read: without one, output is
 * dropped (and counted).
 */
static void pick_out_slot(struct xdbc_dev *d)
{
	u64 t0 = now(d);
	int s;

	if (free_out_slot(d) < 0)
		ring_out(d);		/* the queued TRBs free the buffers */
	while ((s = free_out_slot(d)) < 0) {
		xdbc_poll(d);
		if (!d->configured || now(d) - t0 > (d->out_stuck ? XDBC_OUT_STUCK_US : XDBC_OUT_US)) {
			d->out_stuck = d->configured;
			return;
		}
	}
	d->out_stuck = false;
	d->out_fill = (u8)s;
	d->out_next = (u8)((s + 1) % XDBC_SLOTS);
}

/*
 * Queue the buffer being filled (its doorbell is put off: ring_out()) and
 * pick the next one.  Before the far host configured the device the TRB
 * only waits on the ring (a doorbell then would be ignored): kick() rings
 * the doorbell when it is configured.
 */
static void queue_out(struct xdbc_dev *d)
{
	unsigned s = d->out_fill, i;

	if (!d->out_len)
		return;
	if (!d->enabled || !xhci_ring_room(&d->out)) {
		d->dropped += d->out_len;
		d->out_len = 0;
		return;
	}
	i = xhci_ring_push(&d->out, xdbc_phys(d, d->mem->outbuf[s]), d->out_len,
			   TRB_TYPE(TRB_NORMAL) | TRB_IOC);
	d->out_slot_of[i] = (u8)s;
	d->out_state[s] = SLOT_POSTED;
	d->out_len = 0;
	d->out_fill = XDBC_NO_SLOT;
	d->out_db_pending = true;
	pick_out_slot(d);
}

/* Send what was written: queue the buffer being filled, one doorbell for all. */
void xdbc_flush(struct xdbc_dev *d)
{
	queue_out(d);
	ring_out(d);
}

/* A buffer to write into, or false (no free one: the caller drops its bytes). */
static bool out_buffer(struct xdbc_dev *d)
{
	if (d->out_fill == XDBC_NO_SLOT) {
		xdbc_poll(d);
		if (free_out_slot(d) >= 0)
			pick_out_slot(d);
	}
	return d->out_fill != XDBC_NO_SLOT;
}

void xdbc_putc(struct xdbc_dev *d, u8 c)
{
	if (!out_buffer(d)) {
		d->dropped++;
		return;
	}
	d->mem->outbuf[d->out_fill][d->out_len++] = c;
	if (d->out_len == XDBC_MAXP)
		queue_out(d);
}

/* @n bytes at once: buffers filled with memcpy, queued as they fill. */
void xdbc_write(struct xdbc_dev *d, const u8 *buf, size_t n)
{
	while (n) {
		size_t k;

		if (!out_buffer(d)) {
			d->dropped += n;
			return;
		}
		k = MIN(n, (size_t)(XDBC_MAXP - d->out_len));
		memcpy(&d->mem->outbuf[d->out_fill][d->out_len], buf, k);
		d->out_len = (u16)(d->out_len + k);
		buf += k;
		n -= k;
		if (d->out_len == XDBC_MAXP)
			queue_out(d);
	}
}
