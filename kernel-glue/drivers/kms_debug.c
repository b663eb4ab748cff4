/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kms_debug.c - the debugger's display hooks for the kms driver (Linux
 * 2.6.34's fb_debug_enter/leave, as struct ekdb_display_ops).
 *
 * enter: save the DISPI register file and the VGA blanking state exactly
 * as they are (whatever the driver was doing: the debugger may have
 * stopped in the middle of bochs_kms_modeset(), or come by NMI), then
 * show the debug console:
 *  - once the kms console is up: the driver's mode with the scanout on
 *    page 1 (Y offset = height), where the console grid is drawn for the
 *    debugger.  Page 0, the kernel's screen, is not touched at all, so
 *    leave gives it back pixel for pixel without having saved a copy (the
 *    second page costs video memory, not a save of the visible region);
 *  - before that (a stop inside the first modeset): the firmware's mode
 *    read at probe, where the early console draws.
 *  When the registers already hold that mode only the Y offset is written
 *  (one register: an atomic flip); otherwise the whole mode is loaded.
 *  The screen is unblanked either way (the VGA attribute PAS bit).
 * leave: put every register back as saved (the modeset, if one was
 * running, goes on from where it stopped).
 * No locks, no allocation, no waiting: only register writes and the
 * console's drawing of the cells that changed.
 */
#include "kms_debug.h"
#include "kms_console.h"
#include "bochs_dispi.h"
#include <kernel/apic.h>
#include <kernel/printk.h>
#include <asm/processor.h>
#include <ekdb/ekdb.h>
#include <ekdb/kdb.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>

static struct dispi_regs saved;
static struct kms_debug_stats stats;
static bool registered;		/* the debugger has the hooks */
static bool available;		/* the driver is up: it has hooks to give */

static bool same_mode(const struct dispi_regs *a, const struct dispi_regs *b)
{
	static const u8 regs[] = { DISPI_XRES, DISPI_YRES, DISPI_BPP, DISPI_VIRT_WIDTH,
				   DISPI_X_OFFSET };

	for (size_t i = 0; i < ARRAY_SIZE(regs); i++)
		if (a->r[regs[i]] != b->r[regs[i]])
			return false;
	return (a->r[DISPI_ENABLE] & (DISPI_ENABLED | DISPI_LFB_ENABLED)) ==
	       (b->r[DISPI_ENABLE] & (DISPI_ENABLED | DISPI_LFB_ENABLED)) &&
	       (a->ar_index & 0x20) == (b->ar_index & 0x20);
}

/* Make the registers show @want, touching as little as possible. */
static __ekdb_nobp void show(const struct dispi_regs *now, const struct dispi_regs *want)
{
	if (same_mode(now, want)) {
		dispi_set_yoff(&bochs, want->r[DISPI_Y_OFFSET]);
		stats.last_full_modeset = false;
	} else {
		dispi_load(&bochs, want);
		stats.last_full_modeset = true;
	}
}

static __ekdb_nobp void kms_debug_enter(void)
{
	u64 t0 = rdtsc();
	struct dispi_regs want;

	dispi_save(&bochs, &saved);
	if (kms_console_ready()) {
		struct kms_mode m = bochs.mode;

		m.yoff = m.height;
		dispi_regs_for(&m, &want);
	} else {
		want = bochs.boot;			/* the early console's (GOP) mode */
		want.ar_index |= 0x20;
	}
	show(&saved, &want);
	kms_console_debug(true);
	stats.enters++;
	stats.enter_cycles = rdtsc() - t0;
}

static __ekdb_nobp void kms_debug_leave(void)
{
	u64 t0 = rdtsc();
	struct dispi_regs now;

	kms_console_debug(false);
	dispi_save(&bochs, &now);
	show(&now, &saved);
	stats.leave_cycles = rdtsc() - t0;
}

static const struct ekdb_display_ops kms_display_ops = {
	.name = "kms",
	.enter = kms_debug_enter,
	.leave = kms_debug_leave,
};

static unsigned long long cycles_to_us(u64 c)
{
	return tsc_khz ? (unsigned long long)(c * 1000 / tsc_khz) : 0;
}

/* kdb `kms`: the mode, the pages, what the last enter/leave cost (make bench). */
static int kdb_kms(struct kdb_session *s, int argc, const char **argv)
{
	if (argc)
		return kdb_printf(s, "usage: kms\n"), 0;
	kdb_printf(s, "kms: %ux%ux32, kernel page at line 0, debugger page at line %u; "
		   "enters %u, last enter %llu us (%s), last leave %llu us\n",
		   bochs.mode.width, bochs.mode.height, bochs.mode.height, stats.enters,
		   cycles_to_us(stats.enter_cycles),
		   stats.last_full_modeset ? "mode loaded" : "scanout flip",
		   cycles_to_us(stats.leave_cycles));
	return 0;
}

static const struct kdb_cmd kms_cmd = {
	.name = "kms",
	.fn = kdb_kms,
	.usage = "",
	.help = "Show the kms display and its debugger hooks' last timings",
	.flags = KDB_ENABLE_INSPECT,
};

/*
 * As Linux's kgdboc=kms: the debugger shows itself on this screen only
 * when it was asked to (kgdboc=kms, or ekgdboc=kbd drew on the screen
 * already, or kgdboc written at run time names kms); otherwise the screen
 * stays the kernel's while it is stopped.
 *  Asked: the debugger gets the hooks and kdb the `kms` command; at boot
 *  (kgdboc=kms) or at run time (kms_debug_set(), from kgdboc's file).
 */
static int attach(void)
{
	int err;

	if (registered)
		return 0;
	err = ekdb_register_display(&kms_display_ops);
	if (err)
		return err;
	registered = true;
	kdb_register(&kms_cmd);
	return 0;
}

static void detach(void)
{
	if (!registered)
		return;
	kdb_unregister(kms_cmd.name);
	ekdb_unregister_display(&kms_display_ops);
	registered = false;
}

void kms_debug_init(void)
{
	int err;

	available = true;
	if (!ekdb_io_wanted("kms"))
		return;
	err = attach();
	if (err)
		pr_err("kms: the debugger refused the display hooks (%d): it will not show "
		       "itself on this screen\n", err);
}

bool kms_debug_registered(void)
{
	return registered;
}

void kms_debug_exit(void)
{
	detach();
	available = false;
}

/*
 * kgdboc's kms word written at run time (Linux's kgdboc_use_kms: kgdboc's
 * pre-exception hook calls the console's debug_enter, its post-exception
 * hook debug_leave): the same hooks as kgdboc=kms at boot, on (@on) or
 * off.  -EKDB_ENODEV when there is no kms display to show the debugger on.
 */
int kms_debug_set(bool on)
{
	if (!on) {
		detach();
		return 0;
	}
	return available ? attach() : -EKDB_ENODEV;
}

void kms_debug_get_stats(struct kms_debug_stats *st)
{
	*st = stats;
}
