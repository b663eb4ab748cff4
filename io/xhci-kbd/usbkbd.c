/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usbkbd.c - the early USB keyboards (usbkbd.h): every xHCI controller on
 * PCI (USB Legacy Support handoff, reset, rings: xhc.c), every root port
 * with a device (xhc_dev.c: a HID boot keyboard is kept, anything else has
 * its slot freed), then polled: events, key repeat, LEDs, and, while the
 * debugger waits, keyboards plugged in or unplugged.  A controller whose
 * Debug Capability is in use is left alone (a reset would end the DbC's
 * session).  The DMA blocks are plain static .bss, not the early region
 * the handoff frees: the controller uses them until the kernel's xHCI
 * driver resets it.
 */
#include "usbkbd.h"
#include "xhc.h"
#include <asm/tsc_early.h>
#include <ekdb/errno.h>
#include <ekdb/log.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>

#define DBC_DCCTRL_DCE_OFF	0x20	/* DbC control register, from the capability */
#define DBC_DCCTRL_DCE		(1u << 31)

static struct xhc_mem hc_mem[XHC_MAX] __aligned(4096);
static struct xhc_dev_mem dev_mem[XHC_DEVS] __aligned(4096);
static u8 scratch_pool[XHC_SCRATCH_PAGES][4096] __aligned(4096);
static struct xhc hcs[XHC_MAX];
static struct xhc_dev devs[XHC_DEVS];
static struct xhc_dev kept[XHC_DEVS];	/* a restart's keyboards as they were */
static unsigned n_hcs, n_found;
static u64 scratch_next;
static unsigned scratch_left;
static bool init_done;
static int lock_word;
static unsigned next_dev;		/* round robin over the keyboards' queues */

static bool lock(void)
{
	return __atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE) == 0;
}

static void unlock(void)
{
	__atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
}

static struct xhc_dev *free_dev(void)
{
	for (unsigned i = 0; i < XHC_DEVS; i++)
		if (!devs[i].used)
			return &devs[i];
	return NULL;
}

static struct xhc_dev *dev_on(struct xhc *hc, unsigned port)
{
	for (unsigned i = 0; i < XHC_DEVS; i++)
		if (devs[i].used && devs[i].hc == hc && devs[i].port == port && !devs[i].parent)
			return &devs[i];		/* the device on the root port (a hub: not those behind it) */
	return NULL;
}

static unsigned probe_port(struct xhc *hc, unsigned port)
{
	struct xhc_dev *d = free_dev();

	if (!d) {
		pr_warn("kbd: xHCI %s port %u: no room for another keyboard (%u at most)\n", hc->name,
			port, XHC_DEVS);
		return 0;
	}
	int r = xhc_dev_probe(hc, d, port, devs, XHC_DEVS);

	return r > 0 ? (unsigned)r : 0;
}

static bool dbc_in_use(struct xhc *hc)
{
	u32 off = xhci_pci_ext_cap(&hc->pci, XHCI_EXT_DBC);

	return off && (xhc_rd(hc, off + DBC_DCCTRL_DCE_OFF) & DBC_DCCTRL_DCE);
}

/* One controller up: 0, or -errno (the message said why). */
static int start_hc(struct xhc *hc, struct xhc_mem *mem)
{
	int r = xhci_pci_setup(&hc->pci);

	xhci_pci_name(&hc->pci, hc->name);
	if (!r)
		r = xhci_pci_map(&hc->pci);
	if (r) {
		pr_err("kbd: xHCI %s: registers not reachable (%s)\n", hc->name, ekdb_strerror(r));
		return r;
	}
	if (dbc_in_use(hc)) {
		pr_warn("kbd: xHCI %s: its Debug Capability is in use: not reset for keyboards\n",
			hc->name);
		return -EKDB_EBUSY;
	}
	xhci_pci_handoff(&hc->pci, "kbd");
	hc->mem = mem;
	if (xhci_dma_phys(mem, sizeof(*mem), &hc->mem_phys)) {
		pr_err("kbd: xHCI %s: no contiguous physical memory for its rings\n", hc->name);
		return -EKDB_EFAULT;
	}
	r = xhc_start(hc, &scratch_next, &scratch_left);
	if (r)
		pr_err("kbd: xHCI %s: the controller does not start (%s)\n", hc->name, ekdb_strerror(r));
	return r;
}

static void halt(struct xhc *hc)
{
	xhc_wr(hc, hc->op + XHCI_USBCMD, xhc_rd(hc, hc->op + XHCI_USBCMD) & ~CMD_RUN);
	hc->running = false;
}

/* The ports of a started controller: each device there enumerated; how many keyboards. */
static unsigned probe_ports(struct xhc *hc)
{
	unsigned found = 0;
	u64 t0;

	/* the ports see their devices again after the reset */
	for (t0 = early_now_us(); early_now_us() - t0 < XHC_CONNECT_US;)
		;
	xhc_events(hc, devs, XHC_DEVS);
	hc->port_changed = 0;
	for (unsigned p = 1; p <= hc->max_ports; p++)
		if (xhc_rd(hc, hc->op + XHCI_PORTSC(p)) & PORT_CCS)
			found += probe_port(hc, p);
	return found;
}

