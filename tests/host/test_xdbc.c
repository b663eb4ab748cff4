/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_xdbc.c - the xHCI DbC driver's rings and byte channel
 * (io/xhci/xhci_ring.c, xdbc_dev.c) against a small DbC mock that
 * consumes TRBs by the cycle-bit rules and writes events: the transfer
 * ring's wrap (Link TRB handed over with the producer cycle, cycle flipped),
 * room and full, the event ring's consumer cycle, output across many
 * buffers in order, short IN transfers, events out of order, events lost,
 * a stall, output while the far host has not configured the device.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "../../io/xhci-dbc/xdbc.h"
#include <ekdb/errno.h>
#include <ekdb/transport.h>

#define PHYS_BASE	0x40000000ULL

static struct xdbc_mem mem __attribute__((aligned(4096)));

/* ------------------------------------------------------------ the mock DbC */
struct mock {
	u32 ctrl;
	bool configured;	/* the far host has configured it */
	u64 erstba, erdp, dccp;
	unsigned ev_enq;
	u8 ev_pcs;
	u64 deq[2];
	u8 ccs[2];
	u8 out[65536];		/* what the far host received */
	unsigned out_len;
	const u8 *in;		/* what the far host sends, in transfers of in_chunk */
	unsigned in_len, in_chunk;
	int hold_events;	/* events to hold back (then posted after the next) */
	struct xhci_trb held[8];
	int nheld;
	int drop_events;
	bool stall_out;
	unsigned doorbells, ignored;
	unsigned db[2];		/* doorbells per target (OUT, IN) */
	unsigned erdp_writes;	/* DCERDP low half written */
} mk;

static void *ptr(u64 phys)
{
	assert_true(phys >= PHYS_BASE && phys < PHYS_BASE + sizeof(mem));
	return (u8 *)&mem + (phys - PHYS_BASE);
}

static void write_event(const struct xhci_trb *e)
{
	struct xhci_erst_entry *erst = ptr(mk.erstba);
	struct xhci_trb *ring = ptr(erst->base);

	/* a full ring (the next slot is DCERDP's) would hold it: never in these tests */
	assert_int_not_equal(erst->base + 16ULL * ((mk.ev_enq + 1) % erst->size), mk.erdp & ~0xfULL);
	ring[mk.ev_enq].param = e->param;
	ring[mk.ev_enq].status = e->status;
	ring[mk.ev_enq].ctrl = (e->ctrl & ~TRB_C) | mk.ev_pcs;
	if (++mk.ev_enq == erst->size) {
		mk.ev_enq = 0;
		mk.ev_pcs ^= 1;
	}
}

static void event(u64 trb, u32 cc, u32 residual, unsigned ep)
{
	struct xhci_trb e = { trb, cc << 24 | residual, TRB_TYPE(TRB_TRANSFER) | ep << 16 };

	if (mk.drop_events > 0) {
		mk.drop_events--;
		return;
	}
	if (mk.hold_events > 0) {
		mk.hold_events--;
		mk.held[mk.nheld++] = e;
		return;
	}
	write_event(&e);
	for (int i = 0; i < mk.nheld; i++)
		write_event(&mk.held[i]);
	mk.nheld = 0;
}

static void run(unsigned ep)
{
	if (!mk.configured)
		return;
	for (;;) {
		struct xhci_trb *t = ptr(mk.deq[ep]);
		u32 len;

		if ((t->ctrl & TRB_C) != mk.ccs[ep])
			return;			/* not ours: not consumed */
		if (TRB_GET_TYPE(t->ctrl) == TRB_LINK) {
			mk.deq[ep] = t->param;
			if (t->ctrl & TRB_TC)
				mk.ccs[ep] ^= 1;
			continue;
		}
		assert_int_equal(TRB_GET_TYPE(t->ctrl), TRB_NORMAL);
		len = t->status & 0x1ffff;
		/* never across a 64 KiB boundary */
		assert_int_equal(t->param >> 16, (t->param + len - 1) >> 16);
		if (ep == XDBC_EP_OUT) {
			u64 at = mk.deq[ep];

			mk.deq[ep] += 16;
			if (mk.stall_out) {
				mk.stall_out = false;
				event(at, CC_STALL, len, ep);
				continue;
			}
			memcpy(mk.out + mk.out_len, ptr(t->param), len);
			mk.out_len += len;
			event(at, CC_SUCCESS, 0, ep);
		} else {
			unsigned n = mk.in_len < mk.in_chunk ? mk.in_len : mk.in_chunk;
			u64 at = mk.deq[ep];

			if (!n)
				return;			/* nothing to send: the TRB waits */
			if (n > len)
				n = len;
			memcpy(ptr(t->param), mk.in, n);
			mk.in += n;
			mk.in_len -= n;
			mk.deq[ep] += 16;
			event(at, n < len ? CC_SHORT_PACKET : CC_SUCCESS, len - n, ep);
		}
	}
}

