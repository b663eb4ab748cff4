/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dbgp_mock.h - a register-level mock of an EHCI controller with a debug
 * port and a USB debug device, for the host tests of io/ehci-dbgp:
 * the same behaviour and fault knobs as tools/dbgp-sim, and a clock that
 * advances a fixed step per call (budgets expire deterministically).
 */
#ifndef TESTS_HOST_DBGP_MOCK_H
#define TESTS_HOST_DBGP_MOCK_H

#include "../../io/ehci-dbgp/dbgp.h"

#define MOCK_OP		0x20
#define MOCK_DBGP	0xa0
#define MOCK_PORT	2

struct dbgp_mock {
	struct dbgp_io io;
	u64 clock_us;
	/* controller */
	u32 cmd, sts, configflag, portsc[4];
	u32 ctrl, pids, addr;
	u8 data[8];
	bool connected, full_speed, done_never;
	/* device */
	u8 address, pending_address;
	bool debug_mode, addr_pending;
	int ctl_stage;			/* 0 idle, 1 data in, 2 status */
	bool ctl_in, ctl_stall;
	u8 ctl_data[8]; unsigned ctl_len, ctl_pos; u8 ctl_toggle;
	u8 ctl_req, ctl_reqtype; u16 ctl_value, ctl_index;
	u8 tog_out, tog_in;
	bool in_pending; u8 in_pkt[8]; unsigned in_pkt_len;
	/* the host side */
	u8 out[4096]; unsigned out_len;	/* delivered by bulk OUT */
	u8 in[4096]; unsigned in_len, in_pos;	/* waiting for bulk IN */
	/* knobs: counts of faults still to inject */
	unsigned nak_out, nak_in, timeout, lose_out_ack, lose_in_ack, stall_bulk;
	bool gone;			/* the device answers nothing at all */
	bool hcreset_drops_port;	/* HCRESET disables the debug port, resets the device */
	/* counters */
	unsigned enumerations, port_resets, hcresets, setups, status_stages, dup_out, dup_in;
	unsigned txns;
	u8 last_out_pid;
};

void dbgp_mock_init(struct dbgp_mock *m);
void dbgp_mock_dev_init(struct dbgp_mock *m, struct dbgp_dev *d);
void dbgp_mock_feed(struct dbgp_mock *m, const char *s);

#endif
