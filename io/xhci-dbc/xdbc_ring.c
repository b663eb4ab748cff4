/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xdbc_ring.c - TRB rings as the xHCI specification lays them out (4.9):
 * a transfer ring is one segment whose last TRB is a Link TRB back to the
 * start with Toggle Cycle set; the producer (us) writes a TRB's cycle bit
 * last, with its producer cycle state, and flips that state each time it
 * passes the Link TRB (whose cycle bit it hands over too).  The event
 * ring is produced by the controller: a TRB is new while its cycle bit
 * equals our consumer cycle state, which flips at the segment's end.
 * Pure (no hardware access): the host tests run it as is.
 */
#include "xdbc.h"
#include <ekdb/string.h>

static void put_ctrl(struct xdbc_trb *t, u32 ctrl)
{
	barrier();		/* the rest of the TRB before its cycle bit */
	*(volatile u32 *)&t->ctrl = ctrl;
	barrier();
}

void xdbc_ring_init_xfer(struct xdbc_ring *r, struct xdbc_trb *trbs, u64 phys, unsigned n)
{
	memset(trbs, 0, n * sizeof(*trbs));
	r->trbs = trbs;
	r->phys = phys;
	r->n = n;
	r->enq = r->deq = 0;
	r->cycle = 1;
	trbs[n - 1].param = phys;
	/* cycle 0: not the controller's until we wrap onto it with cycle 1 */
	put_ctrl(&trbs[n - 1], TRB_TYPE(TRB_LINK) | TRB_TC);
}

void xdbc_ring_init_event(struct xdbc_ring *r, struct xdbc_trb *trbs, u64 phys, unsigned n)
{
	memset(trbs, 0, n * sizeof(*trbs));
	r->trbs = trbs;
	r->phys = phys;
	r->n = n;
	r->enq = r->deq = 0;
	r->cycle = 1;
}

static unsigned inflight(const struct xdbc_ring *r)
{
	unsigned usable = r->n - 1;

	return (r->enq + usable - r->deq) % usable;
}

unsigned xdbc_ring_room(const struct xdbc_ring *r)
{
	/* one usable TRB stays empty so a full ring differs from an empty one */
	return r->n - 2 - inflight(r);
}

unsigned xdbc_ring_push(struct xdbc_ring *r, u64 param, u32 status, u32 ctrl)
{
	unsigned i = r->enq;
	struct xdbc_trb *t = &r->trbs[i];

	t->param = param;
	t->status = status;
	put_ctrl(t, (ctrl & ~TRB_C) | r->cycle);
	if (++r->enq == r->n - 1) {
		struct xdbc_trb *link = &r->trbs[r->n - 1];

		put_ctrl(link, (link->ctrl & ~TRB_C) | r->cycle);
		r->enq = 0;
		r->cycle ^= 1;
	}
	return i;
}

int xdbc_ring_inflight(const struct xdbc_ring *r, u64 phys)
{
	u64 off = phys - r->phys;
	unsigned i, k;

	if (phys < r->phys || off % sizeof(struct xdbc_trb) || off / sizeof(struct xdbc_trb) >= r->n - 1)
		return -1;
	i = (unsigned)(off / sizeof(struct xdbc_trb));
	k = (i + (r->n - 1) - r->deq) % (r->n - 1);	/* position after the oldest */
	return k < inflight(r) ? (int)i : -1;
}

unsigned xdbc_ring_pop(struct xdbc_ring *r)
{
	unsigned i = r->deq;

	if (++r->deq == r->n - 1)
		r->deq = 0;
	return i;
}

const volatile struct xdbc_trb *xdbc_event_peek(const struct xdbc_ring *r)
{
	const volatile struct xdbc_trb *t = &r->trbs[r->deq];

	if ((t->ctrl & TRB_C) != r->cycle)
		return NULL;
	barrier();		/* the cycle bit before the rest of the event */
	return t;
}

void xdbc_event_advance(struct xdbc_ring *r)
{
	if (++r->deq == r->n) {
		r->deq = 0;
		r->cycle ^= 1;
	}
}

u64 xdbc_ring_deq_phys(const struct xdbc_ring *r)
{
	return r->phys + (u64)r->deq * sizeof(struct xdbc_trb);
}