static void configure(void)
{
	struct xdbc_ctx *c = ptr(mk.dccp);

	mk.configured = true;
	mk.ctrl |= DCCTRL_DRC;
	mk.deq[0] = c->out.deq & ~0xfULL;
	mk.ccs[0] = c->out.deq & 1;
	mk.deq[1] = c->in.deq & ~0xfULL;
	mk.ccs[1] = c->in.deq & 1;
}

static u32 mock_read(struct xdbc_io *io, u32 off)
{
	switch (off) {
	case DBC_DCCTRL:
		return mk.ctrl | (mk.configured ? DCCTRL_DCR : 0);
	case DBC_DCST:
		return 2u << 24;
	case DBC_DCPORTSC:
		return mk.configured ? DCPORTSC_CCS | DCPORTSC_PED : 0;
	}
	return 0;
}

static void set64(u64 *r, u32 off, u32 val)
{
	if (off & 4)
		*r = (*r & 0xffffffffULL) | (u64)val << 32;
	else
		*r = (*r & ~0xffffffffULL) | val;
}

static void mock_write(struct xdbc_io *io, u32 off, u32 val)
{
	switch (off & ~7u) {
	case DBC_DCERSTBA:
		set64(&mk.erstba, off, val);
		return;
	case DBC_DCERDP:
		set64(&mk.erdp, off, val & ~ERDP_EHB);
		mk.erdp_writes += !(off & 4);
		return;
	case DBC_DCCP:
		set64(&mk.dccp, off, val);
		return;
	}
	if (off == DBC_DCCTRL) {
		mk.ctrl &= ~(val & DCCTRL_DRC);
		mk.ctrl = (mk.ctrl & ~(DCCTRL_DCE | DCCTRL_LSE)) | (val & (DCCTRL_DCE | DCCTRL_LSE));
		if (val & DCCTRL_DCE) {
			mk.ev_enq = 0;
			mk.ev_pcs = 1;
		}
	} else if (off == DBC_DCDB) {
		mk.doorbells++;
		if (((val >> 8) & 0xff) < 2)
			mk.db[(val >> 8) & 0xff]++;
		if (!mk.configured)
			mk.ignored++;
		run((val >> 8) & 0xff);
	}
}

static u64 clock_us;

static u64 mock_now(struct xdbc_io *io)
{
	return clock_us += 10;
}

static struct xdbc_io io = { .read = mock_read, .write = mock_write, .now_us = mock_now };
static struct xdbc_dev dev;

static int setup(void **state)
{
	memset(&mk, 0, sizeof(mk));
	memset(&dev, 0, sizeof(dev));
	mk.in_chunk = XDBC_MAXP;
	dev.io = &io;
	dev.mem = &mem;
	dev.mem_phys = PHYS_BASE;
	return 0;
}

static void start_configured(void)
{
	/* the far host configures the device as soon as the DbC is enabled */
	mk.configured = false;
	assert_int_equal(xdbc_start(&dev, 0), -EKDB_EAGAIN);
	configure();
	clock_us += XDBC_CTRL_IDLE_US;		/* DCCTRL is due */
	xdbc_poll(&dev);
	assert_true(dev.configured);
}

static void send_str(const char *s)
{
	for (; *s; s++)
		xdbc_putc(&dev, (u8)*s);
	xdbc_flush(&dev);
}

static unsigned read_all(char *buf, unsigned max)
{
	unsigned n = 0;
	int idle = 0;

	while (n < max && idle < 4 * XDBC_LOST_POLLS) {
		int c = xdbc_getc(&dev);

		if (c == EKDB_NO_CHAR) {
			idle++;
			continue;
		}
		idle = 0;
		buf[n++] = (char)c;
	}
	return n;
}

