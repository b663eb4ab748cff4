/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhc_poll.c - the keyboards of a set of xHCI controllers, polled (xhc.h,
 * struct xhc_set): the root ports probed once a controller runs, ports
 * whose status changed acted on (an unplugged device dropped, a new one
 * enumerated), events read, each keyboard serviced (endpoint recovery,
 * LEDs, key repeat) and read in turn.  One implementation for the early
 * driver's static set (usbkbd.c) and the running kernel's allocated one
 * (kernel-glue/drivers/xhci_kbd.c).  The caller serialises.
 */
#include "xhc.h"
#include <asm/tsc_early.h>
#include <ekdb/log.h>
#include <ekdb/transport.h>

static struct xhc_dev *free_dev(struct xhc_set *s)
{
	for (unsigned i = 0; i < s->n_devs; i++)
		if (!s->devs[i].used && s->devs[i].mem)
			return &s->devs[i];
	return NULL;
}

/* The device on root port @port (a hub: not those behind it). */
static struct xhc_dev *dev_on(struct xhc_set *s, struct xhc *hc, unsigned port)
{
	for (unsigned i = 0; i < s->n_devs; i++) {
		struct xhc_dev *d = &s->devs[i];

		if (d->used && d->hc == hc && d->port == port && !d->parent)
			return d;
	}
	return NULL;
}

static unsigned probe_port(struct xhc_set *s, struct xhc *hc, unsigned port)
{
	struct xhc_dev *d = free_dev(s);
	int r;

	if (!d) {
		pr_warn("kbd: xHCI %s port %u: no room for another keyboard (%u at most)\n", hc->name,
			port, s->n_devs);
		return 0;
	}
	r = xhc_dev_probe(hc, d, port, s->devs, s->n_devs);
	return r > 0 ? (unsigned)r : 0;
}

unsigned xhc_set_probe_ports(struct xhc_set *s, struct xhc *hc)
{
	unsigned found = 0;

	/* the ports see their devices again after the reset */
	for (u64 t0 = early_now_us(); early_now_us() - t0 < XHC_CONNECT_US;)
		;
	xhc_events(hc, s->devs, s->n_devs);
	hc->port_changed = 0;
	for (unsigned p = 1; p <= hc->max_ports; p++)
		if (xhc_rd(hc, hc->op + XHCI_PORTSC(p)) & PORT_CCS)
			found += probe_port(s, hc, p);
	return found;
}

/* Hubs of @hc whose status-change endpoint named ports. */
static void hubs_changed(struct xhc_set *s, struct xhc *hc)
{
	for (unsigned i = 0; i < s->n_devs; i++) {
		struct xhc_dev *h = &s->devs[i];

		if (h->used && h->hc == hc && h->hub_ports && h->hub_changed)
			xhc_hub_changed(h, s->devs, s->n_devs);
	}
}

void xhc_set_hotplug(struct xhc_set *s, struct xhc *hc)
{
	u32 changed = hc->port_changed;

	hc->port_changed = 0;
	for (unsigned p = 1; p <= hc->max_ports; p++) {
		u32 off = hc->op + XHCI_PORTSC(p), sc;
		struct xhc_dev *d;

		if (!(changed & (1u << (p - 1))))
			continue;
		sc = xhc_rd(hc, off);
		xhc_wr(hc, off, (sc & PORT_KEEP) | (sc & PORT_CHANGES));
		d = dev_on(s, hc, p);
		if (d && (!(sc & PORT_CCS) || (sc & PORT_CSC))) {
			pr_info("kbd: xHCI %s port %u: USB %s unplugged\n", hc->name, p,
				d->hub_ports ? "hub" : "keyboard");
			xhc_dev_drop(d, s->devs, s->n_devs, true);
			d = NULL;
		}
		if (!d && (sc & PORT_CCS))
			probe_port(s, hc, p);
	}
	hubs_changed(s, hc);
}

bool xhc_set_port_changed(const struct xhc_set *s)
{
	for (unsigned i = 0; i < s->n_hcs; i++)
		if (s->hcs[i].running && !s->hcs[i].released && s->hcs[i].port_changed)
			return true;
	for (unsigned i = 0; i < s->n_devs; i++)
		if (s->devs[i].used && s->devs[i].hub_changed && !s->devs[i].hc->released)
			return true;
	return false;
}

int xhc_set_getc(struct xhc_set *s, bool hotplug, u64 now_us)
{
	int c = EKDB_NO_CHAR;

	for (unsigned i = 0; i < s->n_hcs; i++) {
		struct xhc *hc = &s->hcs[i];

		if (!hc->running || hc->released)
			continue;
		xhc_events(hc, s->devs, s->n_devs);
		if (hotplug)
			xhc_set_hotplug(s, hc);
	}
	for (unsigned i = 0; i < s->n_devs; i++)
		if (s->devs[i].used && s->devs[i].active)
			xhc_dev_service(&s->devs[i], s->devs, s->n_devs, now_us);
	for (unsigned k = 0; k < s->n_devs && c == EKDB_NO_CHAR; k++) {
		struct xhc_dev *d = &s->devs[(s->next_dev + k) % s->n_devs];

		if (d->used && d->active && !d->hc->released)
			c = xhc_dev_getc(d);
	}
	if (s->n_devs)
		s->next_dev = (s->next_dev + 1) % s->n_devs;
	return c;
}

unsigned xhc_set_count(const struct xhc_set *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < s->n_devs; i++) {
		const struct xhc_dev *d = &s->devs[i];

		n += d->used && d->active && !d->gone && !d->hub_ports && !d->hc->released;
	}
	return n;
}

void xhc_set_flush_input(struct xhc_set *s)
{
	for (unsigned i = 0; i < s->n_devs; i++) {
		struct xhc_dev *d = &s->devs[i];

		d->q_len = d->q_head = 0;
		d->sysrq = 0;
		d->hid.repeat_usage = 0;
	}
}
