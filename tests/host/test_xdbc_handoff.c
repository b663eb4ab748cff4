/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_xdbc_handoff.c - the DbC's move from the early driver's block to
 * the late driver's (io/xhci-dbc/xdbc_takeover.c), against a register
 * mock: the state through export and check, every malformed field refused
 * (wrong kind, BDF > 0xffff, no block, an unaligned block, ring positions
 * past the ring, cycle 2, event position 64, IN buffer 4, read position
 * 1025, buffer state 3, length 1025, a DbC not enabled, other registers);
 * the adoption: Link TRBs at the old producer positions (Toggle Cycle when
 * the cycles differ), event ring, ERDP and context re-pointed, unread bytes
 * carried in order (several buffers, one done behind one still posted),
 * an old IN TRB's bytes read before the new ring's, the
 * old block let go only after a TRB of each new ring completed; endpoints
 * never loaded: queued output moved to the new OUT ring, no bridges.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "../../io/xhci-dbc/xdbc.h"
#include <ekdb/errno.h>
#include <ekdb/transport.h>

#define OLD_PHYS	0x40000000ULL
#define NEW_PHYS	0x80000000ULL
#define REGS		0xc1000540ULL

static struct xdbc_mem oldm __attribute__((aligned(4096)));
static struct xdbc_mem newm __attribute__((aligned(4096)));
static u32 regs[DBC_REGS_LEN / 4];
static unsigned doorbells;
static u64 clock_us;
static u8 fifo[8192];

static u32 m_read(struct xdbc_io *io, u32 off)
{
	return regs[off / 4];
}

static void m_write(struct xdbc_io *io, u32 off, u32 v)
{
	if (off == DBC_DCDB)
		doorbells++;
	else
		regs[off / 4] = v;
}

static u64 m_now(struct xdbc_io *io)
{
	return clock_us += 10;
}

static struct xdbc_io io = { m_read, m_write, m_now, NULL };

static u64 reg64(u32 off)
{
	return regs[off / 4] | (u64)regs[off / 4 + 1] << 32;
}

/* An early device as xdbc_start left it, then some traffic. */
static void early_dev(struct xdbc_dev *d)
{
	memset(d, 0, sizeof(*d));
	memset(&oldm, 0, sizeof(oldm));
	d->io = &io;
	d->mem = &oldm;
	d->mem_phys = OLD_PHYS;
	xdbc_mem_init(d);
	for (unsigned s = 0; s < XDBC_SLOTS; s++) {
		unsigned i = xhci_ring_push(&d->in, OLD_PHYS + offsetof(struct xdbc_mem, inbuf) +
					    s * XDBC_MAXP, XDBC_MAXP, TRB_TYPE(TRB_NORMAL) | TRB_IOC);

		d->in_slot_of[i] = (u8)s;
		d->in_state[s] = SLOT_POSTED;
	}
	d->enabled = d->configured = true;
	d->reconfigured = 1;
	d->port = 2;
	regs[DBC_DCCTRL / 4] = DCCTRL_DCE | DCCTRL_DCR;
}

static void export(struct xdbc_dev *d, struct ekdb_transport_state *st)
{
	memset(st, 0, sizeof(*st));
	st->kind = EKDB_TRANSPORT_XDBC;
	st->u.xdbc.regs_phys = REGS;
	xdbc_state_export(d, st);
}

static void new_dev(struct xdbc_dev *nd, struct xdbc_legacy *lg)
{
	memset(nd, 0, sizeof(*nd));
	memset(lg, 0, sizeof(*lg));
	memset(&newm, 0, sizeof(newm));
	nd->io = &io;
	nd->mem = &newm;
	nd->mem_phys = NEW_PHYS;
	lg->fifo = fifo;
	lg->fifo_cap = sizeof(fifo);
}

static void test_state_checked(void **unused)
{
	struct xdbc_dev d;
	struct ekdb_transport_state st, bad;

	early_dev(&d);
	export(&d, &st);
	assert_int_equal(xdbc_state_check(&st, REGS), 0);
	assert_int_equal(st.u.xdbc.in_enq, XDBC_SLOTS);
	assert_int_equal(st.u.xdbc.in_cycle, 1);
	assert_true(st.u.xdbc.loaded);
#define BAD(field, val, err) do { bad = st; bad.field = val; \
		assert_int_equal(xdbc_state_check(&bad, REGS), err); } while (0)
	BAD(kind, EKDB_TRANSPORT_DBGP, -EKDB_EINVAL);
	BAD(u.xdbc.pci_bdf, 0x10000, -EKDB_EINVAL);
	BAD(u.xdbc.mem, NULL, -EKDB_EINVAL);
	BAD(u.xdbc.mem_phys, OLD_PHYS + 64, -EKDB_EINVAL);
	BAD(u.xdbc.out_enq, XDBC_XFER_TRBS - 1, -EKDB_EINVAL);
	BAD(u.xdbc.in_deq, XDBC_XFER_TRBS - 1, -EKDB_EINVAL);
	BAD(u.xdbc.out_cycle, 2, -EKDB_EINVAL);
	BAD(u.xdbc.evt_deq, XDBC_EVT_TRBS, -EKDB_EINVAL);
	BAD(u.xdbc.in_head, XDBC_SLOTS, -EKDB_EINVAL);
	BAD(u.xdbc.in_pos, XDBC_MAXP + 1, -EKDB_EINVAL);
	BAD(u.xdbc.in_state[1], SLOT_DONE + 1, -EKDB_EINVAL);
	BAD(u.xdbc.in_len[2], XDBC_MAXP + 1, -EKDB_EINVAL);
	BAD(u.xdbc.enabled, false, -EKDB_EINVAL);
	assert_int_equal(xdbc_state_check(&st, REGS + 0x1000), -EKDB_ENODEV);
}

