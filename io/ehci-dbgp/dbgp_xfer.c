/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dbgp_xfer.c - transactions on the EHCI debug port: one SETUP, IN or OUT
 * of up to 8 bytes at a time (EHCI 1.0, Appendix C), and the transfers
 * built of them: bulk OUT/IN with one data toggle per endpoint, control
 * transfers with their data and status stages.
 *
 * Every wait has a budget in microseconds of a calibrated clock: a NAK is
 * retried until the budget is spent, a transaction error (the device did
 * not answer) a few times before the device counts as gone.  A received
 * DATA PID that repeats the previous toggle is a packet we already have
 * (the device missed our ACK): dropped.  Static storage only; the hardware
 * is reached through struct dbgp_io (host tests use a register mock).
 */
#include "dbgp.h"
#include <ekdb/errno.h>
#include <ekdb/string.h>

static u32 rd(struct dbgp_dev *d, u32 reg)
{
	return d->io->read(d->io, d->st.dbgp_off + reg);
}

static void wr(struct dbgp_dev *d, u32 reg, u32 v)
{
	d->io->write(d->io, d->st.dbgp_off + reg, v);
}

static u64 now(struct dbgp_dev *d)
{
	return d->io->now_us(d->io);
}

static u8 data_pid(u8 toggle)
{
	return toggle ? USB_PID_DATA1 : USB_PID_DATA0;
}

/*
 * One transaction: token @pid with data PID @send_pid to @devnum/@ep,
 * @len bytes (already in the data registers for OUT/SETUP).  Returns the
 * received PID (ACK/NAK/STALL/NYET, or DATAx for IN with *@rlen set),
 * -EKDB_EIO on a transaction error (no answer), -EKDB_EFAULT on a
 * hardware error, -EKDB_ETIMEDOUT if DONE never came.
 */
static int txn(struct dbgp_dev *d, u8 devnum, u8 ep, u8 pid, u8 send_pid,
	       unsigned len, unsigned *rlen)
{
	bool out = pid != USB_PID_IN, restarted = false;
	u32 ctrl, pids, cmd;
	u64 start;

again:
	wr(d, DBGP_ADDR, DBGP_EPADDR(devnum, ep));
	wr(d, DBGP_PIDS, (u32)send_pid << 8 | pid);
	ctrl = rd(d, DBGP_CTRL) & (DBGP_OWNER | DBGP_ENABLED | DBGP_INUSE);
	ctrl |= (out ? DBGP_OUT : 0) | (len & 0xf);
	wr(d, DBGP_CTRL, ctrl | DBGP_GO);
	start = now(d);
	for (;;) {
		ctrl = rd(d, DBGP_CTRL);
		if (ctrl & DBGP_DONE)
			break;
		if (now(d) - start > DBGP_TXN_BUDGET_US)
			return -EKDB_ETIMEDOUT;
	}
	wr(d, DBGP_CTRL, ctrl & ~DBGP_GO);	/* DONE is write-1-to-clear */
	if (ctrl & DBGP_ERROR) {
		d->stats_errors++;
		if (DBGP_EXCEPTION(ctrl) == 1)
			return -EKDB_EIO;
		/*
		 * A hardware error: the debug port needs a running controller;
		 * someone (firmware, a driver) may have stopped it.  Run it again
		 * once, as Linux's early_dbgp_write() does.
		 */
		cmd = d->io->read(d->io, d->st.op_off + EHCI_USBCMD);
		if (restarted || (cmd & CMD_RUN))
			return -EKDB_EFAULT;
		d->io->write(d->io, d->st.op_off + EHCI_USBCMD, cmd | CMD_RUN);
		restarted = true;
		start = now(d);
		while (d->io->read(d->io, d->st.op_off + EHCI_USBSTS) & STS_HALT)
			if (now(d) - start > DBGP_TXN_BUDGET_US)
				return -EKDB_EFAULT;
		goto again;			/* the data registers still hold the packet */
	}
	pids = rd(d, DBGP_PIDS);
	if (rlen)
		*rlen = DBGP_LEN(ctrl);
	return DBGP_PID_RECEIVED(pids);
}

