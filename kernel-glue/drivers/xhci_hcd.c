/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhci_hcd.c - a minimal xHCI host-controller driver: it brings each xHCI
 * controller up the way a real driver does, and its USB keyboards
 * (xhci_kbd.c: the reference kernel's only USB devices).  For each
 * controller (xHCI 1.1 section 4.2):
 *
 *   1. memory decoding and bus mastering on; the registers with ioremap();
 *   2. take it from the firmware: USB Legacy Support (extended capability
 *      1) "HC OS Owned", wait up to a second for "HC BIOS Owned" to clear
 *      (else take it, with a warning), the firmware's SMIs off;
 *   3. the early USB keyboard driver (ekgdboc=kbd) is told it no longer
 *      owns the controller (usbkbd_early_release()): its keyboards' state
 *      waits for the keyboard driver;
 *   3b. the Debug Capability in use (DCE set): tell the DbC driver before
 *      the controller is stopped and reset (xdbc_reset_prep()) and right
 *      after (xdbc_external_startup()): HCRST resets the DbC as well, the
 *      DbC driver enables it again, the debugger's session goes on;
 *   4. halt (R/S 0, wait for HCHalted), HCRST (wait for it and Controller
 *      Not Ready to clear); with the DbC in use this step is the keyboard
 *      driver's (4b), one reset, so the far host enumerates the DbC once;
 *   4b. the USB keyboard driver resets and runs the controller (the DbC
 *      driver told around its reset as in 3b) and enumerates its keyboards
 *      (xhci_kbd_probe()), each carrying on from the early driver's
 *      keyboard on its port; steps 5-6 are for a controller it could not
 *      run;
 *   5. run: MaxSlotsEn, a zeroed Device Context Base Address Array, a
 *      command ring (one segment, Link TRB with Toggle Cycle), interrupter
 *      0's event ring and segment table, interrupts off (this driver
 *      polls nothing), R/S 1, wait for HCHalted to clear;
 *   6. report the root ports with a device connected; the DbC's port is
 *      the DbC's (the xHC does not see it while DCE is set).
 *
 * Every wait is bounded.  "nousb" on the command line keeps it off.
 */
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/pci.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>
#include "../../io/xhci-dbc/xhci_dbc.h"
#include "../../io/kbd/kbd.h"
#include "xhci_dbc.h"
#include "xhci_kbd.h"
#include <kernel/drivers.h>

#define PCI_CLASS_XHCI		0x0c0330
#define XHCI_MAX		4
#define XHCI_HCSPARAMS1		0x04
#define  HCS_MAX_SLOTS(p)	((p) & 0xff)
#define  HCS_MAX_PORTS(p)	(((p) >> 24) & 0xff)
#define XHCI_RTSOFF		0x18
/* operational registers */
#define USBCMD			0x00
#define  CMD_RUN		(1u << 0)
#define  CMD_HCRST		(1u << 1)
#define  CMD_INTE		(1u << 2)
#define USBSTS			0x04
#define  STS_HCH		(1u << 0)
#define  STS_CNR		(1u << 11)
#define  STS_W1C		((1u << 2) | (1u << 3) | (1u << 4) | (1u << 10))
#define CRCR			0x18
#define DCBAAP			0x30
#define CONFIG			0x38
#define PORTSC(n)		(0x400 + 0x10 * ((n) - 1))
#define  PORT_CCS		(1u << 0)
#define  PORT_PP		(1u << 9)
/* interrupter 0 (runtime registers + 0x20) */
#define IMAN			0x20
#define ERSTSZ			0x28
#define ERSTBA			0x30
#define ERDP			0x38
#define BIOS_HANDOFF_MS		1000
#define HALT_MS			20	/* 16 micro-frames, with margin */
#define RESET_MS		1000
#define CMD_TRBS		64
#define EVT_TRBS		256

struct xhci {
	u32 bdf;
	volatile u8 *regs;
	u32 op, rt;			/* operational and runtime registers' offsets */
	u32 hcs1;
	bool dbc_in_use;
	unsigned dbc_port;
	/* one page each: DCBAA, command ring, event ring, segment table */
	u8 *dcbaa, *cmd_ring, *evt_ring, *erst;
};

static u32 rd(struct xhci *x, u32 off)
{
	return *(volatile u32 *)(x->regs + off);
}

