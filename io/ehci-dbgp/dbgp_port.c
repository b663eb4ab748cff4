/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dbgp_port.c - bring the debug port up on a mapped EHCI controller, in
 * the order of Linux's ehci-dbgp.c, with calibrated waits:
 *   1. reuse: the port is claimed and enabled and a debug device answers
 *      at 127 (an earlier stage set it up): take it as it is (only set
 *      RUN again if firmware stopped the controller);
 *   2. stop the schedules firmware left running (they point into memory
 *      the kernel is about to reuse), claim the debug port (OWNER), reset
 *      the controller only if it is stopped in a used state, run it, and
 *      route every port to it (CONFIGFLAG);
 *   3. reset the debug port's root port (50 ms), which must come out
 *      enabled (a debug device is high-speed);
 *   4. enable the debug port and take the root port from the normal
 *      controller; find the device (GET_DESCRIPTOR(DEBUG) at 0, then at
 *      127), SET_ADDRESS(127), SET_FEATURE(DEBUG_MODE), and clear both
 *      bulk endpoints' halt so both data toggles are known to be DATA0.
 * And after the EHCI driver reset the controller (dbgp_restart): run it
 * again and keep the device as it is when the port survived the reset.
 * Static storage only; the hardware through struct dbgp_io.
 */
#include "dbgp.h"
#include <ekdb/errno.h>

#define USB_REQ_CLEAR_FEATURE	1
#define USB_REQ_SET_FEATURE	3
#define USB_REQ_SET_ADDRESS	5
#define USB_REQ_GET_DESCRIPTOR	6
#define USB_DT_DEBUG		10
#define USB_FEATURE_DEBUG_MODE	6
#define USB_FEATURE_EP_HALT	0

#define PORT_RESET_US		50000	/* USB 2.0 7.1.7.5: root port reset >= 50 ms */
#define PORT_RESET_END_US	20000	/* EHCI: PR reads 0 within 2 ms of the write */
#define HC_HALT_US		20000	/* EHCI: halted within 16 micro-frames */
#define HC_RESET_US		250000
#define SCHED_STOP_US		20000

static u32 op_rd(struct dbgp_dev *d, u32 reg)
{
	return d->io->read(d->io, d->st.op_off + reg);
}

static void op_wr(struct dbgp_dev *d, u32 reg, u32 v)
{
	d->io->write(d->io, d->st.op_off + reg, v);
}

static u32 dp_rd(struct dbgp_dev *d, u32 reg)
{
	return d->io->read(d->io, d->st.dbgp_off + reg);
}

static void dp_wr(struct dbgp_dev *d, u32 reg, u32 v)
{
	d->io->write(d->io, d->st.dbgp_off + reg, v);
}

static void delay_us(struct dbgp_dev *d, u64 us)
{
	u64 start = d->io->now_us(d->io);

	while (d->io->now_us(d->io) - start < us)
		;
}

/* Wait until (op register @reg & @mask) == @want; 0 or -EKDB_ETIMEDOUT. */
static int op_wait(struct dbgp_dev *d, u32 reg, u32 mask, u32 want, u64 budget)
{
	u64 start = d->io->now_us(d->io);

	for (;;) {
		if ((op_rd(d, reg) & mask) == want)
			return 0;
		if (d->io->now_us(d->io) - start > budget)
			return -EKDB_ETIMEDOUT;
	}
}

/* Both bulk endpoints back to DATA0 on the device and here. */
static int reset_toggles(struct dbgp_dev *d)
{
	int r = dbgp_control_msg(d, d->st.devnum, 0x02, USB_REQ_CLEAR_FEATURE, USB_FEATURE_EP_HALT,
				 d->st.ep_out, NULL, 0);

	if (!r)
		r = dbgp_control_msg(d, d->st.devnum, 0x02, USB_REQ_CLEAR_FEATURE,
				     USB_FEATURE_EP_HALT, 0x80 | d->st.ep_in, NULL, 0);
	if (!r)
		d->st.tog_out = d->st.tog_in = 0;
	return r;
}

static int get_debug_desc(struct dbgp_dev *d, u8 devnum)
{
	u8 desc[4];
	int r = dbgp_control_msg(d, devnum, 0x80, USB_REQ_GET_DESCRIPTOR, USB_DT_DEBUG << 8, 0,
				 desc, sizeof(desc));

	if (r < 0)
		return r;
	if (r != 4 || desc[0] < 4 || desc[1] != USB_DT_DEBUG || !(desc[2] & 0x80) ||
	    (desc[3] & 0x80) || !(desc[2] & 0xf) || !(desc[3] & 0xf))
		return -EKDB_ENODEV;
	d->st.ep_in = desc[2] & 0xf;
	d->st.ep_out = desc[3] & 0xf;
	return 0;
}

