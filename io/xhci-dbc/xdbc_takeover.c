/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xdbc_takeover.c - the DbC moves from the early driver's static block to
 * the running kernel's allocated one without the far host noticing (no
 * DCE toggle, so no new enumeration):
 *
 *  - the state (struct ekdb_transport_state): where the DbC is, the
 *    rings' producer/consumer positions and cycle bits, the IN buffers
 *    not read yet;
 *  - new rings in the new block; on each old transfer ring a Link TRB at
 *    the producer position points to the new ring (Toggle Cycle when the
 *    new ring starts with the other cycle), so the controller walks from
 *    its own dequeue pointer through what it still owns into the new ring;
 *  - the event ring: the old one drained, DCERSTSZ/DCERSTBA/DCERDP
 *    written (the event ring state machine restarts on the new segment),
 *    the old one drained again (events written before the switch);
 *  - DCCP: the context copied (the far host reads the strings from it
 *    when it enumerates again; an endpoint context the controller has
 *    not loaded yet names the new ring directly).
 *
 * TRBs the controller owns on the old rings are not taken back (the DbC
 * has no Stop Endpoint command): their completions arrive as foreign
 * events, the bytes IN ones bring are read before the new ring's.  When a
 * TRB of each new ring has completed, the controller has left the old
 * block.  Host-tested (tests/host/test_xdbc_handoff.c).
 */
#include "xdbc.h"
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>

_Static_assert(XDBC_SLOTS <= 8, "struct ekdb_transport_state holds 8 IN buffers");
_Static_assert(XDBC_XFER_TRBS <= 256 && XDBC_EVT_TRBS <= 256, "ring positions are u8");

#define USABLE (XDBC_XFER_TRBS - 1)

void xdbc_state_export(const struct xdbc_dev *d, struct ekdb_transport_state *st)
{
	typeof(st->u.xdbc) *u = &st->u.xdbc;

	u->mem_phys = d->mem_phys;
	u->mem = d->mem;
	u->out_enq = (u8)d->out.enq;
	u->out_deq = (u8)d->out.deq;
	u->out_cycle = d->out.cycle;
	u->in_enq = (u8)d->in.enq;
	u->in_deq = (u8)d->in.deq;
	u->in_cycle = d->in.cycle;
	u->evt_deq = (u8)d->evt.deq;
	u->evt_cycle = d->evt.cycle;
	u->in_head = d->in_head;
	u->in_pos = d->in_pos;
	for (unsigned s = 0; s < XDBC_SLOTS; s++) {
		u->in_state[s] = d->in_state[s];
		u->in_len[s] = d->in_len[s];
	}
	u->port = d->port;
	u->enabled = d->enabled;
	u->configured = d->configured;
	u->loaded = d->configured || d->reconfigured;
	st->npending = 0;	/* the unread bytes are in the IN buffers: in_state/in_len */
}

int xdbc_state_check(const struct ekdb_transport_state *st, u64 regs_phys)
{
	const typeof(st->u.xdbc) *u = &st->u.xdbc;

	if (st->kind != EKDB_TRANSPORT_XDBC || u->pci_bdf > 0xffff || !u->mem ||
	    !u->mem_phys || u->mem_phys & 4095)
		return -EKDB_EINVAL;
	if (u->out_enq >= USABLE || u->out_deq >= USABLE || u->in_enq >= USABLE ||
	    u->in_deq >= USABLE || u->out_cycle > 1 || u->in_cycle > 1 ||
	    u->evt_deq >= XDBC_EVT_TRBS || u->evt_cycle > 1 || u->in_head >= XDBC_SLOTS ||
	    u->in_pos > XDBC_MAXP)
		return -EKDB_EINVAL;
	for (unsigned s = 0; s < XDBC_SLOTS; s++)
		if (u->in_state[s] > SLOT_DONE || u->in_len[s] > XDBC_MAXP)
			return -EKDB_EINVAL;
	if (!u->enabled)
		return -EKDB_EINVAL;	/* nothing running to continue */
	if (u->regs_phys != regs_phys)
		return -EKDB_ENODEV;	/* not the DbC this driver found */
	return 0;
}

