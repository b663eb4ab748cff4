/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xdbc.h - the xHCI Debug Capability (xHCI 1.1 section 7.6): registers,
 * the DbC context, its DMA block and the device (xdbc_dev.c; the TRBs and
 * rings are the xHCI ones: ../xhci/xhci.h), which reaches the hardware only through
 * struct xdbc_io so the host tests can run it against a mock.
 */
#ifndef IO_XHCI_DBC_H
#define IO_XHCI_DBC_H

#include "../xhci/xhci.h"

/* DbC registers (offsets from the capability) */
#define DBC_DCID		0x00
#define  DCID_ERST_MAX(v)	(((v) >> 16) & 0x1f)
#define DBC_DCDB		0x04
#define  DCDB_TARGET(t)		((u32)(t) << 8)
#define DBC_DCERSTSZ		0x08
#define DBC_DCERSTBA		0x10
#define DBC_DCERDP		0x18
#define  ERDP_EHB		(1u << 3)
#define DBC_DCCTRL		0x20
#define  DCCTRL_DCR		(1u << 0)	/* DbC run: configured by the far host */
#define  DCCTRL_LSE		(1u << 1)	/* link status events */
#define  DCCTRL_HOT		(1u << 2)	/* OUT ring halted */
#define  DCCTRL_HIT		(1u << 3)	/* IN ring halted */
#define  DCCTRL_DRC		(1u << 4)	/* DCR changed (write 1 to clear) */
#define  DCCTRL_DCE		(1u << 31)	/* DbC enable */
#define DBC_DCST		0x24
#define  DCST_ER		(1u << 0)
#define  DCST_PORT(v)		(((v) >> 24) & 0xff)
#define DBC_DCPORTSC		0x28
#define  DCPORTSC_CCS		(1u << 0)
#define  DCPORTSC_PED		(1u << 1)
#define  DCPORTSC_CHANGE	((1u << 17) | (1u << 21) | (1u << 22) | (1u << 23))
#define  DCPORTSC_CSC		(1u << 17)
#define  DCPORTSC_PRC		(1u << 21)
#define DBC_DCCP		0x30
#define DBC_DCDDI1		0x38
#define DBC_DCDDI2		0x3c
#define DBC_REGS_LEN		0x40

/* Endpoint IDs of the DbC's transfer events: 0/1 by section 7.6.3.2, 2/3 on Intel (as Linux notes) */
#define XDBC_EP_OUT		0
#define XDBC_EP_IN		1
#define XDBC_DB_OUT		0
#define XDBC_DB_IN		1

/* The DbC context: info, OUT endpoint, IN endpoint (64 bytes each). */
struct xdbc_info_ctx {
	u64 string0, manufacturer, product, serial;
	u32 length;
	u32 rsvd[7];
};
struct xdbc_ep_ctx {
	u32 info1, info2;
	u64 deq;
	u32 tx_info;
	u32 rsvd[11];
};
struct xdbc_ctx {
	struct xdbc_info_ctx info;
	struct xdbc_ep_ctx out, in;
};
#define EP_TYPE_BULK_OUT	2
#define EP_TYPE_BULK_IN		6
#define XDBC_MAXP		1024


/* Ring and buffer sizes: the early storage the DbC costs. */
#define XDBC_EVT_TRBS		64
#define XDBC_XFER_TRBS		16	/* 15 usable + the Link TRB */
#define XDBC_SLOTS		4	/* buffers per direction, each XDBC_MAXP bytes */
#define XDBC_STRING_MAX		64

/*
 * Everything the controller reads or writes by DMA, in one block: every
 * part aligned to its own (power-of-two) size, so none crosses a 64 KiB
 * boundary (xHCI 4.11.5.1, 6.5) and the rings and ERST have the
 * alignment section 6 asks for.
 */
struct xdbc_mem {
	struct xhci_trb evt[XDBC_EVT_TRBS] __aligned(1024);
	struct xhci_trb out[XDBC_XFER_TRBS] __aligned(256);
	struct xhci_trb in[XDBC_XFER_TRBS] __aligned(256);
	struct xhci_erst_entry erst __aligned(64);
	struct xdbc_ctx ctx __aligned(64);
	u8 strings[4][XDBC_STRING_MAX] __aligned(256);
	u8 outbuf[XDBC_SLOTS][XDBC_MAXP] __aligned(4096);
	u8 inbuf[XDBC_SLOTS][XDBC_MAXP] __aligned(4096);
};

/* How the device code reaches the DbC registers and time. */
struct xdbc_io {
	u32 (*read)(struct xdbc_io *io, u32 off);
	void (*write)(struct xdbc_io *io, u32 off, u32 val);
	u64 (*now_us)(struct xdbc_io *io);
	void *priv;
};

enum xdbc_slot_state { SLOT_FREE, SLOT_POSTED, SLOT_DONE };
#define XDBC_NO_SLOT		0xff

