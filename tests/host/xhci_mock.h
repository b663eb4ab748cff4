/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhci_mock.h - a small xHCI host controller with one full-speed HID boot
 * keyboard on root port 1, for the host tests of io/xhci-kbd/ (xhc.c,
 * xhc_dev.c): registers, the command ring, the event ring, EP0 control
 * transfers answered from canned descriptors, the interrupt IN ring fed
 * by the test; knobs for a stall, an unplug in the middle of enumeration.
 * Physical addresses are the host's pointers.
 */
#ifndef TESTS_HOST_XHCI_MOCK_H
#define TESTS_HOST_XHCI_MOCK_H

#include <ekdb/types.h>

struct xhci_mock {
	bool present;			/* the keyboard is plugged into port 1 */
	int unplug_at;			/* it goes away at this control request (0: never) */
	u8 stall_req;			/* bRequest answered with a stall (0: none) */
	unsigned requests;		/* control requests seen */
	u8 protocol;			/* SET_PROTOCOL's value (0xff: never sent) */
	u8 leds;			/* the last SET_REPORT */
	unsigned led_reports, disabled_slots, reset_eps, set_deqs;
};
extern struct xhci_mock mock;

void xhci_mock_reset(void);
/* A report of @len bytes on the keyboard's interrupt endpoint: false if no TRB was posted. */
bool xhci_mock_report(const u8 *r, unsigned len);
/* The keyboard pulled out of port 1 (CCS 0, CSC 1). */
void xhci_mock_unplug(void);
/* A keyboard plugged into port 1 again (CCS 1, CSC 1; not enabled until a port reset). */
void xhci_mock_plug(void);
struct xhc;
struct xhc_mem;
struct xhc_dev;
struct xhc_dev_mem;
/* The mock reset and @hc started on it (named "mock") with @mem, @n device blocks @dmem: 0 or -errno. */
int xhci_mock_start(struct xhc *hc, struct xhc_mem *mem, struct xhc_dev *devs,
		    struct xhc_dev_mem *dmem, unsigned n);
/* The interrupt endpoint stalls on its next TRB: false if none was posted. */
bool xhci_mock_int_stall(void);

#endif