/* ------------------------------------------------------------ the FIFO */
static void fifo_put(struct xdbc_legacy *lg, const u8 *p, unsigned n)
{
	if (lg->fifo_pos && lg->fifo_pos == lg->fifo_len)
		lg->fifo_pos = lg->fifo_len = 0;
	for (unsigned i = 0; i < n; i++) {
		if (lg->fifo_len >= lg->fifo_cap) {
			lg->lost += n - i;
			return;
		}
		lg->fifo[lg->fifo_len++] = p[i];
	}
	lg->carried += n;
}

int xdbc_legacy_getc(struct xdbc_legacy *lg)
{
	if (!lg->fifo || lg->fifo_pos >= lg->fifo_len)
		return EKDB_NO_CHAR;
	return lg->fifo[lg->fifo_pos++];
}

void xdbc_keep_unread(struct xdbc_dev *d, struct xdbc_legacy *lg)
{
	for (unsigned k = 0; k < XDBC_SLOTS; k++) {
		unsigned s = (d->in_head + k) % XDBC_SLOTS, from = k ? 0 : d->in_pos;

		if (d->in_state[s] != SLOT_DONE)
			break;
		if (d->in_len[s] > from)
			fifo_put(lg, d->mem->inbuf[s] + from, d->in_len[s] - from);
		d->in_state[s] = SLOT_FREE;
	}
	d->in_pos = 0;
}

/* ------------------------------------------------------------ the old rings */
static unsigned window(unsigned deq, unsigned enq)
{
	return (enq + USABLE - deq) % USABLE;
}

/* The bytes an old IN TRB's buffer holds (its address read from the TRB itself). */
static void carry_in(struct xdbc_legacy *lg, unsigned k, unsigned len)
{
	u64 buf = lg->mem->in[k].param, off = buf - lg->phys;

	if (buf < lg->phys || off + len > sizeof(*lg->mem) || len > XDBC_MAXP) {
		lg->lost++;
		return;
	}
	fifo_put(lg, (const u8 *)lg->mem + off, len);
}

/*
 * A completion on an old ring: the ring completes in order, so the TRBs
 * before it are done too (an IN one without its event lost its bytes).
 */
static bool legacy_event(struct xdbc_dev *d, u64 trb, u32 status, u32 ctrl)
{
	struct xdbc_legacy *lg = d->priv;
	unsigned cc = TRB_CC(status), idx;
	u64 out0, in0;
	bool ok = cc == CC_SUCCESS || cc == CC_SHORT_PACKET;

	if (!lg || !lg->mem)
		return false;
	out0 = lg->phys + offsetof(struct xdbc_mem, out);
	in0 = lg->phys + offsetof(struct xdbc_mem, in);
	if (trb >= out0 && trb < out0 + USABLE * sizeof(struct xhci_trb)) {
		idx = (unsigned)((trb - out0) / sizeof(struct xhci_trb));
		lg->events++;
		if (window(lg->out_deq, idx) < window(lg->out_deq, lg->out_enq))
			lg->out_deq = (u8)((idx + 1) % USABLE);
		return true;
	}
	if (trb >= in0 && trb < in0 + USABLE * sizeof(struct xhci_trb)) {
		idx = (unsigned)((trb - in0) / sizeof(struct xhci_trb));
		lg->events++;
		if (window(lg->in_deq, idx) >= window(lg->in_deq, lg->in_enq))
			return true;	/* retired already: stale */
		for (unsigned k = lg->in_deq; ; k = (k + 1) % USABLE) {
			if (lg->in_done_len[k] >= 0)
				carry_in(lg, k, (unsigned)lg->in_done_len[k]);
			else if (k == idx && ok)
				carry_in(lg, k, XDBC_MAXP - (TRB_RESIDUAL(status) > XDBC_MAXP ?
							     XDBC_MAXP : TRB_RESIDUAL(status)));
			else
				lg->lost++;
			lg->in_done_len[k] = -1;
			if (k == idx)
				break;
		}
		lg->in_deq = (u8)((idx + 1) % USABLE);
		/* done behind it before the handoff: no event of theirs will come */
		while (lg->in_deq != lg->in_enq && lg->in_done_len[lg->in_deq] >= 0) {
			carry_in(lg, lg->in_deq, (unsigned)lg->in_done_len[lg->in_deq]);
			lg->in_done_len[lg->in_deq] = -1;
			lg->in_deq = (u8)((lg->in_deq + 1) % USABLE);
		}
		return true;
	}
	return false;
}

