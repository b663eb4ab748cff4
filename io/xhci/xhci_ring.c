/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhci_ring.c - TRB rings as the xHCI specification lays them out (4.9):
 * a transfer ring is one segment whose last TRB is a Link TRB back to the
 * start with Toggle Cycle set; the producer (us) writes a TRB's cycle bit
 * last, with its producer cycle state, and flips that state each time it
 * passes the Link TRB (whose cycle bit it hands over too).  The event
 * ring is produced by the controller: a TRB is new while its cycle bit
 * equals our consumer cycle state, which flips at the segment's end.
 * Pure (no hardware access): the host tests run it as is.
 */
#include "xhci.h"
#include <ekdb/string.h>

static void put_ctrl(struct xhci_trb *t, u32 ctrl)
{
	barrier();		/* the rest of the TRB before its cycle bit */
	*(volatile u32 *)&t->ctrl = ctrl;
	barrier();
}

static void ring_init(struct xhci_ring *r, struct xhci_trb *trbs, u64 phys, unsigned n)
{
	memset(trbs, 0, n * sizeof(*trbs));
	r->trbs = trbs;
	r->phys = phys;
	r->n = n;
	r->enq = r->deq = 0;
	r->cycle = 1;
}

void xhci_ring_init_xfer(struct xhci_ring *r, struct xhci_trb *trbs, u64 phys, unsigned n)
{
	ring_init(r, trbs, phys, n);
	trbs[n - 1].param = phys;
	/* cycle 0: not the controller's until we wrap onto it with cycle 1 */
	put_ctrl(&trbs[n - 1], TRB_TYPE(TRB_LINK) | TRB_TC);
}

void xhci_ring_init_event(struct xhci_ring *r, struct xhci_trb *trbs, u64 phys, unsigned n)
{
	ring_init(r, trbs, phys, n);
}

static unsigned inflight(const struct xhci_ring *r)
{
	unsigned usable = r->n - 1;

	return (r->enq + usable - r->deq) % usable;
}

unsigned xhci_ring_room(const struct xhci_ring *r)
{
	/* one usable TRB stays empty so a full ring differs from an empty one */
	return r->n - 2 - inflight(r);
}

unsigned xhci_ring_push(struct xhci_ring *r, u64 param, u32 status, u32 ctrl)
{
	unsigned i = r->enq;
	struct xhci_trb *t = &r->trbs[i];

	t->param = param;
	t->status = status;
	put_ctrl(t, (ctrl & ~TRB_C) | r->cycle);
	if (++r->enq == r->n - 1) {
		struct xhci_trb *link = &r->trbs[r->n - 1];

		put_ctrl(link, (link->ctrl & ~TRB_C) | r->cycle);
		r->enq = 0;
		r->cycle ^= 1;
	}
	return i;
}

int xhci_ring_inflight(const struct xhci_ring *r, u64 phys)
{
	u64 off = phys - r->phys;
	unsigned i, k;

	if (phys < r->phys || off % sizeof(struct xhci_trb) || off / sizeof(struct xhci_trb) >= r->n - 1)
		return -1;
	i = (unsigned)(off / sizeof(struct xhci_trb));
	k = (i + (r->n - 1) - r->deq) % (r->n - 1);	/* position after the oldest */
	return k < inflight(r) ? (int)i : -1;
}

unsigned xhci_ring_pop(struct xhci_ring *r)
{
	unsigned i = r->deq;

	if (++r->deq == r->n - 1)
		r->deq = 0;
	return i;
}

const volatile struct xhci_trb *xhci_event_peek(const struct xhci_ring *r)
{
	const volatile struct xhci_trb *t = &r->trbs[r->deq];

	if ((t->ctrl & TRB_C) != r->cycle)
		return NULL;
	barrier();		/* the cycle bit before the rest of the event */
	return t;
}

void xhci_event_advance(struct xhci_ring *r)
{
	if (++r->deq == r->n) {
		r->deq = 0;
		r->cycle ^= 1;
	}
}

u64 xhci_ring_deq_phys(const struct xhci_ring *r)
{
	return r->phys + (u64)r->deq * sizeof(struct xhci_trb);
}
