/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kms_console.c - the console on the kms driver's framebuffer.
 *
 * One text grid (io/vga/textgrid.c) and two renderers
 * (io/vga/fbcon.c) over it: page 0, the kernel's screen, and page 1,
 * the debugger's (shown by kms_debug.c while the debugger runs).  Each
 * renderer remembers what its page shows, so switching pages costs only
 * the cells that changed meanwhile.
 *
 * The handover from the early screen (earlyprintk=vga, ekgdboc=kbd): under
 * the early screen's lock the early grid's rows are written into ours
 * (colours kept, long lines re-wrapped to the new width, the last rows
 * kept when the new screen has fewer), then the early console is
 * unregistered and its writers (the early keyboard transport) are
 * forwarded here.  Nothing printed between is lost: the copy and the
 * switch happen under the same lock.
 */
#include "kms_console.h"
#include "bochs_dispi.h"
#include "../../io/vga/vga.h"
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <asm/processor.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <ekdb/ekdb.h>

#define LOCK_SPINS	20000000UL	/* then draw anyway: the holder may be stopped for good */

static struct {
	struct textgrid grid;
	struct tg_cell *cells;
	struct fbcon *page[2];
	struct ekdb_framebuffer desc;	/* the mode, as fbcon wants it */
	size_t page_bytes;
	u16 rows_kept;
	bool ready;
	volatile bool debug;		/* the debugger's page is shown */
	volatile bool graphics;		/* page 0 belongs to someone else */
	int lock;
} kc;

static bool kc_lock_spins(unsigned long spins)
{
	if (kc.debug)
		return false;		/* every other CPU is stopped: no lock (it may be held) */
	for (unsigned long i = 0; i < spins; i++) {
		if (!__atomic_exchange_n(&kc.lock, 1, __ATOMIC_ACQUIRE))
			return true;
		cpu_relax();
	}
	return false;
}

static bool kc_lock(void)
{
	return kc_lock_spins(LOCK_SPINS);
}

static void kc_unlock(bool held)
{
	if (held)
		__atomic_store_n(&kc.lock, 0, __ATOMIC_RELEASE);
}

int kms_console_prepare(const struct kms_mode *m)
{
	u16 cols, rows;

	kc.desc.format = EKDB_FB_BGRX8;		/* DISPI 32 bpp: x8r8g8b8 little-endian */
	kc.desc.bpp = 32;
	kc.desc.width = m->width;
	kc.desc.height = m->height;
	kc.desc.pitch = m->pitch;
	kc.desc.size = (u64)m->pitch * m->height;
	if (fbcon_geometry(&kc.desc, &cols, &rows))
		return -EKDB_EINVAL;
	kc.cells = kcalloc((size_t)cols * rows, sizeof(*kc.cells));
	kc.page[0] = kzalloc(sizeof(struct fbcon));
	kc.page[1] = kzalloc(sizeof(struct fbcon));
	if (!kc.cells || !kc.page[0] || !kc.page[1]) {
		kfree(kc.cells);
		kfree(kc.page[0]);
		kfree(kc.page[1]);
		return -EKDB_ENOMEM;
	}
	kc.page_bytes = (size_t)kc.desc.size;
	tg_init(&kc.grid, kc.cells, cols, rows);
	return 0;
}

static bool cell_blank(struct tg_cell c)
{
	return c.ch == ' ' && !(c.attr & 0x70);
}