unsigned usbkbd_early_init(void)
{
	unsigned total = 0;
	struct xhci_pci probe;

	if (init_done)
		return n_found;
	init_done = true;
	early_tsc_khz();			/* the clock first (PIT calibration) */
	scratch_left = XHC_SCRATCH_PAGES;
	if (xhci_dma_phys(scratch_pool, sizeof(scratch_pool), &scratch_next))
		scratch_left = 0;
	for (unsigned d = 0; d < XHC_DEVS; d++) {
		devs[d].mem = &dev_mem[d];
		if (xhci_dma_phys(&dev_mem[d], sizeof(dev_mem[d]), &devs[d].mem_phys))
			devs[d].used = true;	/* never handed out */
	}
	xhci_pci_find(0, &probe, &total);
	if (!total) {
		pr_info("kbd: no xHCI controller: no USB keyboard\n");
		return 0;
	}
	for (unsigned i = 0; i < total && n_hcs < XHC_MAX; i++) {
		struct xhc *hc = &hcs[n_hcs];
		unsigned before = n_found;

		if (xhci_pci_find(i, &hc->pci, &total))
			break;
		if (start_hc(hc, &hc_mem[n_hcs]))
			continue;
		n_hcs++;
		n_found += probe_ports(hc);
		pr_info("kbd: xHCI %s: %u root ports, %u USB keyboard%s\n", hc->name, hc->max_ports,
			n_found - before, n_found - before == 1 ? "" : "s");
	}
	if (total > XHC_MAX)
		pr_warn("kbd: %u xHCI controllers, keyboards are looked for on the first %u\n", total,
			XHC_MAX);
	if (!n_found)
		for (unsigned i = 0; i < n_hcs; i++)
			halt(&hcs[i]);		/* nobody polls them: no DMA into our blocks */
	return n_found;
}

/* Ports whose status changed: unplugged keyboards dropped, new ones enumerated. */
static void hotplug(struct xhc *hc)
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
		d = dev_on(hc, p);
		if (d && (!(sc & PORT_CCS) || (sc & PORT_CSC))) {
			pr_info("kbd: xHCI %s port %u: USB %s unplugged\n", hc->name, p,
				d->hub_ports ? "hub" : "keyboard");
			xhc_dev_drop(d, devs, XHC_DEVS, true);
			d = NULL;
		}
		if (!d && (sc & PORT_CCS))
			probe_port(hc, p);
	}
	n_found = usbkbd_early_count();
}

int usbkbd_early_getc(bool stopped)
{
	u64 now;
	int c = EKDB_NO_CHAR;

	if (!n_hcs || !lock())
		return EKDB_NO_CHAR;
	now = early_now_us();
	for (unsigned i = 0; i < n_hcs; i++) {
		if (!hcs[i].running || hcs[i].released)
			continue;
		xhc_events(&hcs[i], devs, XHC_DEVS);
		if (stopped && hcs[i].port_changed)
			hotplug(&hcs[i]);
	}
	for (unsigned i = 0; i < XHC_DEVS; i++)
		if (devs[i].used && devs[i].active)
			xhc_dev_service(&devs[i], devs, XHC_DEVS, now);
	for (unsigned k = 0; k < XHC_DEVS && c == EKDB_NO_CHAR; k++) {
		struct xhc_dev *d = &devs[(next_dev + k) % XHC_DEVS];

		if (d->used && d->active && !d->hc->released)
			c = xhc_dev_getc(d);
	}
	next_dev = (next_dev + 1) % XHC_DEVS;
	unlock();
	return c;
}

unsigned usbkbd_early_count(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < XHC_DEVS; i++)
		n += devs[i].used && devs[i].active && !devs[i].gone && !devs[i].hc->released;
	return n;
}

unsigned usbkbd_early_release(u32 bdf)
{
	unsigned n = 0;

	for (unsigned i = 0; i < n_hcs; i++) {
		struct xhc *hc = &hcs[i];

		if (((u32)hc->pci.bus << 8 | (u32)hc->pci.slot << 3 | hc->pci.func) != bdf ||
		    hc->released)
			continue;
		while (!lock())
			;
		hc->released = true;
		for (unsigned d = 0; d < XHC_DEVS; d++)
			if (devs[d].used && devs[d].hc == hc) {
				n += devs[d].active;
				devs[d].active = false;
			}
		unlock();
	}
	return n;
}

unsigned usbkbd_early_restart(u32 bdf)
{
	unsigned n = 0;

	for (unsigned i = 0; i < n_hcs; i++) {
		struct xhc *hc = &hcs[i];
		int r;

		if (((u32)hc->pci.bus << 8 | (u32)hc->pci.slot << 3 | hc->pci.func) != bdf ||
		    !hc->released)
			continue;
		while (!lock())
			;
		for (unsigned d = 0; d < XHC_DEVS; d++) {
			kept[d] = devs[d];
			if (devs[d].used && devs[d].hc == hc) {
				devs[d].used = devs[d].active = false;	/* the reset freed every slot */
				devs[d].slot = 0;
			}
		}
		hc->released = false;
		hc->running = false;
		r = xhc_start(hc, &scratch_next, &scratch_left);
		if (r) {
			hc->released = true;
			unlock();
			pr_err("kbd: xHCI %s: the controller does not start again (%s)\n", hc->name,
			       ekdb_strerror(r));
			continue;
		}
		n = probe_ports(hc);
		for (unsigned d = 0; d < XHC_DEVS; d++) {
			struct xhc_dev *nd = &devs[d];

			if (!nd->used || nd->hc != hc)
				continue;
			for (unsigned k = 0; k < XHC_DEVS; k++) {
				const struct xhc_dev *od = &kept[k];

				/* (release() cleared active: a keyboard is a used block that is no hub) */
				if (od->used && !od->hub_ports && od->hc == hc && od->port == nd->port &&
				    od->hub_port == nd->hub_port) {
					nd->hid = od->hid;		/* keys held, modifiers, locks */
					nd->hid.repeat_usage = 0;	/* no repeat until it is pressed again */
					memcpy(nd->q, od->q, sizeof(nd->q));
					nd->q_head = od->q_head;
					nd->q_len = od->q_len;
					nd->sysrq = od->sysrq;
				}
			}
		}
		n_found = usbkbd_early_count();
		unlock();
	}
	return n;
}
