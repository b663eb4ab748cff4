/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhc_dev.c - a USB keyboard on an xHCI root port, polled (xhc.h):
 * enumeration (Enable Slot, Address Device, GET_DESCRIPTOR device and
 * configuration, the first HID boot keyboard interface, SET_CONFIGURATION,
 * SET_PROTOCOL boot, SET_IDLE 0, Configure Endpoint for its interrupt IN
 * endpoint), then XHC_INT_BUFS report buffers kept posted: each report is
 * decoded (hid_kbd.c) as its Transfer Event is read and the buffer goes
 * back on the ring.  The LEDs follow the lock keys by SET_REPORT, sent
 * without waiting.  A stalled or failed endpoint is reset (Reset
 * Endpoint, Set TR Dequeue Pointer) and its buffers posted again.
 */
#include "xhc.h"
#include "usb_desc.h"
#include <asm/tsc_early.h>
#include <ekdb/errno.h>
#include <ekdb/log.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>

#define TRB_STOP_EP		15
#define CC_CTX_STATE		19
#define EP_TYPE_CONTROL		4
#define EP_TYPE_INT_IN		7
#define XHC_HALTS_MAX		8	/* endpoint failures in a row before the keyboard is given up */

static const char *const speeds[] = { "?", "full", "low", "high", "super", "super+" };

static const char *speed_name(u8 s)
{
	return s < ARRAY_SIZE(speeds) ? speeds[s] : "?";
}

/* ------------------------------------------------------------ control transfers */

/* Queue SETUP [DATA] STATUS on EP0 and ring; the completion comes as an event. */
static int control_queue(struct xhc_dev *d, u8 type, u8 req, u16 value, u16 index, u16 len,
			 u64 data)
{
	bool in = type & USB_DIR_IN;
	u64 setup = type | (u32)req << 8 | (u32)value << 16 | (u64)index << 32 | (u64)len << 48;
	unsigned last;

	if (xhci_ring_room(&d->ep0) < 3)
		return -EKDB_EBUSY;
	xhci_ring_push(&d->ep0, setup, 8, TRB_TYPE(TRB_SETUP) | TRB_IDT |
		       TRB_TRT(len ? (in ? 3 : 2) : 0));
	if (len)
		xhci_ring_push(&d->ep0, data, len, TRB_TYPE(TRB_DATA) | (in ? TRB_DIR_IN : 0));
	last = xhci_ring_push(&d->ep0, 0, 0, TRB_TYPE(TRB_STATUS) | TRB_IOC |
			      (len && in ? 0 : TRB_DIR_IN));
	d->ctrl_last = d->ep0.phys + last * sizeof(struct xhci_trb);
	d->ctrl_done = false;
	d->ctrl_busy = true;
	xhc_ring_db(d->hc, d->slot, 1);
	return 0;
}

/* An endpoint that stopped (halted, or a transfer we gave up on): its ring emptied and restarted. */
static int recover(struct xhc_dev *d, struct xhc_dev *devs, unsigned n, unsigned dci,
		   struct xhci_ring *r)
{
	struct xhc *hc = d->hc;
	int cc = xhc_command(hc, devs, n, 0, 0, TRB_TYPE(TRB_RESET_EP) | TRB_SLOT(d->slot) |
			     TRB_EP(dci), NULL);

	if (cc == CC_CTX_STATE)			/* not halted: running a TRB that never ends */
		cc = xhc_command(hc, devs, n, 0, 0, TRB_TYPE(TRB_STOP_EP) | TRB_SLOT(d->slot) |
				 TRB_EP(dci), NULL);
	if (cc < 0)
		return cc;
	r->deq = r->enq;
	cc = xhc_command(hc, devs, n, (r->phys + r->enq * sizeof(struct xhci_trb)) | r->cycle, 0,
			 TRB_TYPE(TRB_SET_TR_DEQ) | TRB_SLOT(d->slot) | TRB_EP(dci), NULL);
	return cc == CC_SUCCESS ? 0 : -EKDB_EIO;
}

