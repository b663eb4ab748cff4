/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhc_hub.c - keyboards behind a hub on a root port (USB 2.0 chapter 11):
 * the hub configured, marked as a hub in its slot context, each port
 * powered, reset when something is connected, and the device there
 * enumerated with a route string of one tier (and its TT when a
 * low/full-speed device sits behind a high-speed hub).  Then the hub's
 * status-change endpoint is read like a keyboard's reports
 * (xhc_dev_report() keeps the bitmap in hub_changed): a port that changed
 * is looked at when plugging is handled (xhc_hub_changed(): its change
 * bits acknowledged, a device gone dropped, one that came enumerated).  A hub
 * behind a hub is not used.  Static storage only.
 */
#include "xhc.h"
#include "usb_desc.h"
#include <asm/tsc_early.h>
#include <ekdb/errno.h>
#include <ekdb/log.h>
#include <ekdb/string.h>

#define USB_DT_HUB		0x29
#define HUB_CLASS_DEV_IN	0xa0	/* class request to the hub, device to host */
#define HUB_CLASS_PORT_OUT	0x23	/* class request to a port, host to device */
#define HUB_CLASS_PORT_IN	0xa3
#define USB_REQ_GET_STATUS	0
#define USB_REQ_CLEAR_FEATURE	1
#define USB_REQ_SET_FEATURE	3
#define HUB_PORT_RESET		4
#define HUB_PORT_POWER		8
#define HUB_C_PORT_CONNECTION	16
#define HUB_C_PORT_RESET	20
#define HUB_PS_CONNECTION	(1u << 0)
#define HUB_PS_ENABLE		(1u << 1)
#define HUB_PS_LOW_SPEED	(1u << 9)
#define HUB_PS_HIGH_SPEED	(1u << 10)
#define HUB_PC_CONNECTION	(1u << 16)
#define HUB_PC_RESET		(1u << (16 + 4))
#define HUB_PORTS_MAX		15	/* one tier of route string: 4 bits */

static void wait_us(u64 us)
{
	for (u64 t0 = early_now_us(); early_now_us() - t0 < us;)
		;
}

static int port_status(struct xhc_dev *h, struct xhc_dev *devs, unsigned n, unsigned port,
		       u32 *st)
{
	u8 *buf = h->hc->mem->desc;
	int r = xhc_dev_control(h, devs, n, HUB_CLASS_PORT_IN, USB_REQ_GET_STATUS, 0, (u16)port, 4,
				xhc_phys(h->hc, buf));

	*st = buf[0] | buf[1] << 8 | (u32)buf[2] << 16 | (u32)buf[3] << 24;
	return r;
}

/* Reset @port of hub @h; the speed of the device there (xHCI's numbers). */
static int port_reset(struct xhc_dev *h, struct xhc_dev *devs, unsigned n, unsigned port, u8 *speed)
{
	u64 t0 = early_now_us();
	u32 st = 0;
	int r = xhc_dev_control(h, devs, n, HUB_CLASS_PORT_OUT, USB_REQ_SET_FEATURE, HUB_PORT_RESET,
				(u16)port, 0, 0);

	while (!r && !((r = port_status(h, devs, n, port, &st)) || (st & HUB_PC_RESET)))
		if (early_now_us() - t0 > XHC_PORT_RESET_US)
			return -EKDB_ETIMEDOUT;
	if (r)
		return r;
	xhc_dev_control(h, devs, n, HUB_CLASS_PORT_OUT, USB_REQ_CLEAR_FEATURE, HUB_C_PORT_RESET,
			(u16)port, 0, 0);
	xhc_dev_control(h, devs, n, HUB_CLASS_PORT_OUT, USB_REQ_CLEAR_FEATURE, HUB_C_PORT_CONNECTION,
			(u16)port, 0, 0);
	wait_us(XHC_RECOVERY_US);
	if (!(st & HUB_PS_CONNECTION))
		return -EKDB_ENODEV;
	if (!(st & HUB_PS_ENABLE))
		return -EKDB_EIO;
	*speed = st & HUB_PS_LOW_SPEED ? 2 : st & HUB_PS_HIGH_SPEED ? 3 : 1;
	return 0;
}

static struct xhc_dev *free_dev(struct xhc_dev *devs, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (!devs[i].used && devs[i].mem)
			return &devs[i];
	return NULL;
}

/* The device on port @p of hub @h now: reset, enumerated; keyboards found, or -errno. */
static int attach(struct xhc_dev *h, struct xhc_dev *devs, unsigned n, unsigned p)
{
	struct xhc_dev *d = free_dev(devs, n);
	u8 speed;
	int r;

	if (!d) {
		pr_warn("kbd: xHCI %s port %u.%u: no room for another device (%u at most)\n",
			h->hc->name, h->port, p, n);
		return -EKDB_ENOSPC;
	}
	r = port_reset(h, devs, n, p, &speed);
	if (r) {
		if (r != -EKDB_ENODEV)
			pr_warn("kbd: xHCI %s port %u.%u: the hub's port does not enable (%s)\n",
				h->hc->name, h->port, p, ekdb_strerror(r));
		return r;
	}
	*d = (struct xhc_dev){ .hc = h->hc, .mem = d->mem, .mem_phys = d->mem_phys,
			       .port = h->port, .hub_port = (u8)p, .speed = speed, .parent = h };
	if (h->speed == 3 && speed < 3) {	/* split transactions through the hub's TT */
		d->tt_slot = h->slot;
		d->tt_port = (u8)p;
	}
	return xhc_dev_enumerate(d, devs, n);
}

