/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ehci_hcd.c - a minimal EHCI host-controller driver: it brings each
 * EHCI controller up the way a real driver does, and nothing more (the
 * reference kernel has no USB stack: no schedules, no transfers, no
 * devices other than the debug device are used).  For each controller:
 *
 *   1. memory decoding and bus mastering on; the registers with ioremap();
 *   2. take it from the firmware: USBLEGSUP "OS owned", wait up to a
 *      second for "BIOS owned" to clear (else take it, with a warning),
 *      the firmware's SMIs off (USBLEGCTLSTS);
 *   3. the debug port in use (its ENABLED bit, as Linux's ehci-pci
 *      decides): tell the debug port driver before the controller is
 *      stopped and reset (dbgp_reset_prep()), and after the reset
 *      (dbgp_external_startup()) - Linux's contract, so the debugger's
 *      port keeps working;
 *   4. halt, HCRESET, then run: interrupts off (this driver polls), the
 *      schedules off, RUN, every port routed to EHCI (CONFIGFLAG);
 *   5. power the root ports and report what is connected; the debug
 *      port's root port is left alone.
 *
 * "nousb" on the command line (Linux's) keeps the driver off.
 */
#include <kernel/kernel.h>
#include <kernel/pci.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>
#include "../../io/ehci-dbgp/ehci_dbgp.h"
#include "ehci_dbgp.h"
#include <kernel/drivers.h>

#define PCI_CLASS_EHCI		0x0c0320
#define PCI_CAP_ID_DBGP		0x0a
#define EHCI_MAX		4
#define EHCI_MAP_LEN		0x400	/* capability, operational and debug port registers */
#define EHCI_USBINTR		0x08
#define EHCI_CTRLDSSEG		0x10
#define  HCS_PPC(p)		((p) & (1u << 4))
#define  CMD_ITC_8		(8u << 16)	/* interrupt threshold: 8 micro-frames */
#define  STS_W1C		0x3f
#define LEGSUP_ID		0x01
#define LEGSUP_BIOS_OWNED	(1u << 16)
#define LEGSUP_OS_OWNED		(1u << 24)
#define BIOS_HANDOFF_MS		1000
#define HALT_MS			20
#define RESET_MS		250

struct ehci {
	u32 bdf;
	volatile u8 *regs;
	u32 op;			/* operational registers' offset (CAPLENGTH) */
	u32 hcs;
	unsigned debug_port;	/* root port of the debug port in use, 0: none */
	u32 dbgp_off;
};

static u32 op_rd(struct ehci *e, u32 reg)
{
	return *(volatile u32 *)(e->regs + e->op + reg);
}

static void op_wr(struct ehci *e, u32 reg, u32 v)
{
	*(volatile u32 *)(e->regs + e->op + reg) = v;
}

/* Wait up to @ms for (op register @reg & @mask) == @want: 0 or -EKDB_ETIMEDOUT. */
static int handshake(struct ehci *e, u32 reg, u32 mask, u32 want, unsigned ms)
{
	for (unsigned us = 0; us <= ms * 1000; us += 10) {
		if ((op_rd(e, reg) & mask) == want)
			return 0;
		udelay(10);
	}
	return -EKDB_ETIMEDOUT;
}

static const char *where(struct ehci *e)
{
	static char s[16];

	ekdb_snprintf(s, sizeof(s), "%02x:%02x.%u", e->bdf >> 8, (e->bdf >> 3) & 0x1f, e->bdf & 7);
	return s;
}

/* USBLEGSUP at HCCPARAMS.EECP: the firmware lets go (or is made to). */
static void bios_handoff(struct ehci *e)
{
	u8 pos = (u8)HCC_EECP(*(volatile u32 *)(e->regs + EHCI_HCCPARAMS));

	for (int n = 0; pos >= 0x40 && n < 8; n++) {
		u32 cap = pci_read32(e->bdf, pos);

		if ((cap & 0xff) != LEGSUP_ID) {
			pos = (u8)(cap >> 8);
			continue;
		}
		if (cap & LEGSUP_BIOS_OWNED) {
			unsigned ms;

			pci_write8(e->bdf, (u8)(pos + 3), 1);
			for (ms = 0; ms < BIOS_HANDOFF_MS; ms++) {
				if (!(pci_read32(e->bdf, pos) & LEGSUP_BIOS_OWNED))
					break;
				mdelay(1);
			}
			if (ms == BIOS_HANDOFF_MS) {
				pr_warn("ehci_hcd %s: BIOS handoff failed (BIOS bug?) %08x: taking it\n",
					where(e), pci_read32(e->bdf, pos));
				pci_write8(e->bdf, (u8)(pos + 2), 0);
			}
		}
		pci_write8(e->bdf, (u8)(pos + 3), 1);
		pci_write32(e->bdf, (u8)(pos + 4), 0);		/* no SMIs */
		return;
	}
}

/* Which root port the debug port is, if it is in use (Linux: "debug port N IN USE"). */
static void find_debug_port(struct ehci *e)
{
	u8 cap = pci_find_capability(e->bdf, PCI_CAP_ID_DBGP);
	u32 dw, ctrl;

	if (!cap || !HCS_DEBUG_PORT(e->hcs))
		return;
	dw = pci_read32(e->bdf, cap);
	if (((dw >> 29) & 7) != 1)
		return;				/* registers in another BAR: not ours to map */
	e->dbgp_off = (dw >> 16) & 0x1fff;
	ctrl = *(volatile u32 *)(e->regs + e->dbgp_off + DBGP_CTRL);
	pr_info("ehci_hcd %s: debug port %u%s\n", where(e), HCS_DEBUG_PORT(e->hcs),
		ctrl & DBGP_ENABLED ? " IN USE" : "");
	if (ctrl & DBGP_ENABLED)
		e->debug_port = HCS_DEBUG_PORT(e->hcs);
}

/* Halt, reset, with the debug port driver told before and after. */
static int ehci_reset(struct ehci *e)
{
	bool debug = e->debug_port && dbgp_reset_prep(e->bdf);
	int r;

	if (e->debug_port && !debug)
		e->debug_port = 0;		/* released: an ordinary port now */
	op_wr(e, EHCI_USBINTR, 0);
	op_wr(e, EHCI_USBCMD, op_rd(e, EHCI_USBCMD) & ~(CMD_RUN | CMD_PSE | CMD_ASE));
	r = handshake(e, EHCI_USBSTS, STS_HALT, STS_HALT, HALT_MS);
	if (!r) {
		op_wr(e, EHCI_USBCMD, op_rd(e, EHCI_USBCMD) | CMD_HCRESET);
		r = handshake(e, EHCI_USBCMD, CMD_HCRESET, 0, RESET_MS);
	}
	if (debug)
		dbgp_external_startup(e->bdf);	/* also when the reset failed: the port first */
	return r;
}

static int ehci_run(struct ehci *e)
{
	u32 cmd;

	op_wr(e, EHCI_CTRLDSSEG, 0);
	op_wr(e, EHCI_USBSTS, STS_W1C);
	cmd = op_rd(e, EHCI_USBCMD) & ~(CMD_PSE | CMD_ASE | CMD_HCRESET | (0xffu << 16));
	op_wr(e, EHCI_USBCMD, cmd | CMD_ITC_8 | CMD_RUN);
	op_wr(e, EHCI_CONFIGFLAG, 1);		/* every port to EHCI, none to companions */
	(void)op_rd(e, EHCI_CONFIGFLAG);	/* flush the posted write */
	return handshake(e, EHCI_USBSTS, STS_HALT, 0, HALT_MS);
}

static void ports_report(struct ehci *e)
{
	unsigned n = HCS_N_PORTS(e->hcs), connected = 0;

	for (unsigned i = 1; i <= n; i++) {
		u32 p;

		if (i == e->debug_port)
			continue;		/* the debugger's: never touched */
		p = op_rd(e, EHCI_PORTSC(i));
		if (HCS_PPC(e->hcs) && !(p & PORT_PP))
			op_wr(e, EHCI_PORTSC(i), (p & ~(PORT_RWC | PORT_PE)) | PORT_PP);
		connected += !!(op_rd(e, EHCI_PORTSC(i)) & PORT_CCS);
	}
	pr_info("ehci_hcd %s: USB 2.0 started, EHCI %x.%02x, %u ports, %u connected%s\n", where(e),
		*(volatile u16 *)(e->regs + 2) >> 8, *(volatile u16 *)(e->regs + 2) & 0xff, n,
		connected, e->debug_port ? ", debug port in use" : "");
}

static void ehci_probe(u32 bdf)
{
	struct ehci e = { .bdf = bdf };
	u64 bar = pci_bar_address(bdf, 0);
	int r;

	if (!bar) {
		pr_err("ehci_hcd %s: no address assigned to BAR0: skipped\n", where(&e));
		return;
	}
	pci_write16(bdf, PCI_COMMAND, pci_read16(bdf, PCI_COMMAND) | PCI_COMMAND_MEMORY |
		    PCI_COMMAND_MASTER);
	e.regs = ioremap(bar, EHCI_MAP_LEN);
	if (!e.regs) {
		pr_err("ehci_hcd %s: registers at 0x%llx not mapped: skipped\n", where(&e),
		       (unsigned long long)bar);
		return;
	}
	e.op = *(volatile u8 *)e.regs;
	e.hcs = *(volatile u32 *)(e.regs + EHCI_HCSPARAMS);
	bios_handoff(&e);
	find_debug_port(&e);
	r = ehci_reset(&e);
	if (!r)
		r = ehci_run(&e);
	if (r) {
		pr_err("ehci_hcd %s: controller did not %s (%s)\n", where(&e),
		       op_rd(&e, EHCI_USBCMD) & CMD_HCRESET ? "reset" : "start", ekdb_strerror(r));
		return;
	}
	ports_report(&e);
}

/* ehci_hcd_init() - every EHCI controller on PCI, in bus order. */
void ehci_hcd_init(void)
{
	u32 bdf;

	if (cmdline_has("nousb"))
		return;
	for (unsigned i = 0; i < EHCI_MAX && pci_find_class(PCI_CLASS_EHCI, i, &bdf); i++)
		ehci_probe(bdf);
}
