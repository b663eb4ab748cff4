/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhci_kbd.c - the running kernel's USB keyboards: each xHCI controller
 * the xHCI driver (xhci_hcd.c) reset is run with rings on this driver's
 * pages and the HID boot keyboards on it enumerated (the enumeration, the
 * rings and the report decoder are io/xhci-kbd's and io/xhci's: the code
 * the early driver runs on its static blocks, here on allocated ones).  A
 * kernel thread, "usbkbd", polls them every POLL_MS: the keys typed go to
 * the console's input, Alt+SysRq+key to the magic SysRq, keyboards plugged
 * in or unplugged are acted on.
 *
 * It is also the debugger's "kbd" transport when there is no PS/2
 * keyboard (kgdboc=kbd, or the successor of ekgdboc=kbd's early reader),
 * and the PS/2 driver's second source of keys when there is one
 * (xhci_kbd_dbg_getc(): kbd is every keyboard):
 *  - the takeover: a keyboard found where the early driver had one carries
 *    on from its state (usbkbd_early_take(): keys and modifiers held,
 *    Caps/Num/Scroll Lock and so the LEDs, the bytes not read); the
 *    transport's import_state takes the early transport's unread bytes;
 *  - getc, while the debugger is stopped: the keyboards polled through the
 *    same code, no interrupt, no allocation, no lock waited for (a CPU
 *    stopped in the middle of the thread's poll leaves the set taken: the
 *    debugger reads anyway, only plugging is left to the thread);
 *  - post_exception: what was typed to kdb and not read is dropped and no
 *    held key repeats into the console (Linux's kdb_kbd_cleanup_state);
 *  - poll_break: nothing: the thread's sysrq-g breaks in.
 */
#include "../../io/kbd/kbd.h"
#include "../../io/vga/vga.h"
#include "i8042_kbd.h"
#include "xhci_dbc.h"
#include "xhci_kbd.h"
#include <kernel/kernel.h>
#include <kernel/console.h>
#include <kernel/mm.h>
#include <kernel/page_alloc.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/sysrq.h>
#include <kernel/time.h>
#include <asm/processor.h>
#include <asm/tsc_early.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/kdb.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>

#define KBD_HCS			4	/* controllers */
#define KBD_DEVS		8	/* keyboards and hubs, all controllers */
#define POLL_MS			10
#define MEM_ORDER		1
#define DBGQ_SIZE		(EKDB_HANDOFF_PENDING_MAX + 1)

_Static_assert(sizeof(struct xhc_mem) <= (4096u << MEM_ORDER), "MEM_ORDER too small");
_Static_assert(sizeof(struct xhc_dev_mem) <= 4096, "a device's block is one page");

static struct {
	struct xhc_set set;
	struct xhc hcs[KBD_HCS];
	struct xhc_dev devs[KBD_DEVS];
	bool devs_ready, thread, registered, debugger;
	unsigned taken;			/* keyboards that carried on from the early driver */
	char dbgq[DBGQ_SIZE];		/* the early transport's unread bytes */
	unsigned dbgq_head, dbgq_tail;
	u64 polls, to_console, sysrq, stolen;
	struct ekdb_transport transport;
} usb = {
	.set = { .hcs = usb.hcs, .devs = usb.devs, .n_devs = KBD_DEVS },
};

/* ---------------------------------------------------------------- debugger */

__ekdb_nobp int xhci_kbd_dbg_getc(void)
{
	bool locked;
	int c;

	if (usb.dbgq_tail != usb.dbgq_head)
		return (u8)usb.dbgq[usb.dbgq_tail++ % DBGQ_SIZE];
	if (!usb.set.n_hcs)
		return EKDB_NO_CHAR;
	locked = xhc_set_trylock(&usb.set);
	if (!locked)
		usb.stolen++;		/* its holder is stopped mid-poll: read, plug nothing */
	c = xhc_set_getc(&usb.set, locked, early_now_us());
	if (locked)
		xhc_set_unlock(&usb.set);
	return c;
}

__ekdb_nobp void xhci_kbd_dbg_post(void)
{
	xhc_set_flush_input(&usb.set);
	usb.dbgq_head = usb.dbgq_tail = 0;
}

static __ekdb_nobp int usb_t_getc(struct ekdb_transport *t)
{
	vga_screen_sync_try();		/* the debugger waits for input: its output is complete */
	return xhci_kbd_dbg_getc();
}

static __ekdb_nobp void usb_t_post(struct ekdb_transport *t)
{
	vga_screen_sync();
	xhci_kbd_dbg_post();
}

/* The early transport's bytes not read (its PS/2 decoder state has no keyboard here). */
static __ekdb_nobp int usb_t_import(struct ekdb_transport *t, const struct ekdb_transport_state *st)
{
	if (st->kind != EKDB_TRANSPORT_KBD)
		return -EKDB_EINVAL;
	for (unsigned i = 0; i < st->npending && i < EKDB_HANDOFF_PENDING_MAX; i++)
		usb.dbgq[usb.dbgq_head++ % DBGQ_SIZE] = (char)st->pending[i];
	return 0;
}

/* The thread breaks in itself (sysrq-g): the tick reads nothing here. */
static __ekdb_nobp int usb_t_poll_break(struct ekdb_transport *t)
{
	return EKDB_BREAK_NONE;
}

static __ekdb_nobp void usb_t_init(struct ekdb_transport *t)
{
	usb.debugger = usb.registered = true;
}

static __ekdb_nobp void usb_t_deinit(struct ekdb_transport *t)
{
	usb.debugger = false;
}

/* ---------------------------------------------------------------- kdb */

static __ekdb_nobp int kdb_usbkbd(struct kdb_session *s, int argc, const char **argv)
{
	if (argc)
		return kdb_printf(s, "usage: usbkbd\n"), 0;
	kdb_printf(s, "usbkbd: %u controller%s, %u keyboard%s%s; polls %llu, console %llu, "
		   "sysrq %llu, read while its thread was stopped %llu\n", usb.set.n_hcs,
		   usb.set.n_hcs == 1 ? "" : "s", xhc_set_count(&usb.set),
		   xhc_set_count(&usb.set) == 1 ? "" : "s",
		   usb.debugger ? ", the debugger's kbd" : i8042_kbd_present() ? ", beside PS/2" : "",
		   (unsigned long long)usb.polls, (unsigned long long)usb.to_console,
		   (unsigned long long)usb.sysrq, (unsigned long long)usb.stolen);
	for (unsigned i = 0; i < KBD_DEVS; i++) {
		const struct xhc_dev *d = &usb.devs[i];
		const struct kbd_state *ks = &d->hid.ks;

		if (!d->used || !d->active || d->hub_ports)
			continue;
		kdb_printf(s, "  xHCI %s port %u%s%.0u: %04x:%04x slot %u, reports %lu, errors %lu; "
			   "shift %d ctrl %d alt %d caps %d num %d scroll %d leds 0x%x%s\n",
			   d->hc->name, d->port, d->parent ? "." : "", d->hub_port, d->vendor,
			   d->product, d->slot, d->reports, d->errors, ks->lshift || ks->rshift,
			   ks->lctrl || ks->rctrl, ks->lalt || ks->ralt, ks->caps_lock,
			   d->hid.num_lock, d->hid.scroll_lock, d->leds, d->gone ? " (given up)" : "");
	}
	return 0;
}

static const struct kdb_cmd usbkbd_cmd = {
	.name = "usbkbd",
	.fn = kdb_usbkbd,
	.usage = "",
	.help = "Show the USB keyboards (the kernel's xHCI keyboard driver)",
	.flags = KDB_ENABLE_INSPECT,
};

/* ---------------------------------------------------------------- the thread */

static unsigned count(void)
{
	return xhc_set_count(&usb.set);
}

/* The debugger's kbd, when it wants one and the PS/2 driver does not have it. */
static void maybe_register(void)
{
	int r;

	if (usb.registered || !count() || i8042_kbd_present() || !ekdb_io_wanted("kbd"))
		return;
	usb.registered = true;
	r = ekdb_register_io(&usb.transport);
	usb.debugger = !r;
	if (r)
		pr_err("kbd: the debugger did not take the USB keyboards (%s)\n", ekdb_strerror(r));
	else
		pr_info("kbd: the debugger's kbd is the USB keyboard%s (%u)\n", count() == 1 ? "" : "s",
			count());
}

static void hotplug(void)
{
	if (!xhc_set_trylock(&usb.set))
		return;
	for (unsigned i = 0; i < usb.set.n_hcs; i++)
		if (usb.hcs[i].running)
			xhc_set_hotplug(&usb.set, &usb.hcs[i]);	/* root ports and hubs */
	xhc_set_unlock(&usb.set);
	maybe_register();
}

static void poll_once(void)
{
	u64 flags = local_irq_save();
	char sysrq = 0;
	bool changed;
	int c;

	if (!xhc_set_trylock(&usb.set)) {
		local_irq_restore(flags);
		return;
	}
	usb.polls++;
	while ((c = xhc_set_getc(&usb.set, false, early_now_us())) != EKDB_NO_CHAR) {
		if (c & 0x100) {
			sysrq = (char)c;
			break;
		}
		usb.to_console++;
		console_input_char((char)c);
	}
	changed = xhc_set_port_changed(&usb.set);
	xhc_set_unlock(&usb.set);
	local_irq_restore(flags);
	if (changed)
		hotplug();
	if (sysrq) {
		usb.sysrq++;
		if (sysrq >= 'A' && sysrq <= 'Z')
			sysrq = (char)(sysrq - 'A' + 'a');	/* Shift or Caps Lock do not change the key */
		write_sysrq_trigger(&sysrq, 1);		/* process context: g stops right here */
	}
}

static int usbkbd_thread(void *unused)
{
	for (;;) {
		msleep(POLL_MS);
		poll_once();
	}
	return 0;
}

/* ---------------------------------------------------------------- probe */

static unsigned order_of(unsigned pages)
{
	unsigned o = 0;

	while ((1u << o) < pages)
		o++;
	return o;
}

static void devs_ready(void)
{
	if (usb.devs_ready)
		return;
	usb.devs_ready = true;
	for (unsigned i = 0; i < KBD_DEVS; i++) {
		usb.devs[i].mem = alloc_pages(0);	/* none: this block is never handed out */
		if (usb.devs[i].mem)
			usb.devs[i].mem_phys = __pa(usb.devs[i].mem);
	}
}

/* Memory and start: 0 or -errno (nothing of it kept). */
static int start(struct xhc *hc)
{
	unsigned n, left = 0;
	void *scratch = NULL;
	u64 next = 0;
	int r;

	hc->mem = alloc_pages(MEM_ORDER);
	if (!hc->mem)
		return -EKDB_ENOMEM;
	hc->mem_phys = __pa(hc->mem);
	n = HCS_SCRATCH(xhc_rd(hc, XHCI_HCSPARAMS2));
	if (n && n <= XHC_SCRATCH_PAGES) {
		scratch = alloc_pages(order_of(n));
		if (scratch) {
			memset(scratch, 0, 4096ul << order_of(n));
			next = __pa(scratch);
			left = n;
		}
	}
	r = xhc_start(hc, &next, &left);
	if (r) {
		if (scratch)
			free_pages(scratch, order_of(n));
		free_pages(hc->mem, MEM_ORDER);
		hc->mem = NULL;
	}
	return r;
}

int xhci_kbd_probe(u32 bdf, bool dbc_in_use)
{
	struct xhc *hc;
	unsigned found, taken = 0;
	int r;

	if (usb.set.n_hcs == KBD_HCS)
		return -EKDB_ENOSPC;
	devs_ready();
	hc = &usb.hcs[usb.set.n_hcs];
	memset(hc, 0, sizeof(*hc));
	hc->pci.bus = (u8)(bdf >> 8);
	hc->pci.slot = (u8)((bdf >> 3) & 0x1f);
	hc->pci.func = (u8)(bdf & 7);
	xhci_pci_name(&hc->pci, hc->name);
	if (dbc_in_use) {		/* HCRST resets the DbC: its driver enables it again */
		hc->dbc_prep = xdbc_reset_prep;
		hc->dbc_startup = xdbc_external_startup;
	}
	r = xhci_pci_setup(&hc->pci);
	if (!r)
		r = xhci_pci_map(&hc->pci);
	if (!r)
		r = start(hc);
	if (r) {
		pr_err("xhci_hcd %s: the USB keyboard driver cannot run the controller (%s)\n",
		       hc->name, ekdb_strerror(r));
		return r;
	}
	while (!xhc_set_trylock(&usb.set))
		cpu_relax();
	usb.set.n_hcs++;
	found = xhc_set_probe_ports(&usb.set, hc);
	for (unsigned i = 0; i < KBD_DEVS; i++) {
		struct xhc_dev *d = &usb.devs[i];

		if (d->used && d->active && d->hc == hc && !d->hub_ports)
			taken += usbkbd_early_take(d);
	}
	xhc_set_unlock(&usb.set);
	usb.taken += taken;
	if (taken)
		pr_info("xhci_hcd %s: %u USB keyboard%s on its own rings, %u taken over from the "
			"debugger's early driver (keys held, locks and unread bytes kept)\n", hc->name,
			found, found == 1 ? "" : "s", taken);
	else
		pr_info("xhci_hcd %s: %u USB keyboard%s on its own rings\n", hc->name, found,
			found == 1 ? "" : "s");
	return (int)found;
}

static void say_no_keyboard(const char *who)
{
	pr_err("kbd: %s: no keyboard: no PS/2 keyboard controller (port 0x64 reads 0xff) and no "
	       "USB keyboard%s\n", who,
	       usb.thread ? " (one plugged in later is used)" : "");
}

/* A run-time kgdboc=kbd with no PS/2 keyboard (the i8042 driver is asked first): the USB ones. */
static struct ekdb_transport *kbd_find(int line, u32 baud)
{
	if (count())
		return &usb.transport;
	say_no_keyboard("kgdboc=kbd");
	return NULL;
}

static const struct ekdb_io_driver usb_io_driver = {
	.name = "xhci_kbd", .kind = EKDB_TRANSPORT_KBD, .find = kbd_find,
};

void xhci_kbd_start(void)
{
	usb.transport = (struct ekdb_transport){
		.name = "kbd",
		.kind = EKDB_TRANSPORT_KBD,
		.getc = usb_t_getc,
		.putc = kbd_screen_putc,
		.flush = kbd_screen_flush,
		.pre_exception = kbd_screen_pre,
		.post_exception = usb_t_post,
		.poll_break = usb_t_poll_break,
		.import_state = usb_t_import,
		.init = usb_t_init,
		.deinit = usb_t_deinit,
		.is_console = true,
	};
	ekdb_register_io_driver(&usb_io_driver);
	if (usb.set.n_hcs)
		kdb_register(&usbkbd_cmd);
	if (usb.set.n_hcs && !usb.thread)
		usb.thread = kthread_run(usbkbd_thread, NULL, "usbkbd") != NULL;
	maybe_register();
	if (count() || i8042_kbd_present() || !ekdb_io_wanted("kbd"))
		return;
	if (usbkbd_early_count())	/* nousb: no controller taken from the early driver */
		pr_info("kbd: nousb: the debugger's early driver keeps its %u USB keyboard%s\n",
			usbkbd_early_count(), usbkbd_early_count() == 1 ? "" : "s");
	else
		say_no_keyboard("the debugger's kbd");
}
