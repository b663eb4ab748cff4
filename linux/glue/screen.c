// SPDX-License-Identifier: GPL-2.0
/*
 * The screen after the handoff (docs/linux.md, "Handoff"), with
 * ekdb.ekgdboc=kbd.  ekdb drew kdb on the GOP framebuffer; from the handoff
 * on Linux's kdb draws there through console ekdbfb, which draws only while
 * a CPU is in the debugger (kdb writes to every enabled console).
 *
 * Then fbcon takes the screen (efifb, or a DRM driver's fbdev, under the
 * foreground VT): the pixels are fbcon's from then on, for good.  ekdbfb
 * draws nothing more; Linux's kdb reaches the screen through the VT
 * console (tty0), as with kgdboc=kms,kbd, and the I/O driver brackets each
 * stop with con_debug_enter()/con_debug_leave() as kgdboc's kms mode does
 * (the foreground VT in text mode, kdb's LINES and COLUMNS from its size).
 */
#include <linux/console.h>
#include <linux/init.h>
#include <linux/kgdb.h>
#include <linux/kprobes.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/vt_kern.h>

#include <ekdb/ekdb.h>

#include "glue.h"

static bool ekdb_screen_on;	/* ekdbfb registered: ekdb lent its screen */
static bool ekdb_screen_fbcon_has;	/* fbcon took it: ekdb never draws again */
static bool ekdb_screen_kms;	/* con_debug_enter() done for this stop */

/*
 * fbcon draws the foreground VT: the one console driver with a debugger
 * mode (con_debug_enter) is fbcon's.  Seen once, for good: the mode may
 * have changed under ekdb's old mapping.
 */
static __ekdb_linux_nobp bool ekdb_screen_is_fbcon(void)
{
#ifdef CONFIG_VT
	struct vc_data *vc;

	if (ekdb_screen_fbcon_has)
		return true;
	vc = vc_cons[fg_console].d;
	if (vc && vc->vc_sw && vc->vc_sw->con_debug_enter)
		ekdb_screen_fbcon_has = true;
#endif
	return ekdb_screen_fbcon_has;
}
NOKPROBE_SYMBOL(ekdb_screen_is_fbcon);

static __ekdb_linux_nobp void ekdb_screen_con_write(struct console *con, const char *s,
						    unsigned int n)
{
	if (in_dbg_master() && !ekdb_screen_is_fbcon())
		ekdb_io_write_screen(s, n);
}
NOKPROBE_SYMBOL(ekdb_screen_con_write);

static struct console ekdb_screen_con = {
	.name	= "ekdbfb",
	.write	= ekdb_screen_con_write,
	.flags	= CON_ENABLED,	/* kdb's, whatever console= names */
};

/* The handoff: Linux's kdb on ekdb's screen, if ekdb has one. */
bool __init ekdb_linux_screen_handoff(void)
{
	struct console *con;

	if (ekdb_io_write_screen(NULL, 0) <= 0)
		return false;
	register_console(&ekdb_screen_con);
	for_each_console(con)
		if (con == &ekdb_screen_con)
			ekdb_screen_on = true;
	if (!ekdb_screen_on)
		pr_warn("ekdb: console ekdbfb not registered: Linux's kdb is not on ekdb's screen\n");
	return ekdb_screen_on;
}

/* The I/O driver's pre_exception (the master, once per stop). */
__ekdb_linux_nobp void ekdb_linux_screen_stop_begin(void)
{
	if (!ekdb_screen_on || ekdb_screen_kms || !ekdb_screen_is_fbcon())
		return;
	ekdb_screen_kms = true;
	con_debug_enter(vc_cons[fg_console].d);
}
NOKPROBE_SYMBOL(ekdb_linux_screen_stop_begin);

/* The I/O driver's post_exception. */
__ekdb_linux_nobp void ekdb_linux_screen_stop_end(void)
{
	if (!ekdb_screen_kms)
		return;
	ekdb_screen_kms = false;
	con_debug_leave();
}
NOKPROBE_SYMBOL(ekdb_linux_screen_stop_end);

/*
 * After the device initcalls (efifb, fbcon): say where Linux's kdb is
 * shown now.  kdb reaches fbcon only through the VT console: without
 * console=tty0 among several console=, the screen shows no kdb.
 */
static int __init ekdb_screen_say(void)
{
	struct console *con;
	bool tty = false;

	if (!ekdb_screen_on || !ekdb_screen_is_fbcon())
		return 0;
	console_lock();
	for_each_console(con)
		if (!strcmp(con->name, "tty") && (con->flags & CON_ENABLED))
			tty = true;
	console_unlock();
	if (tty)
		pr_info("ekdb: fbcon has the screen: Linux's kdb shows there through the VT console (tty0), ekdbfb steps aside\n");
	else
		pr_warn("ekdb: fbcon has the screen and ekdbfb steps aside, but tty0 is not a console: Linux's kdb is not on the screen (add console=tty0)\n");
	return 0;
}
late_initcall(ekdb_screen_say);