/**
 * dbgp_device_alive - does a debug device answer at address 127 on an
 * enabled debug port?  (Fills in its endpoints.)
 */
bool dbgp_device_alive(struct dbgp_dev *d)
{
	u32 ctrl = dp_rd(d, DBGP_CTRL);

	if ((ctrl & (DBGP_OWNER | DBGP_ENABLED)) != (DBGP_OWNER | DBGP_ENABLED))
		return false;
	return get_debug_desc(d, DBGP_DEVNUM) == 0;
}

/**
 * dbgp_hc_start - make the controller run with the debug port claimed.
 * *@reused: the port was already set up (nothing else to do).
 */
int dbgp_hc_start(struct dbgp_dev *d, bool *reused)
{
	u32 cmd = op_rd(d, EHCI_USBCMD), sts, ctrl;
	int r;

	*reused = false;
	ctrl = dp_rd(d, DBGP_CTRL);
	if ((ctrl & (DBGP_OWNER | DBGP_ENABLED)) == (DBGP_OWNER | DBGP_ENABLED)) {
		/* claimed by an earlier stage; the firmware may have stopped the controller */
		if (!(cmd & CMD_RUN)) {
			op_wr(d, EHCI_USBCMD, (cmd & ~(CMD_PSE | CMD_ASE)) | CMD_RUN);
			op_wr(d, EHCI_CONFIGFLAG, 1);
			r = op_wait(d, EHCI_USBSTS, STS_HALT, 0, HC_HALT_US);
			if (r)
				return r;
			cmd = op_rd(d, EHCI_USBCMD);
		}
		if (dbgp_device_alive(d)) {
			d->st.devnum = DBGP_DEVNUM;
			*reused = true;
			return 0;
		}
	}
	if (cmd & (CMD_PSE | CMD_ASE)) {
		op_wr(d, EHCI_USBCMD, cmd & ~(CMD_PSE | CMD_ASE));
		r = op_wait(d, EHCI_USBSTS, STS_PSS | STS_ASS, 0, SCHED_STOP_US);
		if (r)
			return r;
		cmd &= ~(CMD_PSE | CMD_ASE);
	}
	/* claim the port (not enabled yet): firmware drivers leave an owned port alone */
	dp_wr(d, DBGP_CTRL, (ctrl | DBGP_OWNER) & ~(DBGP_ENABLED | DBGP_INUSE | DBGP_GO));
	sts = op_rd(d, EHCI_USBSTS);
	if (!(cmd & CMD_RUN) && (sts & STS_HALT) && op_rd(d, EHCI_CONFIGFLAG)) {
		/* stopped after use: start from a clean controller */
		op_wr(d, EHCI_USBCMD, cmd | CMD_HCRESET);
		r = op_wait(d, EHCI_USBCMD, CMD_HCRESET, 0, HC_RESET_US);
		if (r)
			return r;
		cmd = op_rd(d, EHCI_USBCMD);
		ctrl = dp_rd(d, DBGP_CTRL);
		dp_wr(d, DBGP_CTRL, (ctrl | DBGP_OWNER) & ~(DBGP_ENABLED | DBGP_INUSE | DBGP_GO));
	} else if ((cmd & CMD_RUN) == 0 && !(sts & STS_HALT)) {
		r = op_wait(d, EHCI_USBSTS, STS_HALT, STS_HALT, HC_HALT_US);
		if (r)
			return r;
	}
	op_wr(d, EHCI_USBCMD, cmd | CMD_RUN);
	op_wr(d, EHCI_CONFIGFLAG, 1);		/* every port to EHCI, none to companions */
	return op_wait(d, EHCI_USBSTS, STS_HALT, 0, HC_HALT_US);
}

/** dbgp_port_reset - reset the debug port's root port; 0 when it came out enabled. */
int dbgp_port_reset(struct dbgp_dev *d)
{
	u32 reg = EHCI_PORTSC(d->st.port), p = op_rd(d, reg);
	int r;

	if (!(p & PORT_CCS))
		return -EKDB_ENODEV;
	op_wr(d, reg, (p & ~(PORT_RWC | PORT_PE)) | PORT_PR);
	delay_us(d, PORT_RESET_US);
	p = op_rd(d, reg);
	op_wr(d, reg, p & ~(PORT_RWC | PORT_PR));
	r = op_wait(d, reg, PORT_PR, 0, PORT_RESET_END_US);
	if (r)
		return r;
	p = op_rd(d, reg);
	op_wr(d, reg, p);			/* acknowledge the change bits */
	if (!(p & PORT_CCS))
		return -EKDB_ENODEV;
	return p & PORT_PE ? 0 : -EKDB_EIO;	/* not enabled: not a high-speed device */
}