struct xdbc_dev {
	struct xdbc_io *io;
	struct xdbc_mem *mem;
	u64 mem_phys;
	struct xhci_ring evt, out, in;
	u32 erdp_hi;
	bool enabled;			/* DCE set by us */
	bool configured;		/* DCR: the far host configured the device */
	bool out_stuck;			/* the last OUT waited its budget out */
	u8 port;			/* root port (DCST) */
	/* OUT: one buffer filling, the others in flight */
	u8 out_fill;			/* XDBC_NO_SLOT: none free (output dropped) */
	u8 out_next;			/* where to look for the next free buffer */
	u16 out_len;
	u8 out_state[XDBC_SLOTS];
	u8 out_slot_of[XDBC_XFER_TRBS];
	/* IN: every free buffer posted; read oldest first */
	u8 in_state[XDBC_SLOTS];
	u16 in_len[XDBC_SLOTS];
	u8 in_slot_of[XDBC_XFER_TRBS];
	u8 in_head;
	u16 in_pos;
	u16 in_wait;			/* polls the oldest buffer stayed posted behind a done one */
	u64 ctrl_at;			/* next DCCTRL read */
	unsigned evt_unacked;		/* events read since DCERDP was last written */
	bool out_db_pending;		/* OUT TRBs queued since the last OUT doorbell */
	bool in_db_pending;		/* an IN buffer reposted since the last IN doorbell */
	/*
	 * foreign - a Transfer Event for a TRB outside this instance's rings
	 * (the rings a predecessor left the controller on: xdbc_takeover.c);
	 * returns true when it took the event.  NULL: such events are stale.
	 */
	bool (*foreign)(struct xdbc_dev *d, u64 trb, u32 status, u32 ctrl);
	void *priv;
	/* counters */
	unsigned long ev_transfer, ev_port, ev_stale, stalls, lost, dropped, reconfigured;
};

/* Budgets (microseconds of the calibrated clock) */
#define XDBC_DCE_US		100000	/* DCE to read back */
#define XDBC_CONFIGURE_US	2000000	/* cable and far host at bring-up */
#define XDBC_OUT_US		100000	/* a free OUT buffer; then the far host is not reading */
#define XDBC_OUT_STUCK_US	2000	/* ...and while it stays so */
#define XDBC_LOST_POLLS		64	/* a buffer whose event never came: lost */
#define XDBC_CTRL_US		20000	/* DCCTRL read this often while configured... */
#define XDBC_CTRL_IDLE_US	1000	/* ...and while waiting for the far host */
#define XDBC_QUIET_POLLS	2000UL	/* struct ekdb_transport.quiet_polls */

/*
 * The rings a predecessor left the controller on (xdbc_takeover.c): the
 * TRBs the controller still owns there are not taken back (the DbC has no
 * command to), so their completions arrive as foreign events; bytes they
 * bring, and the bytes the predecessor had not read, wait in @fifo and are
 * read first.  Once the controller has left both old rings (a TRB of each
 * new ring completed) the old block is no longer used.
 */
struct xdbc_legacy {
	struct xdbc_mem *mem;		/* the predecessor's block; NULL: released */
	u64 phys;
	u8 out_deq, out_enq;		/* old OUT TRBs still the controller's: [deq, enq) */
	u8 in_deq, in_enq;		/* old IN TRBs still the controller's */
	s16 in_done_len[XDBC_XFER_TRBS];	/* -1, or bytes it brought before the handoff */
	u8 *fifo;			/* bytes to read before the new rings' */
	u16 fifo_cap, fifo_len, fifo_pos;
	bool released;			/* set once, when the old block was let go */
	unsigned long events, carried, lost;
};

/* xdbc_takeover.c */
struct ekdb_transport_state;
void xdbc_state_export(const struct xdbc_dev *d, struct ekdb_transport_state *st);
/* 0, -EKDB_EINVAL (malformed), -EKDB_ENODEV (not the DbC at @regs_phys). */
int xdbc_state_check(const struct ekdb_transport_state *st, u64 regs_phys);
/*
 * Continue the predecessor's DbC on @nd's block (io, mem, mem_phys set;
 * @lg's fifo set): new rings, bridged from the old ones by Link TRBs, the
 * event ring and context moved, the unread bytes kept.  No re-enumeration.
 */
void xdbc_adopt(struct xdbc_dev *nd, struct xdbc_legacy *lg, const struct ekdb_transport_state *st);
/* After a poll: has the controller left the old block?  True once, when it just did. */
bool xdbc_legacy_done(struct xdbc_dev *nd, struct xdbc_legacy *lg);
/* The old rings are void (the DbC was reset and set up anew): let the block go. */
void xdbc_legacy_drop(struct xdbc_legacy *lg);
/* A byte carried over (the predecessor's unread ones first), or EKDB_NO_CHAR. */
int xdbc_legacy_getc(struct xdbc_legacy *lg);
/* Keep the unread bytes of @d's IN buffers (before xdbc_start() wipes them). */
void xdbc_keep_unread(struct xdbc_dev *d, struct xdbc_legacy *lg);

/* xdbc_dev.c */
void xdbc_mem_init(struct xdbc_dev *d);
/* Disable, lay out, enable; wait up to @wait_us for the far host (-EKDB_EAGAIN: not yet). */
int xdbc_start(struct xdbc_dev *d, u64 wait_us);
void xdbc_poll(struct xdbc_dev *d);
int xdbc_getc(struct xdbc_dev *d);
void xdbc_putc(struct xdbc_dev *d, u8 c);
void xdbc_write(struct xdbc_dev *d, const u8 *buf, size_t n);
/* Queue the buffer being filled and ring the OUT doorbell once for all queued TRBs. */
void xdbc_flush(struct xdbc_dev *d);
/* Nothing to read: make the register writes put off (DCERDP, IN doorbell). */
void xdbc_idle(struct xdbc_dev *d);
u64 xdbc_phys(const struct xdbc_dev *d, const volatile void *p);

#endif