static void wr(struct xhci *x, u32 off, u32 v)
{
	*(volatile u32 *)(x->regs + off) = v;
}

static void wr64(struct xhci *x, u32 off, u64 v)
{
	wr(x, off, (u32)v);
	wr(x, off + 4, (u32)(v >> 32));
}

/* Wait up to @ms for (register @off & @mask) == @want: 0 or -EKDB_ETIMEDOUT. */
static int handshake(struct xhci *x, u32 off, u32 mask, u32 want, unsigned ms)
{
	for (unsigned us = 0; us <= ms * 1000; us += 10) {
		if ((rd(x, off) & mask) == want)
			return 0;
		udelay(10);
	}
	return -EKDB_ETIMEDOUT;
}

static const char *where(struct xhci *x)
{
	static char s[16];

	ekdb_snprintf(s, sizeof(s), "%02x:%02x.%u", x->bdf >> 8, (x->bdf >> 3) & 0x1f, x->bdf & 7);
	return s;
}

static u32 ext_rd(void *arg, u32 off)
{
	return rd(arg, off);
}

/* Extended capability @id's offset, or 0. */
static u32 ext_cap(struct xhci *x, unsigned id)
{
	return xhci_ext_cap(ext_rd, x, XHCI_MAP_LEN - 4, id);
}

/* USB Legacy Support: the firmware lets go (or is made to). */
static void bios_handoff(struct xhci *x)
{
	u32 off = ext_cap(x, XHCI_EXT_LEGSUP);
	unsigned ms;

	if (!off)
		return;
	if (rd(x, off) & LEGSUP_BIOS_OWNED) {
		wr(x, off, rd(x, off) | LEGSUP_OS_OWNED);
		for (ms = 0; ms < BIOS_HANDOFF_MS && rd(x, off) & LEGSUP_BIOS_OWNED; ms++)
			mdelay(1);
		if (ms == BIOS_HANDOFF_MS) {
			pr_warn("xhci_hcd %s: BIOS handoff failed (BIOS bug?) %08x: taking it\n",
				where(x), rd(x, off));
			wr(x, off, (rd(x, off) & ~LEGSUP_BIOS_OWNED) | LEGSUP_OS_OWNED);
		}
	} else {
		wr(x, off, rd(x, off) | LEGSUP_OS_OWNED);
	}
	/* SMIs off: keep only the write-1-to-clear status bits clear */
	wr(x, off + XHCI_LEGCTLSTS, rd(x, off + XHCI_LEGCTLSTS) & 0xe0000000u);
}

/* The DbC enabled (by the early debugger, or firmware): its port is not the xHC's. */
static void find_dbc(struct xhci *x)
{
	u32 off = ext_cap(x, XHCI_EXT_DBC);

	if (!off)
		return;
	x->dbc_in_use = rd(x, off + DBC_DCCTRL) & DCCTRL_DCE;
	x->dbc_port = DCST_PORT(rd(x, off + DBC_DCST));
	pr_info("xhci_hcd %s: Debug Capability %s\n", where(x), x->dbc_in_use ? "IN USE" : "not in use");
}

/* Halt and reset, the DbC driver told before and after. */
static int xhci_reset(struct xhci *x)
{
	bool debug = x->dbc_in_use && xdbc_reset_prep(x->bdf);
	int r;

	wr(x, x->op + USBCMD, rd(x, x->op + USBCMD) & ~(CMD_RUN | CMD_INTE));
	r = handshake(x, x->op + USBSTS, STS_HCH, STS_HCH, HALT_MS);
	if (!r) {
		wr(x, x->op + USBCMD, CMD_HCRST);
		r = handshake(x, x->op + USBCMD, CMD_HCRST, 0, RESET_MS);
		if (!r)
			r = handshake(x, x->op + USBSTS, STS_CNR, 0, RESET_MS);
	}
	if (debug)
		xdbc_external_startup(x->bdf);	/* also when the reset failed: the DbC first */
	return r;
}