static void load_data(struct dbgp_dev *d, const u8 *buf, unsigned len)
{
	u32 lo = 0, hi = 0;

	for (unsigned i = 0; i < len && i < 4; i++)
		lo |= (u32)buf[i] << (8 * i);
	for (unsigned i = 4; i < len; i++)
		hi |= (u32)buf[i] << (8 * (i - 4));
	wr(d, DBGP_DATA, lo);
	if (len > 4)
		wr(d, DBGP_DATA + 4, hi);
}

static void store_data(struct dbgp_dev *d, u8 *buf, unsigned len)
{
	u32 lo = len ? rd(d, DBGP_DATA) : 0, hi = len > 4 ? rd(d, DBGP_DATA + 4) : 0;

	for (unsigned i = 0; i < len && i < 4; i++)
		buf[i] = (u8)(lo >> (8 * i));
	for (unsigned i = 4; i < len; i++)
		buf[i] = (u8)(hi >> (8 * (i - 4)));
}

/*
 * One OUT (or SETUP) packet until it is acknowledged: NAKs until the
 * budget is spent (-EKDB_EAGAIN), STALL (-EKDB_EPIPE), transaction errors
 * DBGP_ERR_RETRIES times in a row (-EKDB_EIO).  A retry after an error
 * keeps the toggle: if the device did take the packet, it acknowledges
 * the repeat and drops it.
 */
static int send_packet(struct dbgp_dev *d, u8 devnum, u8 ep, u8 pid, u8 toggle,
		       const u8 *buf, unsigned len, u64 budget)
{
	u64 start = now(d);
	unsigned errors = 0;
	int r;

	load_data(d, buf, len);
	for (;;) {
		r = txn(d, devnum, ep, pid, data_pid(toggle), len, NULL);
		if (r == USB_PID_ACK || r == USB_PID_NYET)
			return 0;
		if (r == USB_PID_STALL)
			return -EKDB_EPIPE;
		if (r == -EKDB_EIO) {
			if (++errors >= DBGP_ERR_RETRIES)
				return -EKDB_EIO;
		} else if (r == USB_PID_NAK) {
			d->stats_naks++;
			errors = 0;
			if (now(d) - start > budget)
				return -EKDB_EAGAIN;
		} else if (r < 0) {
			return r;
		} else {
			return -EKDB_EIO;	/* a PID no device sends here */
		}
		if (r == -EKDB_EIO)
			load_data(d, buf, len);	/* a real controller keeps it; be safe */
	}
}

/*
 * One IN packet.  @wait: keep retrying NAKs until the budget is spent
 * (control data/status stages), else return 0 on the first NAK.  Returns
 * the byte count with *@pid_out the received DATA PID, or -EKDB_E*.
 */
static int recv_packet(struct dbgp_dev *d, u8 devnum, u8 ep, u8 *buf, bool wait,
		       u64 budget, u8 *pid_out)
{
	u64 start = now(d);
	unsigned errors = 0, len = 0;
	int r;

	for (;;) {
		r = txn(d, devnum, ep, USB_PID_IN, USB_PID_DATA0, DBGP_MAXP, &len);
		if (r == USB_PID_DATA0 || r == USB_PID_DATA1) {
			if (len > DBGP_MAXP)
				return -EKDB_EIO;
			store_data(d, buf, len);
			*pid_out = (u8)r;
			return (int)len;
		}
		if (r == USB_PID_STALL)
			return -EKDB_EPIPE;
		if (r == USB_PID_NAK) {
			errors = 0;
			if (!wait || now(d) - start > budget)
				return -EKDB_EAGAIN;
			d->stats_naks++;
		} else if (r == -EKDB_EIO) {
			/* retried whatever the budget: a read must not give up on one error */
			if (++errors >= DBGP_ERR_RETRIES)
				return -EKDB_EIO;
		} else if (r < 0) {
			return r;
		} else {
			return -EKDB_EIO;
		}
	}
}