/* One control transfer, waited for; 0, -EKDB_EPIPE (stalled: the endpoint recovered), -errno. */
int xhc_dev_control(struct xhc_dev *d, struct xhc_dev *devs, unsigned n, u8 type, u8 req,
		    u16 value, u16 index, u16 len, u64 data)
{
	u64 t0 = early_now_us();
	int r = control_queue(d, type, req, value, index, len, data);

	if (r)
		return r;
	while (!d->ctrl_done) {
		xhc_events(d->hc, devs, n);
		if (!d->ctrl_done && early_now_us() - t0 > XHC_CTRL_US) {
			d->ctrl_busy = false;
			recover(d, devs, n, 1, &d->ep0);
			return -EKDB_ETIMEDOUT;
		}
	}
	d->ctrl_busy = false;
	if (d->ctrl_cc == CC_SUCCESS || d->ctrl_cc == CC_SHORT_PACKET) {
		d->ep0.deq = d->ep0.enq;
		return 0;
	}
	r = recover(d, devs, n, 1, &d->ep0);
	return d->ctrl_cc == CC_STALL && !r ? -EKDB_EPIPE : -EKDB_EIO;
}

static int get_desc(struct xhc_dev *d, struct xhc_dev *devs, unsigned n, u8 type, u16 len)
{
	memset(d->hc->mem->desc, 0, XHC_DESC_MAX);
	return xhc_dev_control(d, devs, n, USB_DIR_IN, USB_REQ_GET_DESCRIPTOR, (u16)(type << 8), 0, len,
		       xhc_phys(d->hc, d->hc->mem->desc));
}

/* ------------------------------------------------------------ reports */

static void post_report(struct xhc_dev *d, unsigned b)
{
	unsigned i = xhci_ring_push(&d->intr, xhc_dev_phys(d, d->mem->report[b]),
				    MIN(d->maxp, XHC_REPORT_MAX), TRB_TYPE(TRB_NORMAL) | TRB_IOC | TRB_ISP);

	d->buf_of[i] = (u8)b;
}

void xhc_dev_post_all(struct xhc_dev *d)
{
	for (unsigned b = 0; b < XHC_INT_BUFS; b++)
		post_report(d, b);
	xhc_ring_db(d->hc, d->slot, d->dci);
}

static void queue_bytes(struct xhc_dev *d, const char *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (d->q_len == sizeof(d->q)) {
			d->dropped++;
			continue;
		}
		d->q[(d->q_head + d->q_len++) % sizeof(d->q)] = s[i];
	}
}

void xhc_dev_report(struct xhc_dev *d, u64 trb, u32 status, u64 now_us)
{
	int idx = xhci_ring_inflight(&d->intr, trb);
	unsigned cc = TRB_CC(status), k;
	char out[HID_KBD_OUT_MAX];
	bool again = false;

	if (idx < 0)
		return;				/* not in flight: stale (before a recovery) */
	if (cc != CC_SUCCESS && cc != CC_SHORT_PACKET) {
		d->halted = true;		/* stalled or failed: the endpoint stopped */
		d->errors++;
		return;
	}
	do {			/* in order: earlier TRBs (no event of their own) are done too */
		unsigned b, len;
		char key;

		k = xhci_ring_pop(&d->intr);
		b = d->buf_of[k];
		if (k == (unsigned)idx) {
			len = MIN(d->maxp, XHC_REPORT_MAX) - MIN(TRB_RESIDUAL(status),
								 (u32)MIN(d->maxp, XHC_REPORT_MAX));
			d->reports++;
			if (d->hub_ports) {		/* a hub: bit N, port N changed */
				for (unsigned i = 0; i < len && i < 2; i++)
					d->hub_changed |= (u16)(d->mem->report[b][i] << (8 * i));
				d->hub_changed &= (u16)~1u;	/* bit 0: the hub itself */
			} else {
				queue_bytes(d, out, hid_kbd_report(&d->hid, d->mem->report[b], len,
								   now_us, out, sizeof(out)));
				key = kbd_sysrq_take(&d->hid.ks);
				if (key)
					d->sysrq = key;
			}
		}
		post_report(d, b);
		again = true;
	} while (k != (unsigned)idx);
	if (again)
		xhc_ring_db(d->hc, d->slot, d->dci);
	d->halts = 0;
}

int xhc_dev_getc(struct xhc_dev *d)
{
	char c;

	if (d->sysrq) {
		c = d->sysrq;
		d->sysrq = 0;
		return EKDB_CHAR_SYSRQ(c);
	}
	if (!d->q_len)
		return EKDB_NO_CHAR;
	c = d->q[d->q_head];
	d->q_head = (u8)((d->q_head + 1) % sizeof(d->q));
	d->q_len--;
	return (u8)c;
}