static int xhci_run(struct xhci *x)
{
	struct xhci_erst_entry *e;
	struct xhci_trb *link;

	x->dcbaa = alloc_pages(0);
	x->cmd_ring = alloc_pages(0);
	x->evt_ring = alloc_pages(0);
	x->erst = alloc_pages(0);
	if (!x->dcbaa || !x->cmd_ring || !x->evt_ring || !x->erst)
		return -EKDB_ENOMEM;
	memset(x->dcbaa, 0, 4096);
	memset(x->cmd_ring, 0, 4096);
	memset(x->evt_ring, 0, 4096);
	memset(x->erst, 0, 4096);
	link = (struct xhci_trb *)x->cmd_ring + CMD_TRBS - 1;
	link->param = __pa(x->cmd_ring);
	link->ctrl = TRB_TYPE(TRB_LINK) | TRB_TC;	/* cycle 0: not the xHC's yet */
	e = (struct xhci_erst_entry *)x->erst;
	e->base = __pa(x->evt_ring);
	e->size = EVT_TRBS;

	wr(x, x->op + CONFIG, HCS_MAX_SLOTS(x->hcs1));
	wr64(x, x->op + DCBAAP, __pa(x->dcbaa));
	wr64(x, x->op + CRCR, __pa(x->cmd_ring) | 1);		/* RCS 1 */
	wr(x, x->rt + IMAN, 1);					/* IP: write 1 to clear; IE off */
	wr(x, x->rt + ERSTSZ, 1);
	wr64(x, x->rt + ERDP, __pa(x->evt_ring));
	wr64(x, x->rt + ERSTBA, __pa(x->erst));
	wr(x, x->op + USBSTS, STS_W1C);
	wr(x, x->op + USBCMD, CMD_RUN);
	return handshake(x, x->op + USBSTS, STS_HCH, 0, HALT_MS);
}

static void ports_report(struct xhci *x)
{
	unsigned n = HCS_MAX_PORTS(x->hcs1), connected = 0;

	for (unsigned i = 1; i <= n; i++)
		connected += !!(rd(x, x->op + PORTSC(i)) & PORT_CCS);
	pr_info("xhci_hcd %s: xHCI %x.%02x started, %u ports, %u connected%s\n", where(x),
		rd(x, 0) >> 24, (rd(x, 0) >> 16) & 0xff, n, connected,
		x->dbc_in_use ? ", Debug Capability in use" : "");
}

static void xhci_probe(u32 bdf)
{
	struct xhci x = { .bdf = bdf };
	u64 bar = pci_bar_address(bdf, 0);
	int r;

	if (!bar) {
		pr_err("xhci_hcd %s: no address assigned to BAR0: skipped\n", where(&x));
		return;
	}
	pci_write16(bdf, PCI_COMMAND, pci_read16(bdf, PCI_COMMAND) | PCI_COMMAND_MEMORY |
		    PCI_COMMAND_MASTER);
	x.regs = ioremap(bar, XHCI_MAP_LEN);
	if (!x.regs) {
		pr_err("xhci_hcd %s: registers at 0x%llx not mapped: skipped\n", where(&x),
		       (unsigned long long)bar);
		return;
	}
	x.op = rd(&x, XHCI_CAPLENGTH) & 0xff;
	x.rt = rd(&x, XHCI_RTSOFF) & ~0x1fu;
	x.hcs1 = rd(&x, XHCI_HCSPARAMS1);
	bios_handoff(&x);
	find_dbc(&x);
	usbkbd_early_release(bdf);
	r = x.dbc_in_use ? 0 : xhci_reset(&x);	/* with the DbC: the keyboard driver's reset only */
	if (!r && xhci_kbd_probe(bdf, x.dbc_in_use) >= 0) {
		ports_report(&x);	/* running, with its keyboards */
		return;
	}
	if (!r && x.dbc_in_use)
		r = xhci_reset(&x);
	if (!r)
		r = xhci_run(&x);
	if (r) {
		pr_err("xhci_hcd %s: controller did not %s (%s)\n", where(&x),
		       rd(&x, x.op + USBCMD) & CMD_HCRST ? "reset" : "start", ekdb_strerror(r));
		return;
	}
	ports_report(&x);
}

/* xhci_hcd_init() - every xHCI controller on PCI, in bus order. */
void xhci_hcd_init(void)
{
	u32 bdf;

	if (!cmdline_has("nousb"))
		for (unsigned i = 0; i < XHCI_MAX && pci_find_class(PCI_CLASS_XHCI, i, &bdf); i++)
			xhci_probe(bdf);
	xhci_kbd_start();
}
