/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dbgp.h - the EHCI USB debug port (EHCI 1.0 Appendix C) and the USB 2.0
 * debug device behind it: register layout, the device state that moves
 * to a successor driver, and the transaction layer (dbgp_xfer.c) and
 * bring-up (dbgp_port.c), which reach the hardware only through
 * struct dbgp_io so the host tests run them against a register mock.
 */
#ifndef IO_EHCI_DBGP_H
#define IO_EHCI_DBGP_H

#include <ekdb/types.h>

/* capability registers (BAR offsets) */
#define EHCI_CAPLENGTH		0x00	/* 8 bits; HCIVERSION in 31:16 */
#define EHCI_HCSPARAMS		0x04
#define  HCS_N_PORTS(p)		((p) & 0xf)
#define  HCS_DEBUG_PORT(p)	(((p) >> 20) & 0xf)
#define EHCI_HCCPARAMS		0x08
#define  HCC_EECP(p)		(((p) >> 8) & 0xff)
/* operational registers (offsets from CAPLENGTH) */
#define EHCI_USBCMD		0x00
#define  CMD_RUN		(1u << 0)
#define  CMD_HCRESET		(1u << 1)
#define  CMD_PSE		(1u << 4)
#define  CMD_ASE		(1u << 5)
#define EHCI_USBSTS		0x04
#define  STS_HALT		(1u << 12)
#define  STS_PSS		(1u << 14)
#define  STS_ASS		(1u << 15)
#define EHCI_CONFIGFLAG		0x40
#define EHCI_PORTSC(n)		(0x44 + 4 * ((n) - 1))	/* n: 1-based port number */
#define  PORT_CCS		(1u << 0)
#define  PORT_CSC		(1u << 1)
#define  PORT_PE		(1u << 2)
#define  PORT_PEC		(1u << 3)
#define  PORT_OCC		(1u << 5)
#define  PORT_PR		(1u << 8)
#define  PORT_LS(p)		(((p) >> 10) & 3)
#define  PORT_PP		(1u << 12)
#define  PORT_PO		(1u << 13)
#define  PORT_RWC		(PORT_CSC | PORT_PEC | PORT_OCC)
/* debug port registers (offsets from the debug port base) */
#define DBGP_CTRL		0x00
#define  DBGP_OWNER		(1u << 30)
#define  DBGP_ENABLED		(1u << 28)
#define  DBGP_DONE		(1u << 16)
#define  DBGP_INUSE		(1u << 10)
#define  DBGP_EXCEPTION(c)	(((c) >> 7) & 7)
#define  DBGP_ERROR		(1u << 6)
#define  DBGP_GO		(1u << 5)
#define  DBGP_OUT		(1u << 4)
#define  DBGP_LEN(c)		((c) & 0xf)
#define  DBGP_CLAIM		(DBGP_OWNER | DBGP_ENABLED | DBGP_INUSE)
#define DBGP_PIDS		0x04
#define  DBGP_PID_RECEIVED(p)	(((p) >> 16) & 0xff)
#define DBGP_DATA		0x08
#define DBGP_ADDR		0x10
#define  DBGP_EPADDR(dev, ep)	(((u32)(dev) << 8) | (ep))

/* USB PIDs as the debug port reads and writes them */
#define USB_PID_SETUP		0x2d
#define USB_PID_IN		0x69
#define USB_PID_OUT		0xe1
#define USB_PID_DATA0		0xc3
#define USB_PID_DATA1		0x4b
#define USB_PID_ACK		0xd2
#define USB_PID_NAK		0x5a
#define USB_PID_STALL		0x1e
#define USB_PID_NYET		0x96

#define DBGP_DEVNUM		127	/* the address a debug device is given */
#define DBGP_MAXP		8
/*
 * Empty reads that make a pause (struct ekdb_transport.quiet_polls): each
 * is a bus transaction (0.1-0.3 ms, more under an emulator), so 200 make
 * tens of ms where a serial port needs 20000 register reads.
 */
#define DBGP_QUIET_POLLS	200UL

/*
 * How the code reaches the controller: @read/@write take a byte offset in
 * the controller's register BAR; @now_us is a calibrated monotonic clock.
 */
struct dbgp_io {
	u32 (*read)(struct dbgp_io *io, u32 off);
	void (*write)(struct dbgp_io *io, u32 off, u32 val);
	u64 (*now_us)(struct dbgp_io *io);
	void *priv;
};

/*
 * The device state: everything a successor driver needs to go on talking
 * to the debug device without enumerating it again (dbgp_export/import).
 */
struct dbgp_state {
	u32 magic;			/* DBGP_STATE_MAGIC when valid */
	u8 bus, slot, func;		/* the controller's PCI location */
	u8 port;			/* the debug port's root port number */
	u64 bar_phys;			/* register BAR (physical) */
	u32 op_off;			/* operational registers (CAPLENGTH) */
	u32 dbgp_off;			/* debug port registers in the BAR */
	u8 devnum;			/* device address (127) */
	u8 ep_out, ep_in;		/* endpoint numbers */
	u8 tog_out, tog_in;		/* next data toggle on each bulk endpoint */
	u8 pending_len, pending_pos;	/* received but not yet read bytes */
	u8 pending[DBGP_MAXP];
};
#define DBGP_STATE_MAGIC	0x70676264	/* "dbgp" */

/* Time budgets (microseconds), measured with the calibrated clock. */
#define DBGP_TXN_BUDGET_US	20000	/* one transaction's DONE (hardware: < 1 ms) */
#define DBGP_CTRL_BUDGET_US	500000	/* a whole control transfer, NAKs included */
#define DBGP_OUT_BUDGET_US	100000	/* a bulk OUT packet NAKed this long: peer not reading */
#define DBGP_OUT_STUCK_US	2000	/* ...and while it stays so */
#define DBGP_ERR_RETRIES	3	/* transaction errors in a row before "device gone" */

struct dbgp_dev {
	struct dbgp_io *io;
	struct dbgp_state st;
	bool out_stuck;			/* the last OUT timed out on NAKs */
	u32 stats_naks, stats_errors, stats_dups;
};

/* dbgp_xfer.c: transactions (return >= 0, or -EKDB_E*) */
int dbgp_bulk_write(struct dbgp_dev *d, const u8 *buf, unsigned len);
int dbgp_bulk_read(struct dbgp_dev *d, u8 *buf, unsigned max);
int dbgp_control_msg(struct dbgp_dev *d, u8 devnum, u8 reqtype, u8 req, u16 value,
		     u16 index, u8 *data, u16 len);

/* dbgp_port.c: controller, port and device bring-up on a mapped controller */
int dbgp_hc_start(struct dbgp_dev *d, bool *reused);
int dbgp_port_reset(struct dbgp_dev *d);
int dbgp_enumerate(struct dbgp_dev *d);
bool dbgp_device_alive(struct dbgp_dev *d);
int dbgp_bring_up(struct dbgp_dev *d, bool *reused);
int dbgp_restart(struct dbgp_dev *d, bool *enumerated);

/*
 * dbgp_takeover.c: the device state as the handoff carries it
 * (struct ekdb_transport_state, kind EKDB_TRANSPORT_DBGP), and back.
 * Import checks every field and that the registers are where the
 * successor's own PCI access finds them (@bar_phys + @dbgp_off).
 */
struct ekdb_transport_state;
void dbgp_state_export(const struct dbgp_state *s, struct ekdb_transport_state *st);
int dbgp_state_import(const struct ekdb_transport_state *st, u64 bar_phys, u32 dbgp_off,
		      u32 op_off, struct dbgp_state *out);

#endif