void xhc_dev_service(struct xhc_dev *d, struct xhc_dev *devs, unsigned n, u64 now_us)
{
	char out[KBD_SEQ_MAX];
	u8 leds;

	if (!d->active || d->gone || d->hc->released)
		return;
	if (d->halted) {
		d->halted = false;
		if (++d->halts > XHC_HALTS_MAX || recover(d, devs, n, d->dci, &d->intr)) {
			d->gone = true;
			pr_err("kbd: xHCI %s port %u: the keyboard's endpoint keeps failing: not read any more\n",
			       d->hc->name, d->port);
			return;
		}
		xhc_dev_post_all(d);
	}
	if (d->hub_ports)
		return;				/* a hub: no keys, no LEDs */
	queue_bytes(d, out, hid_kbd_repeat(&d->hid, now_us, out, sizeof(out)));
	if (d->ctrl_busy && d->ctrl_done) {	/* the LED report went (or failed: not again) */
		d->ctrl_busy = false;
		if (d->ctrl_cc == CC_SUCCESS || d->ctrl_cc == CC_SHORT_PACKET)
			d->ep0.deq = d->ep0.enq;
		else
			recover(d, devs, n, 1, &d->ep0);
	}
	leds = hid_kbd_leds(&d->hid);
	if (!d->ctrl_busy && leds != d->leds) {
		d->mem->led = leds;
		if (!control_queue(d, USB_TYPE_CLASS_IF, HID_REQ_SET_REPORT,
				   HID_REPORT_OUTPUT << 8, d->iface, 1, xhc_dev_phys(d, &d->mem->led)))
			d->leds = leds;
	}
}

/* ------------------------------------------------------------ enumeration */

static void slot_ctx(struct xhc_dev *d, u8 *ictx, unsigned entries)
{
	u32 *slot = xhc_ctx(d->hc, ictx, 1);

	/* route string: the port on the hub (one tier); Hub and its port count */
	slot[0] = d->hub_port | (u32)d->speed << 20 | (u32)!!d->hub_ports << 26 |
		  (u32)entries << 27;
	slot[1] = (u32)d->port << 16 | (u32)d->hub_ports << 24;
	slot[2] = d->tt_slot | (u32)d->tt_port << 8;
}

int xhc_dev_set_hub(struct xhc_dev *d, struct xhc_dev *devs, unsigned n, u8 ports)
{
	struct xhc *hc = d->hc;
	u8 *ictx = hc->mem->input_ctx;
	int cc;

	d->hub_ports = ports;
	memset(ictx, 0, sizeof(hc->mem->input_ctx));
	xhc_ctx(hc, ictx, 0)[1] = 1;			/* add: the slot */
	slot_ctx(d, ictx, 1);
	cc = xhc_command(hc, devs, n, xhc_phys(hc, ictx), 0,
			 TRB_TYPE(TRB_CONFIG_EP) | TRB_SLOT(d->slot), NULL);
	return cc == CC_SUCCESS ? 0 : -EKDB_EIO;
}

static int address(struct xhc_dev *d, struct xhc_dev *devs, unsigned n)
{
	struct xhc *hc = d->hc;
	u8 *ictx = hc->mem->input_ctx;
	u32 *ep0 = xhc_ctx(hc, ictx, 2);
	u16 maxp = d->speed >= 4 ? 512 : d->speed == 3 ? 64 : 8;
	u64 deq;
	int cc;

	memset(ictx, 0, sizeof(hc->mem->input_ctx));
	xhc_ctx(hc, ictx, 0)[1] = 3;			/* add: slot, EP0 */
	slot_ctx(d, ictx, 1);
	xhci_ring_init_xfer(&d->ep0, d->mem->ep0, xhc_dev_phys(d, d->mem->ep0), XHC_EP0_TRBS);
	deq = d->ep0.phys | 1;
	ep0[1] = 3u << 1 | EP_TYPE_CONTROL << 3 | (u32)maxp << 16;
	ep0[2] = (u32)deq;
	ep0[3] = (u32)(deq >> 32);
	ep0[4] = 8;
	hc->mem->dcbaa[d->slot] = xhc_dev_phys(d, d->mem->out_ctx);
	cc = xhc_command(hc, devs, n, xhc_phys(hc, ictx), 0,
			 TRB_TYPE(TRB_ADDRESS_DEV) | TRB_SLOT(d->slot), NULL);
	return cc == CC_SUCCESS ? 0 : cc < 0 ? cc : -EKDB_EIO;
}