/* ------------------------------------------------------------ rings */
static void test_ring_wrap_and_cycle(void **state)
{
	struct xhci_ring r;
	unsigned usable = XDBC_XFER_TRBS - 1;

	xhci_ring_init_xfer(&r, mem.out, PHYS_BASE, XDBC_XFER_TRBS);
	assert_int_equal(TRB_GET_TYPE(mem.out[usable].ctrl), TRB_LINK);
	assert_true(mem.out[usable].ctrl & TRB_TC);
	assert_int_equal(mem.out[usable].ctrl & TRB_C, 0);	/* not the controller's yet */
	assert_int_equal(mem.out[usable].param, PHYS_BASE);
	assert_int_equal(xhci_ring_room(&r), usable - 1);
	for (unsigned k = 0; k < 3 * usable + 2; k++) {
		unsigned i = xhci_ring_push(&r, 0x1000 + k, k, TRB_TYPE(TRB_NORMAL));
		u8 want = (u8)(1 - (k / usable) % 2);	/* 1 on the first pass, 0 on the second */

		assert_int_equal(i, k % usable);
		assert_int_equal(mem.out[i].ctrl & TRB_C, want);
		if (i == usable - 1)	/* the Link TRB goes over with this pass's cycle */
			assert_int_equal(mem.out[usable].ctrl & TRB_C, want);
		assert_int_equal(xhci_ring_pop(&r), i);
	}
	assert_int_equal(r.cycle, 0);	/* three wraps */
}

static void test_ring_room_and_inflight(void **state)
{
	struct xhci_ring r;
	unsigned usable = XDBC_XFER_TRBS - 1;

	xhci_ring_init_xfer(&r, mem.in, PHYS_BASE + 0x100, XDBC_XFER_TRBS);
	for (unsigned k = 0; k < usable - 1; k++)
		xhci_ring_push(&r, 0, 0, TRB_TYPE(TRB_NORMAL));
	assert_int_equal(xhci_ring_room(&r), 0);		/* full: one slot stays empty */
	assert_int_equal(xhci_ring_inflight(&r, PHYS_BASE + 0x100), 0);
	assert_int_equal(xhci_ring_inflight(&r, PHYS_BASE + 0x100 + 16 * 13), 13);
	assert_int_equal(xhci_ring_inflight(&r, PHYS_BASE + 0x100 + 16 * 14), -1);	/* empty slot */
	assert_int_equal(xhci_ring_inflight(&r, PHYS_BASE + 0x100 + 16 * 15), -1);	/* the link */
	assert_int_equal(xhci_ring_inflight(&r, PHYS_BASE + 0x100 + 8), -1);		/* unaligned */
	assert_int_equal(xhci_ring_inflight(&r, PHYS_BASE), -1);			/* before it */
	xhci_ring_pop(&r);
	assert_int_equal(xhci_ring_inflight(&r, PHYS_BASE + 0x100), -1);		/* retired */
	assert_int_equal(xhci_ring_room(&r), 1);
}

static void test_event_ring_consumer_cycle(void **state)
{
	struct xhci_ring r;

	xhci_ring_init_event(&r, mem.evt, PHYS_BASE, 4);
	assert_null(xhci_event_peek(&r));			/* zeroed: cycle 0 != 1 */
	for (int pass = 0; pass < 3; pass++) {
		for (int i = 0; i < 4; i++) {
			mem.evt[i].ctrl = TRB_TYPE(TRB_TRANSFER) | (pass % 2 ? 0 : 1);
			assert_non_null(xhci_event_peek(&r));
			xhci_event_advance(&r);
		}
		assert_null(xhci_event_peek(&r));		/* last pass's TRB: stale cycle */
		assert_int_equal(xhci_ring_deq_phys(&r), PHYS_BASE);
	}
}

