/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vga_console.c - the early screen console: earlyprintk=vga (and =efi, the
 * same thing under UEFI) draws the boot log on the framebuffer the loader
 * handed over (fbcon.c), or on VGA text memory when the machine is in
 * text mode (vgatext.c).  Registered as a printk console with replay, so
 * the lines printed before it still show.
 *
 * Reaching the pixels: the host says where the framebuffer is
 * (ekdb_framebuffer()) and where the CPU reaches it under the page tables
 * in use (ekdb_map_phys(), <ekdb/port.h>): the reference kernel parses
 * earlyprintk= under the loader's identity map and then switches to its
 * own tables.  Every sync asks again and takes the address valid now (a
 * framebuffer the host cannot reach yet is not drawn until it can).
 * Static storage only.
 */
#include "vga_console.h"
#include "fbcon.h"
#include "vgatext.h"
#include <ekdb/bootinfo.h>
#include <ekdb/log.h>
#include <ekdb/port.h>
#include <asm/processor.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>


enum screen_kind { SCREEN_NONE, SCREEN_FB, SCREEN_TEXT };

static struct tg_cell grid_cells[FBCON_MAX_COLS * FBCON_MAX_ROWS];
static struct textgrid grid;
static struct fbcon fbcon;
static struct vgatext vgatext;
static enum screen_kind screen;
static u8 *screen_base;			/* address used for the last draw */
static bool screen_attached;		/* the renderer has taken its memory */
static const struct vga_screen_successor *successor;	/* the late display took over */
static int screen_lock_word;		/* CPUs share the screen: printk, kdb, the tick's poll */

#define LOCK_SPINS	20000000UL	/* then draw anyway: the holder may be stopped for good */

static bool screen_lock(unsigned long spins)
{
	for (unsigned long i = 0; i < spins; i++) {
		if (!__atomic_exchange_n(&screen_lock_word, 1, __ATOMIC_ACQUIRE))
			return true;
		cpu_relax();
	}
	return false;
}

static void screen_unlock(bool held)
{
	if (held)
		__atomic_store_n(&screen_lock_word, 0, __ATOMIC_RELEASE);
}

/* The framebuffer the host describes (an empty one when it has none). */
static const struct ekdb_framebuffer *fbd(void)
{
	static const struct ekdb_framebuffer none;
	const struct ekdb_framebuffer *fb = ekdb_framebuffer();

	return fb ? fb : &none;
}

/* Where the CPU reaches physical @phys (@len bytes) now; NULL if it cannot. */
static void *reach(u64 phys, u64 len)
{
	return ekdb_map_phys(phys, len);
}

/* Hand the renderer its memory (clears the screen, draws the grid). */
static int attach(u8 *base)
{
	int err;

	if (screen == SCREEN_TEXT)
		err = vgatext_init(&vgatext, base, grid.cols, grid.rows, &grid);
	else
		err = fbcon_init(&fbcon, fbd(), base, &grid);
	if (!err) {
		screen_base = base;
		screen_attached = true;
	}
	return err;
}

/* Use the address valid under the current page tables; false: cannot draw yet. */
static bool update_base(void)
{
	u8 *base = reach(fbd()->base, fbd()->size);

	if (!base)
		return false;
	if (!screen_attached)
		return attach(base) == 0;
	if (base != screen_base) {
		screen_base = base;
		if (screen == SCREEN_FB)
			fbcon_set_base(&fbcon, base);
		else
			vgatext_set_base(&vgatext, base);
	}
	return true;
}

int vga_screen_init(void)
{
	const struct ekdb_framebuffer *fb = fbd();
	u16 cols, rows;
	int err;

	if (screen != SCREEN_NONE)
		return 0;
	if (fb->format == EKDB_FB_NONE || !fb->base)
		return -EKDB_ENODEV;
	if (fb->format == EKDB_FB_VGA_TEXT) {
		cols = (u16)(fb->width ? fb->width : 80);
		rows = (u16)(fb->height ? fb->height : 25);
		if (cols > VGATEXT_MAX_COLS || rows > VGATEXT_MAX_ROWS)
			return -EKDB_EINVAL;
	} else {
		err = fbcon_geometry(fb, &cols, &rows);
		if (err)
			return err;
	}
	tg_init(&grid, grid_cells, cols, rows);
	screen = fb->format == EKDB_FB_VGA_TEXT ? SCREEN_TEXT : SCREEN_FB;
	/* Not reachable yet (above the loader's 4 GiB identity map): the grid
	 * collects text and the first sync under the kernel's tables draws it. */
	if (!reach(fb->base, fb->size) || update_base())
		return 0;
	screen = SCREEN_NONE;
	return -EKDB_EINVAL;
}