/* An event ring's next event (cycle = consumer state), or NULL. */
static void drain_old_events(struct xdbc_dev *nd, struct xdbc_legacy *lg, unsigned *deq, u8 *cycle)
{
	for (unsigned n = 0; n < XDBC_EVT_TRBS; n++) {
		volatile struct xhci_trb *ev = &lg->mem->evt[*deq];
		u32 c = ev->ctrl;

		if ((c & TRB_C) != *cycle)
			return;
		barrier();
		if (TRB_GET_TYPE(c) == TRB_TRANSFER)
			legacy_event(nd, ev->param, ev->status, c);
		if (++*deq == XDBC_EVT_TRBS) {
			*deq = 0;
			*cycle ^= 1;
		}
	}
}

/* A Link TRB at @enq of an old ring to @new_phys; its cycle bit written last. */
static void bridge(struct xhci_trb *ring, unsigned enq, u8 cycle, u64 new_phys, u8 new_cycle)
{
	struct xhci_trb *t = &ring[enq];

	t->param = new_phys;
	t->status = 0;
	barrier();
	*(volatile u32 *)&t->ctrl = TRB_TYPE(TRB_LINK) | (cycle != new_cycle ? TRB_TC : 0) | cycle;
	barrier();
}

static void wr(struct xdbc_dev *d, u32 off, u32 v)
{
	d->io->write(d->io, off, v);
}

static u32 rd(struct xdbc_dev *d, u32 off)
{
	return d->io->read(d->io, off);
}

/* A 64-bit register: the high half only when it changes (each write may take effect). */
static void wr64(struct xdbc_dev *d, u32 off, u64 v)
{
	if ((u32)(v >> 32) != rd(d, off + 4)) {
		wr(d, off, (u32)v);
		wr(d, off + 4, (u32)(v >> 32));
		return;
	}
	wr(d, off, (u32)v);
}

/* The old block's offset of IN/OUT TRB @trb's buffer as a slot, or XDBC_SLOTS: not one of ours. */
static unsigned buf_slot(const struct xhci_trb *trb, u64 mem_phys, size_t bufs)
{
	u64 off = trb->param - mem_phys - bufs;
	unsigned s = (unsigned)(off / XDBC_MAXP);

	return off % XDBC_MAXP || s >= XDBC_SLOTS ? XDBC_SLOTS : s;
}

/*
 * The IN buffers the early driver had not read yet, oldest first, into
 * the FIFO; those done behind one still posted (its event late) are
 * carried when that one completes (in_done_len).
 */
static void adopt_in(struct xdbc_legacy *lg, const struct ekdb_transport_state *st)
{
	const typeof(st->u.xdbc) *u = &st->u.xdbc;
	const struct xdbc_mem *old = u->mem;
	unsigned k, s;

	for (k = 0; k < XDBC_XFER_TRBS; k++)
		lg->in_done_len[k] = -1;
	lg->in_deq = u->in_deq;
	lg->in_enq = u->in_enq;
	for (k = u->in_deq; k != u->in_enq; k = (k + 1) % USABLE) {
		s = buf_slot(&old->in[k], u->mem_phys, offsetof(struct xdbc_mem, inbuf));
		if (s == XDBC_SLOTS || u->in_state[s] != SLOT_DONE)
			break;		/* the controller's from here on */
		if (k == u->in_deq) {
			if (u->in_len[s] > u->in_pos)
				fifo_put(lg, old->inbuf[s] + u->in_pos, u->in_len[s] - u->in_pos);
		} else {
			fifo_put(lg, old->inbuf[s], u->in_len[s]);
		}
		lg->in_deq = (u8)((k + 1) % USABLE);
	}
	for (k = lg->in_deq; k != u->in_enq; k = (k + 1) % USABLE) {
		s = buf_slot(&old->in[k], u->mem_phys, offsetof(struct xdbc_mem, inbuf));
		if (s < XDBC_SLOTS && u->in_state[s] == SLOT_DONE)
			lg->in_done_len[k] = (s16)u->in_len[s];
	}
}

/*
 * The controller has not read the endpoint contexts yet: it will start on
 * the new rings, never on the old ones.  Output queued there (waiting for
 * the far host) is queued again on @nd, one TRB each, as they were.
 */
