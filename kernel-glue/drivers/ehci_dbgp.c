/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ehci_dbgp.c - the running kernel's driver of the USB debug port: it
 * takes the debug device over from the early driver (io/ehci-dbgp)
 * without enumerating it again, carries the debugger (kgdbdbgp=) and the
 * console (earlyprintk=dbgpN[,keep]) from then on, and keeps the port
 * working while the EHCI driver (ehci_hcd.c) resets the controller.
 *
 *  - The controller is found with the kernel's PCI access (pci.c), its
 *    registers reached with ioremap(); the byte handling is the early
 *    driver's code (dbgp_chan.c) on an instance of this driver.
 *  - The takeover: with kgdbdbgp= the debugger's handoff does it
 *    (ekdb_register_io(): export_state of the early transport, import
 *    here, the early one retired); with only earlyprintk=dbgp this driver
 *    does the same steps itself.  Either way it happens while one CPU
 *    runs, and the import checks that the state names the registers this
 *    driver found.
 *  - Around the EHCI driver's reset (dbgp_reset_prep/_external_startup):
 *    output is held, the hardware left alone, then the controller runs
 *    again and the device is used as it was.  Without ",keep" and without
 *    the debugger the console stops and the port is released, as in
 *    Linux.  A debugger entered between the two (a breakpoint in the
 *    EHCI driver) may run the halted controller for its own bytes; it is
 *    halted again when the debugger leaves.
 */
#include <kernel/kernel.h>
#include <kernel/pci.h>
#include <kernel/printk.h>
#include <asm/processor.h>
#include <asm/tsc_early.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/kdb.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>
#include "../../io/ehci-dbgp/ehci_dbgp.h"
#include "ehci_dbgp.h"
#include <kernel/drivers.h>

#define PCI_CAP_ID_DBGP		0x0a
#define HALT_WAIT_US		20000

static struct {
	struct dbgp_chan chan;
	struct dbgp_io io;
	volatile u8 *regs;
	u32 bdf;
	u64 bar;
	u32 op_off, dbgp_off;
	bool found;			/* registers mapped */
	bool taken;			/* the device is ours (imported) */
	bool debugger;			/* the debugger's transport */
	bool console_on, keep;
	bool released;			/* given to the EHCI driver */
	bool run_for_debugger;		/* debugger ran the halted controller: halt it again */
	unsigned long hc_resets, reenumerated;
	char name[8];
	struct ekdb_transport transport;
	struct ekdb_console console;
} ld;

/* ---------------------------------------------------------------- registers */
static __ekdb_nobp u32 late_read(struct dbgp_io *io, u32 off)
{
	return *(volatile u32 *)(ld.regs + off);
}

static __ekdb_nobp void late_write(struct dbgp_io *io, u32 off, u32 val)
{
	*(volatile u32 *)(ld.regs + off) = val;
}

static __ekdb_nobp u64 late_now_us(struct dbgp_io *io)
{
	return early_now_us();		/* the TSC, calibrated when the port came up */
}

/* The memory BAR @n's address as programmed (no sizing: the port is live). */
static u64 bar_address(u32 bdf, unsigned n)
{
	u8 off = (u8)(PCI_BAR0 + 4 * n);
	u32 lo = pci_read32(bdf, off);
	u64 a = lo & ~0xfULL;

	if (lo & 1)
		return 0;
	if ((lo & 0x6) == 0x4 && n < 5)
		a |= (u64)pci_read32(bdf, (u8)(off + 4)) << 32;
	return a;
}

/* The controller the early driver used: its debug port registers, mapped. */
static int map_controller(u32 bdf)
{
	u8 cap = pci_find_capability(bdf, PCI_CAP_ID_DBGP);
	u32 dw, barnum;
	u64 len;

	if (!cap)
		return -EKDB_ENODEV;
	dw = pci_read32(bdf, cap);
	barnum = (dw >> 29) & 7;
	if (barnum < 1 || barnum > 6)
		return -EKDB_ENODEV;
	ld.bar = bar_address(bdf, barnum - 1);
	ld.dbgp_off = (dw >> 16) & 0x1fff;
	if (!ld.bar)
		return -EKDB_ENODEV;
	len = MAX(0x100ULL, (u64)ld.dbgp_off + 0x20);
	ld.regs = ioremap(ld.bar, len);
	if (!ld.regs)
		return -EKDB_EFAULT;
	ld.bdf = bdf;
	ld.op_off = late_read(&ld.io, 0) & 0xff;	/* CAPLENGTH */
	ld.io = (struct dbgp_io){ .read = late_read, .write = late_write, .now_us = late_now_us };
	ld.found = true;
	return 0;
}