/* Full speed: EP0's max packet is 8, 16, 32 or 64; the device says which. */
static int fix_ep0(struct xhc_dev *d, struct xhc_dev *devs, unsigned n, u8 maxp)
{
	struct xhc *hc = d->hc;
	u8 *ictx = hc->mem->input_ctx;
	int cc;

	if (d->speed != 1 || maxp == 8)
		return 0;
	if (maxp != 16 && maxp != 32 && maxp != 64)
		return -EKDB_EINVAL;
	memset(ictx, 0, sizeof(hc->mem->input_ctx));
	xhc_ctx(hc, ictx, 0)[1] = 2;			/* evaluate: EP0 */
	xhc_ctx(hc, ictx, 2)[1] = 3u << 1 | EP_TYPE_CONTROL << 3 | (u32)maxp << 16;
	cc = xhc_command(hc, devs, n, xhc_phys(hc, ictx), 0,
			 TRB_TYPE(TRB_EVAL_CTX) | TRB_SLOT(d->slot), NULL);
	return cc == CC_SUCCESS ? 0 : -EKDB_EIO;
}

int xhc_dev_configure_int(struct xhc_dev *d, struct xhc_dev *devs, unsigned n,
			  const struct usb_boot_kbd *k)
{
	struct xhc *hc = d->hc;
	u8 *ictx = hc->mem->input_ctx;
	u32 *ep;
	u64 deq;
	int cc;

	d->dci = (u8)((k->ep_addr & 0xf) * 2 + 1);
	d->maxp = k->maxp;
	memset(ictx, 0, sizeof(hc->mem->input_ctx));
	xhc_ctx(hc, ictx, 0)[1] = 1u | 1u << d->dci;	/* add: slot, the endpoint */
	slot_ctx(d, ictx, d->dci);
	xhci_ring_init_xfer(&d->intr, d->mem->intr, xhc_dev_phys(d, d->mem->intr), XHC_INT_TRBS);
	deq = d->intr.phys | 1;
	ep = xhc_ctx(hc, ictx, d->dci + 1u);
	ep[0] = (u32)usb_xhci_interval(k->interval, d->speed) << 16;
	ep[1] = 3u << 1 | EP_TYPE_INT_IN << 3 | (u32)k->maxp << 16;
	ep[2] = (u32)deq;
	ep[3] = (u32)(deq >> 32);
	ep[4] = 8u | (u32)k->maxp << 16;		/* average TRB length, max ESIT payload */
	cc = xhc_command(hc, devs, n, xhc_phys(hc, ictx), 0,
			 TRB_TYPE(TRB_CONFIG_EP) | TRB_SLOT(d->slot), NULL);
	return cc == CC_SUCCESS ? 0 : -EKDB_EIO;
}

void xhc_dev_drop(struct xhc_dev *d, struct xhc_dev *devs, unsigned n, bool disable)
{
	for (unsigned i = 0; i < n; i++)	/* a hub: the devices behind it go with it */
		if (devs[i].used && devs[i].parent == d)
			xhc_dev_drop(&devs[i], devs, n, disable);
	if (disable && d->slot && !d->hc->released) {
		xhc_command(d->hc, devs, n, 0, 0, TRB_TYPE(TRB_DISABLE_SLOT) | TRB_SLOT(d->slot), NULL);
		d->hc->mem->dcbaa[d->slot] = 0;
	}
	d->active = false;
	d->used = false;
	d->slot = 0;
}