/* The controller completes old IN TRB @k with @data: the buffer filled, an event on the ring in use. */
static void old_in_completes(struct xdbc_dev *nd, unsigned k, const char *data)
{
	u64 buf = oldm.in[k].param;
	struct xhci_trb *ev = &newm.evt[nd->evt.deq];

	memcpy((u8 *)&oldm + (buf - OLD_PHYS), data, strlen(data));
	ev->param = OLD_PHYS + offsetof(struct xdbc_mem, in) + 16 * k;
	ev->status = CC_SHORT_PACKET << 24 | (u32)(XDBC_MAXP - strlen(data));
	ev->ctrl = TRB_TYPE(TRB_TRANSFER) | XDBC_EP_IN << 16 | nd->evt.cycle;
}

static void new_completes(struct xdbc_dev *nd, struct xhci_ring *r, unsigned ep, const char *data)
{
	struct xhci_trb *t = &r->trbs[r->deq], *ev = &newm.evt[nd->evt.deq];
	unsigned len = data ? (unsigned)strlen(data) : 0;

	if (data)
		memcpy((u8 *)&newm + (t->param - NEW_PHYS), data, len);
	ev->param = r->phys + 16 * r->deq;
	ev->status = (data ? CC_SHORT_PACKET : CC_SUCCESS) << 24 | (data ? XDBC_MAXP - len : 0);
	ev->ctrl = TRB_TYPE(TRB_TRANSFER) | ep << 16 | nd->evt.cycle;
}

static int read_all(struct xdbc_dev *nd, struct xdbc_legacy *lg, char *out, int max)
{
	int n = 0, c;

	xdbc_poll(nd);
	while (n < max) {
		c = xdbc_legacy_getc(lg);
		if (c == EKDB_NO_CHAR && lg->in_deq == lg->in_enq)
			c = xdbc_getc(nd);
		if (c == EKDB_NO_CHAR)
			break;
		out[n++] = (char)c;
	}
	out[n] = 0;
	return n;
}

static void test_adopt_moves_everything(void **unused)
{
	struct xdbc_dev d, nd;
	struct xdbc_legacy lg;
	struct ekdb_transport_state st;
	struct xhci_trb *link;
	char buf[64];

	early_dev(&d);
	/* the first IN buffer came back with "ab", one byte read already */
	memcpy(oldm.inbuf[0], "ab", 2);
	d.in_state[0] = SLOT_DONE;
	d.in_len[0] = 2;
	d.in_pos = 1;
	export(&d, &st);
	new_dev(&nd, &lg);
	doorbells = 0;
	xdbc_adopt(&nd, &lg, &st);

	/* bridges at the old producer positions: OUT at 0, IN at 4, cycle 1 like the new rings */
	link = &oldm.out[0];
	assert_int_equal(TRB_GET_TYPE(link->ctrl), TRB_LINK);
	assert_int_equal(link->param, NEW_PHYS + offsetof(struct xdbc_mem, out));
	assert_int_equal(link->ctrl & (TRB_C | TRB_TC), TRB_C);
	link = &oldm.in[XDBC_SLOTS];
	assert_int_equal(TRB_GET_TYPE(link->ctrl), TRB_LINK);
	assert_int_equal(link->param, NEW_PHYS + offsetof(struct xdbc_mem, in));
	/* event ring, ERDP, context in the new block; doorbells rung */
	assert_int_equal(reg64(DBC_DCERSTBA), NEW_PHYS + offsetof(struct xdbc_mem, erst));
	assert_int_equal(reg64(DBC_DCERDP), NEW_PHYS + offsetof(struct xdbc_mem, evt));
	assert_int_equal(reg64(DBC_DCCP), NEW_PHYS + offsetof(struct xdbc_mem, ctx));
	assert_int_equal(doorbells, 2);
	assert_true(nd.enabled && nd.configured);
	/* the unread "b" first; the three old IN TRBs still the controller's */
	assert_int_equal(lg.in_deq, 1);
	assert_int_equal(lg.in_enq, XDBC_SLOTS);
	old_in_completes(&nd, 1, "cd");
	assert_int_equal(read_all(&nd, &lg, buf, 60), 3);
	assert_string_equal(buf, "bcd");
	assert_false(xdbc_legacy_done(&nd, &lg));
	/* the last old one completes; a new IN one's bytes come after it */
	old_in_completes(&nd, 3, "ef");		/* 2 got no event: its bytes are lost */
	xdbc_poll(&nd);
	new_completes(&nd, &nd.in, XDBC_EP_IN, "gh");
	assert_int_equal(read_all(&nd, &lg, buf, 60), 4);
	assert_string_equal(buf, "efgh");
	assert_int_equal(lg.lost, 1);
	assert_false(xdbc_legacy_done(&nd, &lg));	/* no new OUT TRB completed yet */
	xdbc_putc(&nd, 'x');
	xdbc_flush(&nd);
	new_completes(&nd, &nd.out, XDBC_EP_OUT, NULL);
	xdbc_poll(&nd);
	assert_true(xdbc_legacy_done(&nd, &lg));
	assert_null(lg.mem);
	assert_false(xdbc_legacy_done(&nd, &lg));	/* once */
}