/** dbgp_enumerate - enable the debug port and set the debug device up at 127. */
int dbgp_enumerate(struct dbgp_dev *d)
{
	u32 reg = EHCI_PORTSC(d->st.port), ctrl, p;
	u8 devnum = 0;
	int r;

	ctrl = dp_rd(d, DBGP_CTRL);
	dp_wr(d, DBGP_CTRL, (ctrl | DBGP_CLAIM) & ~DBGP_GO);
	ctrl = dp_rd(d, DBGP_CTRL);
	if ((ctrl & DBGP_CLAIM) != DBGP_CLAIM) {
		dp_wr(d, DBGP_CTRL, ctrl & ~(DBGP_CLAIM | DBGP_GO));
		return -EKDB_ENODEV;
	}
	p = op_rd(d, reg);			/* the debug port has it now */
	op_wr(d, reg, p & ~(PORT_RWC | PORT_PE));

	r = get_debug_desc(d, 0);
	if (r) {
		devnum = DBGP_DEVNUM;		/* left in debug mode at 127? */
		r = get_debug_desc(d, devnum);
	}
	if (r)
		return r;
	if (devnum != DBGP_DEVNUM) {
		r = dbgp_control_msg(d, 0, 0x00, USB_REQ_SET_ADDRESS, DBGP_DEVNUM, 0, NULL, 0);
		if (r)
			return r;
	}
	d->st.devnum = DBGP_DEVNUM;
	r = dbgp_control_msg(d, DBGP_DEVNUM, 0x00, USB_REQ_SET_FEATURE, USB_FEATURE_DEBUG_MODE,
			     0, NULL, 0);
	if (r)
		return r;
	return reset_toggles(d);
}

/**
 * dbgp_bring_up - controller, port, device; a port that does not come up
 * is tried three times.  *@reused: an earlier stage had set it all up.
 */
int dbgp_bring_up(struct dbgp_dev *d, bool *reused)
{
	int r = dbgp_hc_start(d, reused);

	if (r)
		return r;
	if (*reused)
		return reset_toggles(d);	/* their toggles are unknown: start at DATA0 */
	for (int tries = 0; tries < 3; tries++) {
		r = dbgp_port_reset(d);
		if (r == -EKDB_ENODEV)
			return r;		/* nothing plugged in */
		if (!r)
			r = dbgp_enumerate(d);
		if (!r)
			return 0;
	}
	return r;
}

/**
 * dbgp_restart - after the EHCI driver reset the controller (Linux's
 * dbgp_external_startup): run it again (RUN, every port to EHCI) and, if
 * the debug port is still claimed and enabled and the device answers at
 * its address, keep everything as it is: no port reset, no enumeration,
 * the data toggles unchanged.  Only when the reset took the port down
 * (some chipsets) is it brought up anew (*@enumerated).
 */
int dbgp_restart(struct dbgp_dev *d, bool *enumerated)
{
	u32 cmd = op_rd(d, EHCI_USBCMD), ctrl;
	bool reused;
	int r;

	*enumerated = false;
	if (!(cmd & CMD_RUN) || (op_rd(d, EHCI_USBSTS) & STS_HALT)) {
		op_wr(d, EHCI_USBCMD, (cmd & ~(CMD_PSE | CMD_ASE | CMD_HCRESET)) | CMD_RUN);
		r = op_wait(d, EHCI_USBSTS, STS_HALT, 0, HC_HALT_US);
		if (r)
			return r;
	}
	if (!op_rd(d, EHCI_CONFIGFLAG))
		op_wr(d, EHCI_CONFIGFLAG, 1);
	ctrl = dp_rd(d, DBGP_CTRL);
	if ((ctrl & (DBGP_OWNER | DBGP_ENABLED)) == (DBGP_OWNER | DBGP_ENABLED) &&
	    get_debug_desc(d, d->st.devnum) == 0) {
		if ((ctrl & DBGP_CLAIM) != DBGP_CLAIM)
			dp_wr(d, DBGP_CTRL, (ctrl | DBGP_CLAIM) & ~(DBGP_GO | DBGP_DONE));
		return 0;
	}
	r = dbgp_bring_up(d, &reused);
	if (!r)
		*enumerated = !reused;
	return r;
}