bool vga_screen_ready(void)
{
	return screen != SCREEN_NONE;
}

void vga_screen_write(const char *s, size_t len)
{
	bool held;

	if (successor) {
		successor->write(s, len);
		return;
	}
	if (screen == SCREEN_NONE)
		return;
	held = screen_lock(LOCK_SPINS);
	tg_write(&grid, s, len);
	screen_unlock(held);
}

static void sync_locked(void)
{
	if (!update_base())
		return;
	if (screen == SCREEN_FB)
		fbcon_sync(&fbcon);
	else
		vgatext_sync(&vgatext);
}

void vga_screen_sync(void)
{
	bool held;

	if (successor) {
		successor->sync();
		return;
	}
	if (screen == SCREEN_NONE)
		return;
	held = screen_lock(LOCK_SPINS);
	sync_locked();
	screen_unlock(held);
}

void vga_screen_sync_try(void)
{
	if (successor) {
		successor->sync_try();
		return;
	}
	if (screen != SCREEN_NONE && screen_lock(1)) {
		sync_locked();
		screen_unlock(true);
	}
}

void vga_screen_cursor(bool on)
{
	if (successor)
		successor->cursor(on);
	else if (screen != SCREEN_NONE)
		tg_set_cursor(&grid, on);
}

void vga_screen_scroll_by_copy(bool on)
{
	fbcon.scroll_by_copy = on;
}

size_t vga_screen_row(u16 y, char *buf, size_t size)
{
	if (screen == SCREEN_NONE || y >= grid.rows || size < (size_t)grid.cols + 1) {
		if (size)
			buf[0] = 0;
		return 0;
	}
	return tg_row_text(&grid, y, buf);
}

bool vga_screen_info(struct vga_screen_info *info)
{
	static const char *const kinds[] = { "none", "RGBX8", "BGRX8", "bitmask", "VGA text" };
	u32 f = fbd()->format;

	if (screen == SCREEN_NONE)
		return false;
	info->kind = f < ARRAY_SIZE(kinds) ? kinds[f] : "?";
	info->width = fbd()->width;
	info->height = fbd()->height;
	info->cols = grid.cols;
	info->rows = grid.rows;
	info->pixel_scrolls = screen == SCREEN_FB ? fbcon.scrolls : 0;
	return true;
}

const struct textgrid *vga_screen_grid(void)
{
	return screen != SCREEN_NONE && !successor ? &grid : NULL;
}

bool vga_screen_handed_over(void)
{
	return successor != NULL;
}

static struct ekdb_console vga_console;

void vga_screen_hand_over(const struct vga_screen_successor *succ)
{
	bool held = screen_lock(LOCK_SPINS);

	if (succ->adopt)
		succ->adopt(screen != SCREEN_NONE ? &grid : NULL);
	successor = succ;
	screen_unlock(held);
	if (vga_console.enabled)
		ekdb_console_unregister(&vga_console);
}

/* ---------------------------------------------------------------- printk console */

static void vga_console_write(struct ekdb_console *con, const char *s, size_t len)
{
	vga_screen_write(s, len);
	vga_screen_sync();
}

static struct ekdb_console vga_console = {
	.name = "earlyvga",
	.write = vga_console_write,
	.replay = true,
};

int early_vga_console_init(const char *opt)
{
	int err;

	if (opt && *opt)
		return -EKDB_EINVAL;		/* "vga" takes no options (",keep" is stripped) */
	if (vga_console.enabled)
		return 0;			/* earlyprintk=vga and =efi both given */
	err = vga_screen_init();
	if (err == -EKDB_ENODEV) {
		pr_warn("earlyprintk: vga: the loader handed over no framebuffer "
			"(no GOP display?): no screen console, boot goes on\n");
		return 0;
	}
	if (err) {
		pr_warn("earlyprintk: vga: cannot draw on the %ux%u framebuffer (format %u, %u bpp): "
			"no screen console, boot goes on\n", fbd()->width,
			fbd()->height, fbd()->format, fbd()->bpp);
		return 0;
	}
	if (ekdb_console_register(&vga_console))
		return -EKDB_ENOSPC;
	pr_info("earlyprintk: screen console on the %ux%u %s %s, %ux%u cells\n",
		fbd()->width, fbd()->height,
		screen == SCREEN_FB ? (fbd()->format == EKDB_FB_RGBX8 ? "RGBX8" :
				       fbd()->format == EKDB_FB_BGRX8 ? "BGRX8" : "bitmask")
				    : "VGA", screen == SCREEN_FB ? "framebuffer" : "text mode",
		grid.cols, grid.rows);
	return 0;
}