/*
 * Several IN buffers done and unread at the handoff, one still posted in
 * between: the first (from its read position) and the second are carried
 * at once, in order; the one done behind the posted one waits for it (the
 * bytes come in the order the far host sent them).  (A copy of the first
 * case only, two buffers, went unnoticed when the second was dropped.)
 */
static void test_adopt_several_unread(void **unused)
{
	struct xdbc_dev d, nd;
	struct xdbc_legacy lg;
	struct ekdb_transport_state st;
	char buf[64];

	early_dev(&d);
	memcpy(oldm.inbuf[0], "ab", 2);
	memcpy(oldm.inbuf[1], "cd", 2);
	memcpy(oldm.inbuf[3], "gh", 2);
	d.in_state[0] = d.in_state[1] = d.in_state[3] = SLOT_DONE;
	d.in_len[0] = d.in_len[1] = d.in_len[3] = 2;
	d.in_pos = 1;
	export(&d, &st);
	new_dev(&nd, &lg);
	xdbc_adopt(&nd, &lg, &st);

	assert_int_equal(lg.in_deq, 2);			/* 0 and 1 carried */
	assert_int_equal(lg.in_done_len[2], -1);	/* still the controller's */
	assert_int_equal(lg.in_done_len[3], 2);		/* done, behind it */
	assert_int_equal(read_all(&nd, &lg, buf, 60), 3);
	assert_string_equal(buf, "bcd");
	old_in_completes(&nd, 2, "ef");
	assert_int_equal(read_all(&nd, &lg, buf, 60), 4);
	assert_string_equal(buf, "efgh");
	assert_int_equal(lg.lost, 0);
}

static void test_cycle_toggled_bridge(void **unused)
{
	struct xdbc_dev d, nd;
	struct xdbc_legacy lg;
	struct ekdb_transport_state st;

	early_dev(&d);
	/* the OUT ring wrapped once: producer cycle 0 */
	for (unsigned i = 0; i < XDBC_XFER_TRBS - 1; i++) {
		xhci_ring_push(&d.out, OLD_PHYS + offsetof(struct xdbc_mem, outbuf), 1,
			       TRB_TYPE(TRB_NORMAL));
		xhci_ring_pop(&d.out);
	}
	assert_int_equal(d.out.cycle, 0);
	export(&d, &st);
	new_dev(&nd, &lg);
	xdbc_adopt(&nd, &lg, &st);
	assert_int_equal(oldm.out[0].ctrl & (TRB_C | TRB_TC), TRB_TC);	/* cycle 0, toggle to 1 */
}

static void test_never_loaded(void **unused)
{
	struct xdbc_dev d, nd;
	struct xdbc_legacy lg;
	struct ekdb_transport_state st;

	early_dev(&d);
	d.configured = false;
	d.reconfigured = 0;
	regs[DBC_DCCTRL / 4] = DCCTRL_DCE;
	/* output queued before the far host came: "hi" on the old OUT ring */
	memcpy(oldm.outbuf[0], "hi", 2);
	xhci_ring_push(&d.out, OLD_PHYS + offsetof(struct xdbc_mem, outbuf), 2,
		       TRB_TYPE(TRB_NORMAL) | TRB_IOC);
	export(&d, &st);
	assert_false(st.u.xdbc.loaded);
	new_dev(&nd, &lg);
	xdbc_adopt(&nd, &lg, &st);
	assert_int_not_equal(TRB_GET_TYPE(oldm.out[1].ctrl), TRB_LINK);	/* no bridge */
	assert_int_equal(nd.out.enq, 1);				/* queued again */
	assert_memory_equal(newm.outbuf[0], "hi", 2);
	assert_int_equal(nd.out.trbs[0].status & 0x1ffff, 2);
	assert_int_equal(lg.in_deq, lg.in_enq);				/* nothing owed */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_checked),
		cmocka_unit_test(test_adopt_moves_everything),
		cmocka_unit_test(test_adopt_several_unread),
		cmocka_unit_test(test_cycle_toggled_bridge),
		cmocka_unit_test(test_never_loaded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
