/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usbkbd.c - the early USB keyboards (usbkbd.h): every xHCI controller on
 * PCI (USB Legacy Support handoff, reset, rings: xhc.c), every root port
 * with a device (xhc_dev.c: a HID boot keyboard is kept, anything else has
 * its slot freed), then polled: events, key repeat, LEDs, and, while the
 * debugger waits, keyboards plugged in or unplugged.  A controller whose
 * Debug Capability is in use is reset all the same, the early DbC driver
 * told before and after (HCRST resets the DbC: it enables it again and
 * its session goes on, io/xhci-dbc/xdbc_transport.c).  The DMA blocks
 * are plain static .bss, not the early region the handoff frees: the
 * controller uses them until the kernel's xHCI driver resets it.
 */
#include "usbkbd.h"
#include "xhc.h"
#include "../xhci-dbc/xhci_dbc.h"
#include <asm/tsc_early.h>
#include <ekdb/errno.h>
#include <ekdb/log.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>

static struct xhc_mem hc_mem[XHC_MAX] __aligned(4096);
static struct xhc_dev_mem dev_mem[XHC_DEVS] __aligned(4096);
static u8 scratch_pool[XHC_SCRATCH_PAGES][4096] __aligned(4096);
static struct xhc hcs[XHC_MAX];
static struct xhc_dev devs[XHC_DEVS];
static struct xhc_set set = { .hcs = hcs, .devs = devs, .n_devs = XHC_DEVS };
static unsigned n_found;
static u64 scratch_next;
static unsigned scratch_left;
static bool init_done;

static bool dbc_in_use(struct xhc *hc)
{
	u32 off = xhci_pci_ext_cap(&hc->pci, XHCI_EXT_DBC);

	return off && (xhc_rd(hc, off + DBC_DCCTRL) & DCCTRL_DCE);
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
		pr_info("kbd: xHCI %s: its Debug Capability is in use: reset for keyboards beside it, "
			"the DbC driver told\n", hc->name);
		hc->dbc_prep = early_xdbc_reset_prep;
		hc->dbc_startup = early_xdbc_external_startup;
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
	for (unsigned d = 0; d < XHC_DEVS; d++)
		if (!xhci_dma_phys(&dev_mem[d], sizeof(dev_mem[d]), &devs[d].mem_phys))
			devs[d].mem = &dev_mem[d];	/* else never handed out */
	xhci_pci_find(0, &probe, &total);
	if (!total) {
		pr_info("kbd: no xHCI controller: no USB keyboard\n");
		return 0;
	}
	for (unsigned i = 0; i < total && set.n_hcs < XHC_MAX; i++) {
		struct xhc *hc = &hcs[set.n_hcs];
		unsigned before = n_found;

		if (xhci_pci_find(i, &hc->pci, &total))
			break;
		if (start_hc(hc, &hc_mem[set.n_hcs]))
			continue;
		set.n_hcs++;
		n_found += xhc_set_probe_ports(&set, hc);
		pr_info("kbd: xHCI %s: %u root ports, %u USB keyboard%s\n", hc->name, hc->max_ports,
			n_found - before, n_found - before == 1 ? "" : "s");
	}
	if (total > XHC_MAX)
		pr_warn("kbd: %u xHCI controllers, keyboards are looked for on the first %u\n", total,
			XHC_MAX);
	if (!n_found)
		for (unsigned i = 0; i < set.n_hcs; i++)
			halt(&hcs[i]);		/* nobody polls them: no DMA into our blocks */
	return n_found;
}

int usbkbd_early_getc(bool stopped)
{
	int c;

	if (!set.n_hcs || !xhc_set_trylock(&set))
		return EKDB_NO_CHAR;
	c = xhc_set_getc(&set, stopped, early_now_us());
	n_found = xhc_set_count(&set);
	xhc_set_unlock(&set);
	return c;
}

unsigned usbkbd_early_count(void)
{
	return xhc_set_count(&set);
}

struct xhc_set *usbkbd_early_set(void)
{
	return &set;
}

unsigned usbkbd_early_release(u32 bdf)
{
	unsigned n = 0;

	for (unsigned i = 0; i < set.n_hcs; i++) {
		struct xhc *hc = &hcs[i];

		if (xhc_bdf(hc) != bdf || hc->released)
			continue;
		while (!xhc_set_trylock(&set))
			;
		hc->released = true;
		for (unsigned d = 0; d < XHC_DEVS; d++)
			if (devs[d].used && devs[d].hc == hc) {
				n += devs[d].active && !devs[d].hub_ports;
				devs[d].active = false;
			}
		xhc_set_unlock(&set);
	}
	return n;
}