/* The steps after the address; 0, -EKDB_ENOENT (not a boot keyboard), -errno. */
static int setup_kbd(struct xhc_dev *d, struct xhc_dev *devs, unsigned n)
{
	const u8 *desc = d->hc->mem->desc;
	struct usb_boot_kbd k;
	unsigned total;
	int r;

	r = get_desc(d, devs, n, USB_DT_DEVICE, 8);
	if (!r)
		r = fix_ep0(d, devs, n, desc[7]);
	if (!r)
		r = get_desc(d, devs, n, USB_DT_DEVICE, 18);
	if (r)
		return r;
	d->vendor = (u16)(desc[8] | desc[9] << 8);
	d->product = (u16)(desc[10] | desc[11] << 8);
	if (desc[4] == USB_CLASS_HUB) {
		if (!d->parent)
			return xhc_hub_setup(d, devs, n);	/* its keyboards, or -ENOENT */
		pr_info("kbd: xHCI %s port %u.%u: a USB hub (%04x:%04x) behind a hub: not supported, keyboards behind it are not used\n",
			d->hc->name, d->port, d->hub_port, d->vendor, d->product);
		return -EKDB_ENOENT;
	}
	r = get_desc(d, devs, n, USB_DT_CONFIG, 9);
	total = MIN((unsigned)(desc[2] | desc[3] << 8), XHC_DESC_MAX);
	if (!r)
		r = get_desc(d, devs, n, USB_DT_CONFIG, (u16)total);
	if (r)
		return r;
	r = usb_find_boot_kbd(desc, total, &k);
	if (r == -EKDB_ENOENT) {
		pr_info("kbd: xHCI %s port %u: %04x:%04x is not a keyboard (%u interface%s, none HID boot keyboard)\n",
			d->hc->name, d->port, d->vendor, d->product, k.n_ifaces, k.n_ifaces == 1 ? "" : "s");
		return r;
	}
	if (r) {
		pr_warn("kbd: xHCI %s port %u: %04x:%04x: malformed configuration descriptor\n",
			d->hc->name, d->port, d->vendor, d->product);
		return r;
	}
	d->iface = k.iface;
	r = xhc_dev_control(d, devs, n, 0, USB_REQ_SET_CONFIGURATION, k.config, 0, 0, 0);
	if (r)
		return r;
	r = xhc_dev_control(d, devs, n, USB_TYPE_CLASS_IF, HID_REQ_SET_PROTOCOL, 0, k.iface, 0, 0);
	if (r)
		return r;	/* a boot-subclass interface must take it */
	/* SET_IDLE 0: a report only when something changes (optional: a stall is fine) */
	r = xhc_dev_control(d, devs, n, USB_TYPE_CLASS_IF, HID_REQ_SET_IDLE, 0, k.iface, 0, 0);
	if (r && r != -EKDB_EPIPE)
		return r;
	r = xhc_dev_configure_int(d, devs, n, &k);
	if (r)
		return r;
	hid_kbd_reset(&d->hid);
	d->leds = 0;			/* the keyboard shows nothing yet: service() sends Num Lock */
	d->q_len = d->q_head = 0;
	d->sysrq = 0;
	d->halted = d->gone = false;
	d->halts = 0;
	d->active = true;
	xhc_dev_post_all(d);
	return 1;
}

int xhc_dev_enumerate(struct xhc_dev *d, struct xhc_dev *devs, unsigned n)
{
	struct xhc *hc = d->hc;
	u8 slot = 0;
	int r;

	d->slot = 0;
	d->active = false;
	d->ctrl_busy = false;
	d->hub_ports = 0;
	d->hub_changed = 0;
	d->q_len = d->q_head = 0;
	d->sysrq = 0;
	d->halted = d->gone = false;
	d->halts = 0;
	r = xhc_command(hc, devs, n, 0, 0, TRB_TYPE(TRB_ENABLE_SLOT), &slot);
	if (r != CC_SUCCESS || !slot || slot > hc->max_slots) {
		pr_warn("kbd: xHCI %s port %u: no device slot (completion %d)\n", hc->name, d->port, r);
		return -EKDB_EIO;
	}
	d->slot = slot;
	d->used = true;
	memset(d->mem, 0, sizeof(*d->mem));
	r = address(d, devs, n);
	if (!r)
		r = setup_kbd(d, devs, n);
	if (r < 0 || (!r && !(d->hub_ports && d->active))) {	/* a hub read is kept */
		if (r && r != -EKDB_ENOENT)
			pr_warn("kbd: xHCI %s port %u%s: the device does not answer (%s, %s speed): not used\n",
				hc->name, d->port, d->parent ? " (behind the hub)" : "", ekdb_strerror(r),
				speed_name(d->speed));
		xhc_dev_drop(d, devs, n, true);
		return r == -EKDB_ENOENT ? 0 : r;
	}
	if (!d->hub_ports)
		pr_info("kbd: xHCI %s port %u%s%.0u: USB keyboard %04x:%04x (%s speed, slot %u, interface %u, endpoint 0x%02x)\n",
			hc->name, d->port, d->parent ? "." : "", d->hub_port, d->vendor, d->product,
			speed_name(d->speed), d->slot, d->iface, d->dci / 2 | 0x80);
	return r;
}

int xhc_dev_probe(struct xhc *hc, struct xhc_dev *d, unsigned port, struct xhc_dev *devs,
		  unsigned n)
{
	int r;

	d->hc = hc;
	d->port = (u8)port;
	d->hub_port = d->tt_slot = d->tt_port = 0;
	d->parent = NULL;
	r = xhc_port_reset(hc, port, &d->speed);
	if (r) {
		if (r != -EKDB_ENODEV)
			pr_warn("kbd: xHCI %s port %u: the port does not enable (%s)\n", hc->name, port,
				ekdb_strerror(r));
		return r;
	}
	return xhc_dev_enumerate(d, devs, n);
}