/* Under the early screen's lock: its text into our grid. */
static void adopt(const struct textgrid *early)
{
	u16 last, cx, cy;

	if (!early)
		return;
	tg_cursor(early, &cx, &cy);
	last = early->y < early->rows ? early->y : (u16)(early->rows - 1);
	for (u16 y = 0; y <= last; y++) {
		const struct tg_cell *row = tg_row(early, y);
		u16 end = early->cols;

		while (end && cell_blank(row[end - 1]))
			end--;
		if (y == last && early->x > end)
			end = MIN(early->x, early->cols);	/* keep the cursor's column */
		for (u16 x = 0; x < end; x++) {
			kc.grid.attr = row[x].attr & 0x7f;
			tg_putc(&kc.grid, (char)row[x].ch);
		}
		kc.grid.attr = early->attr;
		if (y < last)
			tg_putc(&kc.grid, '\n');
	}
	kc.grid.attr = early->attr;
	kc.grid.cursor_on = early->cursor_on;
	kc.rows_kept = (u16)MIN(last + 1u, kc.grid.rows);
}

static void succ_write(const char *s, size_t len)
{
	kms_console_write(s, len);
}

static const struct vga_screen_successor successor = {
	.adopt = adopt,
	.write = succ_write,
	.sync = kms_console_sync,
	.sync_try = kms_console_sync_try,
	.cursor = kms_console_cursor,
};

static void kms_console_print(struct ekdb_console *con, const char *s, size_t len)
{
	kms_console_write(s, len);
	kms_console_sync();
}

static struct ekdb_console kms_printk_console = {
	.name = "kms",
	.write = kms_console_print,
};

void kms_console_take_over(void)
{
	bool had_early = vga_screen_grid() != NULL;

	vga_screen_hand_over(&successor);
	fbcon_init(kc.page[0], &kc.desc, bochs.fb, &kc.grid);
	fbcon_init(kc.page[1], &kc.desc, bochs.fb + kc.page_bytes, &kc.grid);
	kc.ready = true;
	/* Without an early screen console the log so far is replayed (CON_PRINTBUFFER). */
	kms_printk_console.replay = !had_early;
	register_console(&kms_printk_console);
	if (had_early)
		pr_info("kms: console moved to %ux%u: %u cells x %u rows, %u rows of the early "
			"screen kept\n", kc.desc.width, kc.desc.height, kc.grid.cols, kc.grid.rows,
			kc.rows_kept);
}

__ekdb_nobp bool kms_console_ready(void)
{
	return kc.ready;
}

void kms_console_write(const char *s, size_t len)
{
	bool held;

	if (!kc.ready)
		return;
	held = kc_lock();
	tg_write(&kc.grid, s, len);
	kc_unlock(held);
}

static void sync_locked(void)
{
	if (kc.debug)
		fbcon_refresh(kc.page[1]);
	else if (!kc.graphics)
		fbcon_refresh(kc.page[0]);
}

__ekdb_nobp void kms_console_sync(void)
{
	bool held;

	if (!kc.ready)
		return;
	held = kc_lock();
	sync_locked();
	kc_unlock(held);
}

__ekdb_nobp void kms_console_sync_try(void)
{
	if (!kc.ready)
		return;
	if (kc.debug) {
		sync_locked();
		return;
	}
	if (kc_lock_spins(1)) {
		sync_locked();
		kc_unlock(true);
	}
}

__ekdb_nobp void kms_console_cursor(bool on)
{
	if (kc.ready)
		tg_set_cursor(&kc.grid, on);
}

__ekdb_nobp void kms_console_debug(bool on)
{
	if (!kc.ready)
		return;
	if (!on)
		fbcon_refresh(kc.page[1]);	/* what the debugger wrote last */
	kc.debug = on;
	if (on)
		fbcon_refresh(kc.page[1]);	/* page 1 catches up with the log */
}

void kms_console_set_graphics(bool on)
{
	bool held;

	if (!kc.ready)
		return;
	held = kc_lock();
	kc.graphics = on;
	if (!on)
		fbcon_redraw(kc.page[0]);	/* the pixels under it are someone else's */
	kc_unlock(held);
}

bool kms_console_info(struct kms_console_info *info)
{
	if (!kc.ready)
		return false;
	info->cols = kc.grid.cols;
	info->rows = kc.grid.rows;
	info->rows_kept = kc.rows_kept;
	return true;
}
