/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fbdraw.c - test_fbdraw[=MS]: a kernel thread that owns the kms screen
 * (the console steps aside, as Linux's fbcon does for KD_GRAPHICS) and
 * draws a moving pattern on it, one frame every MS milliseconds (default
 * 100), so the debugger's display hooks have something to save and give
 * back (tests/integration/test_kms_debug.py).
 *
 * Frame n, pixel (x, y), 32 bpp x8r8g8b8:
 *   y <  16: the frame counter, bit i (0..31) in the 16x16 block at x = 16i:
 *            0xffffff when set, 0x000040 when clear; 0 right of x = 512
 *   y >= 16: diagonal stripes: fbdraw_colors[((x + y + 8n) / 32) % 8]
 * A test reads n back from the top row and can recompute any pixel.
 */
#include "bochs_dispi.h"
#include "kms_console.h"
#include <kernel/kernel.h>
#include <kernel/drivers.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <ekdb/parse.h>

static const u32 fbdraw_colors[8] = {
	0x800000, 0x008000, 0x000080, 0x808000, 0x800080, 0x008080, 0xc06000, 0x404040,
};

volatile u32 fbdraw_frame;	/* the frame on the screen now (kdb: md fbdraw_frame) */
static u64 fbdraw_interval_ms = 100;

static void draw_frame(u32 n)
{
	const struct kms_mode *m = &bochs.mode;

	for (u32 y = 0; y < m->height; y++) {
		volatile u32 *row = (volatile u32 *)(bochs.fb + (size_t)y * m->pitch);

		if (y < 16) {
			for (u32 x = 0; x < m->width; x++) {
				u32 bit = x / 16;

				row[x] = bit >= 32 ? 0 : (n >> bit) & 1 ? 0xffffff : 0x000040;
			}
			continue;
		}
		for (u32 x = 0; x < m->width; x++)
			row[x] = fbdraw_colors[((x + y + 8 * n) / 32) % 8];
	}
}

static int fbdraw_thread(void *unused)
{
	kms_console_set_graphics(true);
	pr_info("fbdraw: drawing on the kms screen, a frame every %llu ms\n",
		(unsigned long long)fbdraw_interval_ms);
	for (u32 n = 0;; n++) {
		draw_frame(n);
		fbdraw_frame = n;
		msleep(fbdraw_interval_ms);
	}
	return 0;
}

void fbdraw_start(void)
{
	const char *arg = cmdline_get("test_fbdraw");
	u64 ms;

	if (!arg)
		return;
	if (*arg) {
		if (parse_u64(arg, 10, &ms) || ms == 0 || ms > 60000) {
			pr_err("fbdraw: test_fbdraw=%s: not a frame interval in ms (1..60000): "
			       "not started\n", arg);
			return;
		}
		fbdraw_interval_ms = ms;
	}
	if (!kms_console_ready()) {
		pr_err("fbdraw: test_fbdraw: no kms screen to draw on: not started\n");
		return;
	}
	if (!kthread_run(fbdraw_thread, NULL, "fbdraw"))
		pr_err("fbdraw: cannot start the thread\n");
}