/* ------------------------------------------------------------ the channel */
static void test_context_and_layout(void **state)
{
	start_configured();
	assert_int_equal(mem.ctx.out.deq, xdbc_phys(&dev, mem.out) | 1);
	assert_int_equal(mem.ctx.in.deq, xdbc_phys(&dev, mem.in) | 1);
	assert_int_equal((mem.ctx.out.info2 >> 3) & 7, EP_TYPE_BULK_OUT);
	assert_int_equal((mem.ctx.in.info2 >> 3) & 7, EP_TYPE_BULK_IN);
	assert_int_equal(mem.ctx.in.info2 >> 16, XDBC_MAXP);
	assert_int_equal(mem.strings[0][0], 4);
	assert_int_equal(mem.ctx.info.length & 0xff, 4);
	assert_int_equal(mem.erst.base, xdbc_phys(&dev, mem.evt));
	assert_int_equal(mk.erstba, xdbc_phys(&dev, &mem.erst));
	assert_int_equal(dev.port, 2);
	assert_true(mk.doorbells >= 2);				/* kicked at configure */
	assert_int_equal(mk.ignored, 0);
}

static void test_output_in_order_across_wraps(void **state)
{
	static char big[20000];

	start_configured();
	for (unsigned i = 0; i < sizeof(big); i++)
		big[i] = (char)('a' + i % 23);
	for (unsigned i = 0; i < sizeof(big); i++)
		xdbc_putc(&dev, (u8)big[i]);
	xdbc_flush(&dev);
	assert_int_equal(mk.out_len, sizeof(big));
	assert_memory_equal(mk.out, big, sizeof(big));
	assert_int_equal(dev.dropped, 0);
}

/*
 * Register writes are batched (a round trip each under the model): one OUT
 * doorbell for all the buffers queued since the last, DCERDP and the IN
 * doorbell of a reposted buffer put off until the line is idle.
 */
static void test_batched_registers(void **state)
{
	static u8 big[20000];
	char buf[16];
	u64 evt_deq;

	start_configured();
	for (unsigned i = 0; i < sizeof(big); i++)
		big[i] = (u8)(i * 7 + (i >> 8));
	mk.db[0] = mk.db[1] = mk.erdp_writes = 0;
	xdbc_write(&dev, big, 4000);		/* 4 buffers: one doorbell for all */
	xdbc_flush(&dev);
	assert_int_equal(mk.out_len, 4000);
	assert_int_equal(mk.db[XDBC_DB_OUT], 1);
	xdbc_write(&dev, big + 4000, 5000);	/* 5 buffers: the 5th needs one back */
	xdbc_flush(&dev);
	assert_int_equal(mk.out_len, 9000);
	assert_int_equal(mk.db[XDBC_DB_OUT], 3);
	assert_int_equal(mk.erdp_writes, 0);	/* 9 events read, none acknowledged yet */
	/* idle: DCERDP catches up once, at the ring's dequeue position */
	assert_int_equal(xdbc_getc(&dev), EKDB_NO_CHAR);
	assert_int_equal(mk.erdp_writes, 1);
	evt_deq = xhci_ring_deq_phys(&dev.evt);
	assert_int_equal(mk.erdp, evt_deq);
	/* IN: the emptied buffer is posted again; its doorbell waits for the idle getc */
	mk.in = (const u8 *)"hello";
	mk.in_len = 5;
	run(XDBC_EP_IN);
	for (int i = 0; i < 5; i++)
		buf[i] = (char)xdbc_getc(&dev);
	assert_memory_equal(buf, "hello", 5);
	assert_int_equal(mk.db[XDBC_DB_IN], 0);
	assert_int_equal(xdbc_getc(&dev), EKDB_NO_CHAR);
	assert_int_equal(mk.db[XDBC_DB_IN], 1);
	assert_int_equal(xdbc_getc(&dev), EKDB_NO_CHAR);
	assert_int_equal(mk.db[XDBC_DB_IN], 1);	/* once */
	/* a long write: DCERDP moves every quarter ring, so the mock's ring never fills */
	xdbc_write(&dev, big + 9000, sizeof(big) - 9000);
	xdbc_putc(&dev, 0x5a);
	xdbc_flush(&dev);
	assert_int_equal(mk.out_len, sizeof(big) + 1);
	assert_memory_equal(mk.out, big, sizeof(big));
	assert_int_equal(mk.out[sizeof(big)], 0x5a);
	assert_true(mk.erdp_writes >= 2);
	assert_int_equal(dev.dropped, 0);
}