/* The hub's status-change endpoint from its configuration descriptor (@k), 0 or -errno. */
static int find_status_ep(struct xhc_dev *h, struct xhc_dev *devs, unsigned n,
			  struct usb_boot_kbd *k)
{
	const u8 *desc = h->hc->mem->desc;
	unsigned total;
	int r = xhc_dev_control(h, devs, n, USB_DIR_IN, USB_REQ_GET_DESCRIPTOR, USB_DT_CONFIG << 8,
				0, 9, xhc_phys(h->hc, desc));

	if (r)
		return r;
	total = MIN((unsigned)(desc[2] | desc[3] << 8), XHC_DESC_MAX);
	r = xhc_dev_control(h, devs, n, USB_DIR_IN, USB_REQ_GET_DESCRIPTOR, USB_DT_CONFIG << 8, 0,
			    (u16)total, xhc_phys(h->hc, desc));
	return r ? r : usb_find_int_in(desc, total, USB_CLASS_HUB, -1, -1, k);
}

int xhc_hub_setup(struct xhc_dev *h, struct xhc_dev *devs, unsigned n)
{
	const u8 *desc = h->hc->mem->desc;
	unsigned ports, good, found = 0;
	struct usb_boot_kbd k;
	int r, ep;

	ep = find_status_ep(h, devs, n, &k);
	r = ep && ep != -EKDB_ENOENT ? ep : 0;
	if (!r)
		r = xhc_dev_control(h, devs, n, 0, USB_REQ_SET_CONFIGURATION, k.config, 0, 0, 0);
	if (!r)
		r = xhc_dev_control(h, devs, n, HUB_CLASS_DEV_IN, USB_REQ_GET_DESCRIPTOR,
				    USB_DT_HUB << 8, 0, 9, xhc_phys(h->hc, desc));
	if (r)
		return r;
	ports = MIN((unsigned)desc[2], HUB_PORTS_MAX);
	good = desc[5] * 2000u;				/* bPwrOn2PwrGood, 2 ms units */
	r = xhc_dev_set_hub(h, devs, n, (u8)ports);
	if (!r && !ep)
		r = xhc_dev_configure_int(h, devs, n, &k);
	if (r)
		return r;
	for (unsigned p = 1; p <= ports; p++)
		xhc_dev_control(h, devs, n, HUB_CLASS_PORT_OUT, USB_REQ_SET_FEATURE, HUB_PORT_POWER,
				(u16)p, 0, 0);
	wait_us(MAX(good, 20000u) + XHC_CONNECT_US);	/* power good, then the devices connect */
	for (unsigned p = 1; p <= ports; p++) {
		u32 st;

		if (port_status(h, devs, n, p, &st) || !(st & HUB_PS_CONNECTION))
			continue;
		r = attach(h, devs, n, p);
		if (r > 0)
			found += (unsigned)r;
		if (r == -EKDB_ENOSPC)
			break;
	}
	if (!ep) {				/* read from now on: changes come as reports */
		h->active = true;
		xhc_dev_post_all(h);
	}
	pr_info("kbd: xHCI %s port %u: USB hub %04x:%04x, %u ports, %u keyboard%s behind it%s\n",
		h->hc->name, h->port, h->vendor, h->product, ports, found, found == 1 ? "" : "s",
		ep ? " (no status-change endpoint: plugging there is not seen)" : "");
	return found || !ep ? (int)found : -EKDB_ENOENT;
}

void xhc_hub_changed(struct xhc_dev *h, struct xhc_dev *devs, unsigned n)
{
	u16 changed = h->hub_changed;

	h->hub_changed = 0;
	for (unsigned p = 1; p <= h->hub_ports; p++) {
		struct xhc_dev *d = NULL;
		u32 st;

		if (!(changed & (1u << p)) || port_status(h, devs, n, p, &st))
			continue;
		for (unsigned f = 0; f < 5; f++)	/* each change acknowledged: connection .. reset */
			if (st & (1u << (16 + f)))
				xhc_dev_control(h, devs, n, HUB_CLASS_PORT_OUT, USB_REQ_CLEAR_FEATURE,
						(u16)(HUB_C_PORT_CONNECTION + f), (u16)p, 0, 0);
		for (unsigned i = 0; i < n && !d; i++)
			if (devs[i].used && devs[i].parent == h && devs[i].hub_port == p)
				d = &devs[i];
		if (d && (!(st & HUB_PS_CONNECTION) || (st & HUB_PC_CONNECTION))) {
			pr_info("kbd: xHCI %s port %u.%u: USB keyboard unplugged\n", h->hc->name,
				h->port, p);
			xhc_dev_drop(d, devs, n, true);
			d = NULL;
		}
		if (!d && (st & HUB_PS_CONNECTION))
			attach(h, devs, n, p);
	}
}
