// SPDX-License-Identifier: GPL-2.0
/*
 * The keyboard when kgdboc takes ekdb's line over (docs/linux.md,
 * "Handoff"): with ekdb.ekgdboc=kbd, Linux's kdb reads the keyboards
 * through ekdb's polled drivers (kgdb I/O driver ekdb, handoff.c) until
 * kgdboc replaces that driver (kgdboc=kbd at kgdboc's initcall, or
 * written to /sys/module/kgdboc/parameters/kgdboc later) and kgdb calls
 * its deinit (process context, not in a stop).  From then on:
 *
 *  - the PS/2 keyboard is read by Linux's kdb_keyboard
 *    (kdb_get_kbd_char()), which takes ekdb's decoder state
 *    (kdb_kbd_adopt_state(), linux/patches/0015): Caps Lock, a Shift or
 *    Ctrl held down.  Not carried: Alt (kdb_keyboard has none), an Enter
 *    whose release is to come (ekdb absorbed it when it left its stop; a
 *    release later than that went to Linux's atkbd, and kdb's
 *    kbd_last_ret set now would wait at kdb's next exit for a break code
 *    that never comes), the LEDs (neither ekdb's polled driver nor kdb
 *    sets them: Linux's atkbd shows the VT's locks);
 *  - a USB keyboard has no driver in Linux's kdb: where ekdb read USB
 *    keyboards and no PS/2 one, kdb goes on reading them through ekdb's
 *    xHCI driver, a poll function of kdb's (kdb_poll_funcs[]) that
 *    serves while kgdboc has the keyboard (kdb_get_kbd_char() among the
 *    poll functions, as kgdboc=kbd puts it there).  With a PS/2 keyboard
 *    beside them the USB ones are not read any more (both would read the
 *    i8042): said in the log.  The poll function is ekdb_io_getc(), every
 *    transport ekdb lent: with ekdb.ekgdboc=kbd,ttyS0 the 16550 too
 *    (beside kgdboc's own reader if kgdboc names it as well).
 */
#include <linux/kdb.h>
#include <linux/kprobes.h>
#include <linux/printk.h>

#include <ekdb/ekdb.h>

#include "glue.h"

#ifdef CONFIG_KDB_KEYBOARD
static bool __ekdb_linux_nobp ekdb_kgdboc_has_kbd(void)
{
	int i;

	for (i = 0; i < kdb_poll_idx; i++)
		if (kdb_poll_funcs[i] == kdb_get_kbd_char)
			return true;
	return false;
}
NOKPROBE_SYMBOL(ekdb_kgdboc_has_kbd);

/* kdb's poll function for the USB keyboards ekdb reads (no PS/2 one). */
static __ekdb_linux_nobp int ekdb_kdb_usb_kbd_getc(void)
{
	int c;

	if (!ekdb_kgdboc_has_kbd())
		return -1;
	c = ekdb_io_getc();
	return c > 0xff ? -1 : c;	/* not a byte (Alt+SysRq+key): ignored */
}
NOKPROBE_SYMBOL(ekdb_kdb_usb_kbd_getc);

static void ekdb_kdb_usb_kbd(unsigned int n)
{
	if (kdb_poll_idx >= KDB_POLL_FUNC_MAX) {
		pr_warn("ekdb: I/O driver ekdb replaced: Linux's kdb has no USB keyboard driver and no room for ekdb's (%d poll functions): the USB keyboard is not read by the debugger any more\n",
			kdb_poll_idx);
		return;
	}
	kdb_poll_funcs[kdb_poll_idx++] = ekdb_kdb_usb_kbd_getc;
	pr_info("ekdb: I/O driver ekdb replaced: Linux's kdb has no USB keyboard driver: it reads %u USB keyboard%s through ekdb's while kgdboc has kbd\n",
		n, n == 1 ? "" : "s");
}
#endif

/* The I/O driver ekdb was replaced (its deinit): the keyboard goes on. */
void ekdb_linux_kbd_handover(void)
{
	struct ekdb_kbd_state ks;

	if (ekdb_io_kbd_state(&ks))
		return;		/* ekdb's line is no keyboard */
#ifdef CONFIG_KDB_KEYBOARD
	if (ks.ps2) {
		kdb_kbd_adopt_state(ks.caps_lock, ks.shift, ks.ctrl);
		pr_info("ekdb: I/O driver ekdb replaced: Linux's kdb reads the PS/2 keyboard with Caps Lock %s%s%s\n",
			ks.caps_lock ? "on" : "off", ks.shift ? ", Shift held" : "",
			ks.ctrl ? ", Ctrl held" : "");
	}
	if (ks.usb && !ks.ps2)
		ekdb_kdb_usb_kbd(ks.usb);
	else if (ks.usb)
		pr_warn("ekdb: I/O driver ekdb replaced: Linux's kdb reads the PS/2 keyboard only, the %u USB keyboard%s beside it not any more\n",
			ks.usb, ks.usb == 1 ? "" : "s");
#else
	pr_warn("ekdb: I/O driver ekdb replaced: no CONFIG_KDB_KEYBOARD: Linux's kdb reads no keyboard\n");
#endif
}