/**
 * dbgp_bulk_write - send @len (<= 8) bytes on the bulk OUT endpoint.
 * Returns @len, or -EKDB_EAGAIN when the device NAKed for the whole
 * budget (the other side is not reading: the bytes are dropped, and the
 * budget shrinks until a packet goes through again), or -EKDB_E*.
 */
int dbgp_bulk_write(struct dbgp_dev *d, const u8 *buf, unsigned len)
{
	int r;

	if (len > DBGP_MAXP)
		return -EKDB_EINVAL;
	r = send_packet(d, d->st.devnum, d->st.ep_out, USB_PID_OUT, d->st.tog_out, buf, len,
			d->out_stuck ? DBGP_OUT_STUCK_US : DBGP_OUT_BUDGET_US);
	d->out_stuck = r == -EKDB_EAGAIN;
	if (r)
		return r;
	d->st.tog_out ^= 1;
	return (int)len;
}

/**
 * dbgp_bulk_read - one IN transaction on the bulk IN endpoint: the bytes
 * received (<= 8), 0 when the device has nothing (NAK) or repeated a
 * packet we already took, or -EKDB_E*.
 */
int dbgp_bulk_read(struct dbgp_dev *d, u8 *buf, unsigned max)
{
	u8 tmp[DBGP_MAXP], pid = 0;
	int n = recv_packet(d, d->st.devnum, d->st.ep_in, tmp, false, 0, &pid);

	if (n == -EKDB_EAGAIN)
		return 0;
	if (n < 0)
		return n;
	if (pid != data_pid(d->st.tog_in)) {
		d->stats_dups++;		/* the device missed our ACK: seen already */
		return 0;
	}
	d->st.tog_in ^= 1;
	if ((unsigned)n > max)
		n = (int)max;
	memcpy(buf, tmp, (size_t)n);
	return n;
}

/**
 * dbgp_control_msg - a control transfer on endpoint 0 of @devnum: SETUP,
 * an IN data stage of @len bytes into @data (reqtype bit 7) or none, and
 * the status stage in the other direction.  Returns the data bytes
 * received, or -EKDB_E*.
 */
int dbgp_control_msg(struct dbgp_dev *d, u8 devnum, u8 reqtype, u8 req, u16 value,
		     u16 index, u8 *data, u16 len)
{
	u8 setup[8] = { reqtype, req, (u8)value, (u8)(value >> 8), (u8)index,
			(u8)(index >> 8), (u8)len, (u8)(len >> 8) };
	bool in = reqtype & 0x80;
	u8 toggle = 1, pid = 0, tmp[DBGP_MAXP];
	unsigned got = 0;
	int r;

	if (!in && len)
		return -EKDB_EINVAL;		/* no OUT data stage is ever needed */
	r = send_packet(d, devnum, 0, USB_PID_SETUP, 0, setup, 8, DBGP_CTRL_BUDGET_US);
	if (r)
		return r;
	while (in && got < len) {		/* data stage: DATA1, DATA0, ... */
		r = recv_packet(d, devnum, 0, tmp, true, DBGP_CTRL_BUDGET_US, &pid);
		if (r < 0)
			return r;
		if (pid != data_pid(toggle))
			continue;		/* a repeat of the previous packet */
		toggle ^= 1;
		memcpy(data + got, tmp, MIN((unsigned)r, len - got));
		got += MIN((unsigned)r, len - got);
		if (r < DBGP_MAXP)
			break;			/* short packet: the data stage is over */
	}
	/* status stage: always DATA1, zero length, the other direction */
	if (in)
		return send_packet(d, devnum, 0, USB_PID_OUT, 1, NULL, 0, DBGP_CTRL_BUDGET_US) ?: (int)got;
	r = recv_packet(d, devnum, 0, tmp, true, DBGP_CTRL_BUDGET_US, &pid);
	if (r < 0)
		return r;
	return r == 0 && pid == USB_PID_DATA1 ? 0 : -EKDB_EIO;
}