/* ---------------------------------------------------------------- transport */
static __ekdb_nobp int ld_getc(struct ekdb_transport *t)
{
	return dbgp_chan_getc(&ld.chan);
}

static __ekdb_nobp void ld_putc(struct ekdb_transport *t, u8 c)
{
	dbgp_chan_putc(&ld.chan, c);
}

static __ekdb_nobp void ld_flush(struct ekdb_transport *t)
{
	dbgp_chan_flush(&ld.chan);
}

static __ekdb_nobp void ld_pre(struct ekdb_transport *t)
{
	u32 cmd;

	dbgp_chan_pre(&ld.chan);
	if (!ld.chan.quiesced || !ld.chan.ready)
		return;
	/* stopped inside the EHCI driver's reset: the port needs a running controller */
	cmd = late_read(&ld.io, ld.op_off + EHCI_USBCMD);
	if (cmd & CMD_RUN)
		return;
	late_write(&ld.io, ld.op_off + EHCI_USBCMD, (cmd & ~(CMD_PSE | CMD_ASE)) | CMD_RUN);
	ld.run_for_debugger = true;
	for (u64 start = early_now_us(); late_read(&ld.io, ld.op_off + EHCI_USBSTS) & STS_HALT &&
	     early_now_us() - start < HALT_WAIT_US;)
		cpu_relax();
}

static __ekdb_nobp void ld_post(struct ekdb_transport *t)
{
	dbgp_chan_post(&ld.chan);
	if (ld.run_for_debugger) {
		u64 start = early_now_us();
		u32 cmd = late_read(&ld.io, ld.op_off + EHCI_USBCMD);

		/* give the EHCI driver its controller back as it left it */
		late_write(&ld.io, ld.op_off + EHCI_USBCMD, cmd & ~CMD_RUN);
		while (!(late_read(&ld.io, ld.op_off + EHCI_USBSTS) & STS_HALT) &&
		       early_now_us() - start < HALT_WAIT_US)
			cpu_relax();
		ld.run_for_debugger = false;
	}
}

/*
 * From the early driver of the same device: its state, checked against
 * the registers found here; the console moves along.  Interrupts are off
 * and only this CPU runs.
 */
static __ekdb_nobp int ld_import(struct ekdb_transport *t, const struct ekdb_transport_state *st)
{
	int r;

	if (!ld.found)
		return -EKDB_ENODEV;
	r = dbgp_state_import(st, ld.bar, ld.dbgp_off, ld.op_off, &ld.chan.dev.st);
	if (r)
		return r;
	ld.chan.dev.io = &ld.io;
	ld.chan.poll_secs = st->u.dbgp.poll_secs;
	ld.chan.poll_at = early_now_us() + ld.chan.poll_secs * 1000000ULL;
	ld.chan.ready = true;
	ld.taken = true;
	ld.console_on = st->u.dbgp.console;
	ld.keep = st->u.dbgp.keep;
	if (ld.console_on)
		register_console(&ld.console);	/* no replay: the log is out already */
	return 0;
}

static __ekdb_nobp void ld_console_write(struct ekdb_console *con, const char *s, size_t len)
{
	dbgp_chan_console_write(&ld.chan, s, len);
}

/* ---------------------------------------------------------------- kdb */
static int kdb_dbgp(struct kdb_session *s, int argc, const char **argv)
{
	const struct dbgp_state *st = &ld.chan.dev.st;

	if (argc)
		return kdb_printf(s, "usage: dbgp\n"), 0;
	if (!ld.taken)
		return kdb_printf(s, "no debug port taken over\n"), 0;
	kdb_printf(s, "%s: EHCI %02x:%02x.%u port %u, device %u (in ep %u, out ep %u), "
		   "toggles in %u out %u%s%s%s%s\n",
		   ld.name, st->bus, st->slot, st->func, st->port, st->devnum, st->ep_in,
		   st->ep_out, st->tog_in, st->tog_out, ld.debugger ? ", debugger" : "",
		   ld.console.enabled ? ", console" : "", ld.keep ? " (keep)" : "",
		   ld.released ? ", released to the EHCI driver" : "");
	kdb_printf(s, "EHCI resets survived %lu, enumerated again %lu, output held and dropped %lu, "
		   "naks %u, errors %u, repeats %u%s\n",
		   ld.hc_resets, ld.chan.revived, ld.chan.held_dropped, ld.chan.dev.stats_naks,
		   ld.chan.dev.stats_errors, ld.chan.dev.stats_dups,
		   ld.chan.gone ? ", device gone" : "");
	return 0;
}