static void test_short_transfers(void **state)
{
	char buf[64];

	start_configured();
	mk.in = (const u8 *)"+$?#3f$g#67";
	mk.in_len = 11;
	mk.in_chunk = 5;			/* the far host sends 5, 5, then 1 byte */
	run(XDBC_EP_IN);
	assert_int_equal(read_all(buf, sizeof(buf)), 11);
	assert_memory_equal(buf, "+$?#3f$g#67", 11);
	assert_int_equal(dev.lost, 0);
}

static void test_events_out_of_order(void **state)
{
	char buf[64];

	start_configured();
	mk.hold_events = 1;			/* the first transfer's event comes after the second's */
	mk.in = (const u8 *)"firstsecond";
	mk.in_len = 11;
	mk.in_chunk = 5;
	run(XDBC_EP_IN);
	assert_int_equal(read_all(buf, sizeof(buf)), 11);
	assert_memory_equal(buf, "firstsecond", 11);
	assert_int_equal(dev.lost, 0);
	/* and OUT: the late event of an earlier TRB is stale, not a second completion */
	mk.hold_events = 1;
	send_str("one");
	send_str("two");
	assert_int_equal(mk.out_len, 6);
	xdbc_poll(&dev);
	assert_true(dev.ev_stale >= 1);
	for (unsigned i = 0; i < XDBC_SLOTS; i++)
		assert_true(dev.out_state[i] != SLOT_POSTED);
}

static void test_events_lost(void **state)
{
	char buf[64];

	start_configured();
	mk.drop_events = 1;			/* the first IN transfer's event never comes */
	mk.in = (const u8 *)"lostkept";
	mk.in_len = 8;
	mk.in_chunk = 4;
	run(XDBC_EP_IN);
	assert_int_equal(read_all(buf, sizeof(buf)), 4);
	assert_memory_equal(buf, "kept", 4);
	assert_int_equal(dev.lost, 1);
	/* OUT: a later event retires the earlier TRB too; every buffer comes back */
	mk.drop_events = 2;
	for (int i = 0; i < 3 * XDBC_SLOTS; i++)
		send_str("x");
	xdbc_poll(&dev);
	assert_int_equal(mk.out_len, 3 * XDBC_SLOTS);
	assert_int_equal(dev.dropped, 0);
}

static void test_stall_then_on(void **state)
{
	start_configured();
	mk.stall_out = true;
	send_str("gone");
	send_str("here");
	assert_int_equal(mk.out_len, 4);
	assert_memory_equal(mk.out, "here", 4);
	xdbc_poll(&dev);
	assert_int_equal(dev.stalls, 1);
	assert_int_equal(dev.lost, 1);
}

static void test_not_configured(void **state)
{
	assert_int_equal(xdbc_start(&dev, 1000), -EKDB_EAGAIN);	/* nobody configures it */
	assert_true(dev.enabled);
	assert_false(dev.configured);
	/* output waits on the ring (no doorbell: it would be ignored) while buffers last */
	for (int i = 0; i < XDBC_SLOTS; i++)
		send_str("q");
	send_str("dropped");
	assert_int_equal(dev.dropped, 7);
	assert_int_equal(mk.out_len, 0);
	assert_int_equal(mk.ignored, 0);
	configure();
	clock_us += XDBC_CTRL_IDLE_US;
	xdbc_poll(&dev);			/* configured: the doorbell is rung now */
	assert_true(dev.configured);
	assert_int_equal(mk.out_len, XDBC_SLOTS);
	assert_memory_equal(mk.out, "qqqq", XDBC_SLOTS);
	send_str("sent");
	assert_int_equal(mk.out_len, XDBC_SLOTS + 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_ring_wrap_and_cycle, setup),
		cmocka_unit_test_setup(test_ring_room_and_inflight, setup),
		cmocka_unit_test_setup(test_event_ring_consumer_cycle, setup),
		cmocka_unit_test_setup(test_context_and_layout, setup),
		cmocka_unit_test_setup(test_output_in_order_across_wraps, setup),
		cmocka_unit_test_setup(test_batched_registers, setup),
		cmocka_unit_test_setup(test_short_transfers, setup),
		cmocka_unit_test_setup(test_events_out_of_order, setup),
		cmocka_unit_test_setup(test_events_lost, setup),
		cmocka_unit_test_setup(test_stall_then_on, setup),
		cmocka_unit_test_setup(test_not_configured, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
