/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhci.h - what the early xHCI drivers share (the Debug Capability,
 * ../xhci-dbc/, and the host controller for keyboards, ../xhci-kbd/):
 * capability registers and extended capabilities, TRBs and the one ring
 * implementation (xhci_ring.c, pure: host-tested), the event ring
 * segment table entry.
 */
#ifndef IO_XHCI_H
#define IO_XHCI_H

#include <ekdb/types.h>

/* xHCI capability registers and extended capabilities */
#define XHCI_CAPLENGTH		0x00
#define XHCI_HCCPARAMS1		0x10
#define  HCC_XECP(p)		(((p) >> 16) & 0xffff)	/* in dwords */
#define XHCI_EXT_ID(v)		((v) & 0xff)
#define XHCI_EXT_NEXT(v)	(((v) >> 8) & 0xff)	/* in dwords, 0: last */
#define XHCI_MAP_LEN		0x10000	/* the extended capabilities live in the first 64 KiB */

/*
 * xhci_ext_cap - the offset of extended capability @id in an xHCI BAR, or
 * 0, reading registers with @rd(@arg, offset) (the early mapping, or the
 * kernel's).  Bounded: at most 64 entries, each below @limit; a read of
 * all ones (the device gone) ends the walk.
 */
static inline u32 xhci_ext_cap(u32 (*rd)(void *arg, u32 off), void *arg, u32 limit, unsigned id)
{
	u32 off = HCC_XECP(rd(arg, XHCI_HCCPARAMS1)) * 4;

	for (int n = 0; off && off < limit && n < 64; n++) {
		u32 v = rd(arg, off);

		if (v == 0xffffffffu)
			return 0;
		if (XHCI_EXT_ID(v) == id)
			return off;
		if (!XHCI_EXT_NEXT(v))
			return 0;
		off += XHCI_EXT_NEXT(v) * 4;
	}
	return 0;
}
#define XHCI_EXT_LEGSUP		1
#define XHCI_EXT_DBC		10
#define  LEGSUP_BIOS_OWNED	(1u << 16)
#define  LEGSUP_OS_OWNED	(1u << 24)
#define XHCI_LEGCTLSTS		4	/* after USBLEGSUP: SMI enables */

/* TRBs */
struct xhci_trb {
	u64 param;
	u32 status;
	u32 ctrl;
} __attribute__((packed));

#define TRB_C			(1u << 0)
#define TRB_TC			(1u << 1)	/* Link: toggle cycle */
#define TRB_ISP			(1u << 2)
#define TRB_IOC			(1u << 5)
#define TRB_TYPE(t)		((u32)(t) << 10)
#define TRB_GET_TYPE(c)		(((c) >> 10) & 0x3f)
#define TRB_NORMAL		1
#define TRB_LINK		6
#define TRB_TRANSFER		32
#define TRB_PORT_STATUS		34
#define TRB_EP_ID(c)		(((c) >> 16) & 0x1f)
#define TRB_CC(s)		(((s) >> 24) & 0xff)
#define TRB_RESIDUAL(s)		((s) & 0xffffff)
#define CC_SUCCESS		1
#define CC_STALL		6
#define CC_SHORT_PACKET		13

struct xhci_erst_entry {
	u64 base;
	u32 size;
	u32 rsvd;
};

/* A ring of TRBs in DMA memory (xhci_ring.c). */
struct xhci_ring {
	struct xhci_trb *trbs;
	u64 phys;
	unsigned n;		/* TRBs, the Link TRB (transfer rings: the last) included */
	unsigned enq, deq;	/* transfer rings: next to fill, oldest in flight; event ring: deq */
	u8 cycle;		/* producer cycle (transfer) / consumer cycle (event) */
};

void xhci_ring_init_xfer(struct xhci_ring *r, struct xhci_trb *trbs, u64 phys, unsigned n);
void xhci_ring_init_event(struct xhci_ring *r, struct xhci_trb *trbs, u64 phys, unsigned n);
/* TRBs that can still be queued (n - 1 usable, minus those in flight). */
unsigned xhci_ring_room(const struct xhci_ring *r);
/* Queue one TRB (cycle bit written last); returns its index. Caller checks room. */
unsigned xhci_ring_push(struct xhci_ring *r, u64 param, u32 status, u32 ctrl);
/* The index of the TRB at @phys if it is in flight on @r, else -1. */
int xhci_ring_inflight(const struct xhci_ring *r, u64 phys);
/* Retire the oldest TRB in flight; returns its index. */
unsigned xhci_ring_pop(struct xhci_ring *r);
/* Event ring: the next event the controller wrote (cycle matches), or NULL. */
const volatile struct xhci_trb *xhci_event_peek(const struct xhci_ring *r);
void xhci_event_advance(struct xhci_ring *r);
u64 xhci_ring_deq_phys(const struct xhci_ring *r);

#endif