static void requeue_out(struct xdbc_dev *nd, const struct ekdb_transport_state *st)
{
	const typeof(st->u.xdbc) *u = &st->u.xdbc;
	const struct xdbc_mem *old = u->mem;

	for (unsigned k = u->out_deq; k != u->out_enq; k = (k + 1) % USABLE) {
		unsigned s = buf_slot(&old->out[k], u->mem_phys, offsetof(struct xdbc_mem, outbuf));
		unsigned len = old->out[k].status & 0x1ffff;

		if (s == XDBC_SLOTS || len > XDBC_MAXP)
			continue;
		for (unsigned i = 0; i < len; i++)
			xdbc_putc(nd, old->outbuf[s][i]);
		xdbc_flush(nd);
	}
}

/* The event ring: drain the old one, switch to @nd's, drain what came before the switch. */
static void switch_event_ring(struct xdbc_dev *nd, struct xdbc_legacy *lg, unsigned deq, u8 cycle)
{
	drain_old_events(nd, lg, &deq, &cycle);
	wr(nd, DBC_DCERSTSZ, 1);
	wr64(nd, DBC_DCERSTBA, xdbc_phys(nd, &nd->mem->erst));
	wr64(nd, DBC_DCERDP, nd->evt.phys);
	nd->erdp_hi = (u32)(nd->evt.phys >> 32);
	drain_old_events(nd, lg, &deq, &cycle);
}

void xdbc_adopt(struct xdbc_dev *nd, struct xdbc_legacy *lg, const struct ekdb_transport_state *st)
{
	const typeof(st->u.xdbc) *u = &st->u.xdbc;
	struct xdbc_mem *old = u->mem;
	unsigned s;

	lg->mem = old;
	lg->phys = u->mem_phys;
	lg->fifo_len = lg->fifo_pos = 0;
	lg->released = false;
	xdbc_mem_init(nd);		/* fresh rings, ERST and context in the new block */
	nd->enabled = true;		/* DCE stays set: the far host sees nothing change */

	adopt_in(lg, st);
	lg->out_deq = u->out_deq;
	lg->out_enq = u->out_enq;

	if (!u->loaded) {
		requeue_out(nd, st);
		lg->out_deq = lg->out_enq = 0;
		lg->in_deq = lg->in_enq = 0;
	} else {
		bridge(old->out, u->out_enq, u->out_cycle, nd->out.phys, nd->out.cycle);
		bridge(old->in, u->in_enq, u->in_cycle, nd->in.phys, nd->in.cycle);
	}
	/* every new IN buffer posted: the controller reaches them after the old ones */
	for (s = 0; s < XDBC_SLOTS; s++) {
		unsigned i = xhci_ring_push(&nd->in, xdbc_phys(nd, nd->mem->inbuf[s]), XDBC_MAXP,
					    TRB_TYPE(TRB_NORMAL) | TRB_IOC | TRB_ISP);

		nd->in_slot_of[i] = (u8)s;
		nd->in_state[s] = SLOT_POSTED;
	}
	nd->priv = lg;
	nd->foreign = legacy_event;

	switch_event_ring(nd, lg, u->evt_deq, u->evt_cycle);
	/* the context: strings for the next enumeration, endpoints if not loaded yet */
	wr64(nd, DBC_DCCP, xdbc_phys(nd, &nd->mem->ctx));

	nd->configured = rd(nd, DBC_DCCTRL) & DCCTRL_DCR;
	nd->port = u->port;
	nd->ctrl_at = 0;
	if (nd->configured) {		/* walk to the bridges now where nothing is owned */
		wr(nd, DBC_DCDB, DCDB_TARGET(XDBC_DB_OUT));
		wr(nd, DBC_DCDB, DCDB_TARGET(XDBC_DB_IN));
	}
}

bool xdbc_legacy_done(struct xdbc_dev *nd, struct xdbc_legacy *lg)
{
	bool in_moved = nd->in.deq != 0;

	if (!lg->mem || lg->out_deq != lg->out_enq || lg->in_deq != lg->in_enq)
		return false;
	for (unsigned s = 0; s < XDBC_SLOTS; s++)
		in_moved |= nd->in_state[s] == SLOT_DONE;
	/* a TRB of each new ring completed: the controller walked over both bridges */
	if (nd->out.deq == 0 || !in_moved)
		return false;
	xdbc_legacy_drop(lg);
	return true;
}

void xdbc_legacy_drop(struct xdbc_legacy *lg)
{
	if (!lg->mem)
		return;
	lg->mem = NULL;
	lg->out_deq = lg->out_enq = lg->in_deq = lg->in_enq = 0;
	lg->released = true;
}