static const struct kdb_cmd dbgp_cmd = {
	.name = "dbgp",
	.fn = kdb_dbgp,
	.usage = "",
	.help = "Show the USB debug port's state and counters",
	.flags = KDB_ENABLE_INSPECT,
};

/* ---------------------------------------------------------------- takeover */
void ehci_dbgp_init(void)
{
	struct ekdb_transport *old = early_dbgp_transport();
	struct ekdb_transport_state st;
	u64 flags;
	int r;

	if (!old || !old->export_state)
		return;
	memset(&st, 0, sizeof(st));
	old->export_state(old, &st);		/* where the device is (nothing changes yet) */
	r = map_controller(st.u.dbgp.pci_bdf);
	if (r) {
		pr_err("dbgp: EHCI at %02x:%02x.%u not reachable (%s): the early driver keeps the port\n",
		       st.u.dbgp.pci_bdf >> 8, (st.u.dbgp.pci_bdf >> 3) & 0x1f,
		       st.u.dbgp.pci_bdf & 7, ekdb_strerror(r));
		return;
	}
	strlcpy(ld.name, old->name, sizeof(ld.name));
	ld.transport = (struct ekdb_transport){
		.name = ld.name,
		.kind = EKDB_TRANSPORT_DBGP,
		.getc = ld_getc,
		.quiet_polls = DBGP_QUIET_POLLS,
		.putc = ld_putc,
		.flush = ld_flush,
		.pre_exception = ld_pre,
		.post_exception = ld_post,
		.import_state = ld_import,
	};
	ld.console = (struct ekdb_console){ .name = "dbgp", .write = ld_console_write };
	kdb_register(&dbgp_cmd);
	if (ekdb_io_wanted(ld.name)) {
		/* the debugger's device: its handoff moves it (queued until then) */
		r = ekdb_register_io(&ld.transport);
		if (r)
			pr_err("dbgp: %s: the debugger did not take the late driver (%s)\n", ld.name,
			       ekdb_strerror(r));
		else
			ld.debugger = true;
		return;
	}
	/* only the console uses it: the same steps as the debugger's takeover */
	memset(&st, 0, sizeof(st));
	flags = local_irq_save();
	old->export_state(old, &st);
	r = ld_import(&ld.transport, &st);
	if (!r)
		old->deinit(old);
	local_irq_restore(flags);
	if (r)
		pr_err("dbgp: %s: cannot take the device over (%s): the early driver keeps it\n",
		       ld.name, ekdb_strerror(r));
	else
		pr_info("dbgp: %s: console taken over from the early driver (device %u, no new enumeration)\n",
			ld.name, ld.chan.dev.st.devnum);
}

/* ---------------------------------------------------------------- EHCI reset */
int dbgp_reset_prep(u32 bdf)
{
	u32 ctrl;

	if (!ld.taken || ld.released || bdf != ld.bdf || !ld.chan.ready)
		return 0;
	if (ld.console.enabled && !ld.keep) {
		pr_info("dbgp: the EHCI driver takes the controller: the console on %s stops "
			"(earlyprintk=%s,keep keeps it)\n", ld.name, ld.name);
		unregister_console(&ld.console);
		ld.console.enabled = false;
	}
	dbgp_chan_quiesce(&ld.chan);
	if (ld.debugger || ld.console.enabled)
		return 1;
	/* nobody uses the port any more: the EHCI driver gets the root port */
	if (dbgp_chan_lock(&ld.chan)) {
		ld.chan.ready = false;
		ctrl = late_read(&ld.io, ld.dbgp_off + DBGP_CTRL);
		late_write(&ld.io, ld.dbgp_off + DBGP_CTRL, ctrl & ~(DBGP_CLAIM | DBGP_GO | DBGP_DONE));
		dbgp_chan_unlock(&ld.chan);
	}
	ld.released = true;
	return 0;
}

int dbgp_external_startup(u32 bdf)
{
	int r;

	if (!ld.taken || ld.released || bdf != ld.bdf)
		return -EKDB_ENODEV;
	r = dbgp_chan_resume(&ld.chan);
	if (r < 0) {
		pr_err("dbgp: %s: the debug port did not come back after the EHCI reset (%s)\n",
		       ld.name, ekdb_strerror(r));
		return r;
	}
	ld.hc_resets++;
	if (r == 1) {
		ld.reenumerated++;
		pr_warn("dbgp: %s: the EHCI reset took the debug port down: debug device enumerated again\n",
			ld.name);
	} else {
		pr_info("dbgp: %s: debug port kept across the EHCI reset (device %u, not enumerated again)\n",
			ld.name, ld.chan.dev.st.devnum);
	}
	dbgp_chan_print_note(&ld.chan);
	return 0;
}
