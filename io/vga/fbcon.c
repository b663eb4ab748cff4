/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fbcon.c - render a textgrid on a 32-bit linear framebuffer (GOP), with
 * the 8x16 font: RGBX8, BGRX8 or bitmask pixels, any size, pitch honoured.
 *
 * Speed: the pixels are only touched in fbcon_sync(), and only cells that
 * differ from the shadow grid `shown` (what the pixels show) are drawn.
 * A scroll is a redraw of the cells that changed (default), or, with
 * scroll_by_copy, a copy of the pixel rows up first (per text row only
 * the columns holding text in either row).  Under QEMU TCG both cost the
 * same (docs/console.md); the redraw never reads the framebuffer, which
 * is uncached or write-combined on real hardware and slow to read.
 */
#include "fbcon.h"
#include "font.h"
#include <ekdb/errno.h>

/* The VGA palette, 8 bits per channel: r, g, b. */
static const u8 vga_rgb[16][3] = {
	{ 0x00, 0x00, 0x00 }, { 0x00, 0x00, 0xaa }, { 0x00, 0xaa, 0x00 }, { 0x00, 0xaa, 0xaa },
	{ 0xaa, 0x00, 0x00 }, { 0xaa, 0x00, 0xaa }, { 0xaa, 0x55, 0x00 }, { 0xaa, 0xaa, 0xaa },
	{ 0x55, 0x55, 0x55 }, { 0x55, 0x55, 0xff }, { 0x55, 0xff, 0x55 }, { 0x55, 0xff, 0xff },
	{ 0xff, 0x55, 0x55 }, { 0xff, 0x55, 0xff }, { 0xff, 0xff, 0x55 }, { 0xff, 0xff, 0xff },
};

/* Scale an 8-bit channel into @mask's bits. */
static u32 mask_channel(u32 mask, u8 v)
{
	unsigned shift = 0, bits = 0;
	u32 val;

	if (!mask)
		return 0;
	while (!(mask & (1u << shift)))
		shift++;
	while (shift + bits < 32 && (mask & (1u << (shift + bits))))
		bits++;
	if (bits > 16)
		bits = 16;
	val = ((u32)v * ((1u << bits) - 1) + 127) / 255;	/* 0xff -> all ones */
	return (val << shift) & mask;
}

u32 fbcon_pixel(const struct ekdb_framebuffer *fb, unsigned idx)
{
	const u8 *c = vga_rgb[idx & 15];

	switch (fb->format) {
	case EKDB_FB_RGBX8:
		return c[0] | (u32)c[1] << 8 | (u32)c[2] << 16;
	case EKDB_FB_BGRX8:
		return c[2] | (u32)c[1] << 8 | (u32)c[0] << 16;
	case EKDB_FB_BITMASK:
		return mask_channel(fb->red_mask, c[0]) | mask_channel(fb->green_mask, c[1]) |
		       mask_channel(fb->blue_mask, c[2]);
	default:
		return 0;
	}
}

int fbcon_geometry(const struct ekdb_framebuffer *fb, u16 *cols, u16 *rows)
{
	bool rgb = fb->format == EKDB_FB_RGBX8 || fb->format == EKDB_FB_BGRX8;
	bool mask = fb->format == EKDB_FB_BITMASK && fb->bpp == 32 &&
		    (fb->red_mask | fb->green_mask | fb->blue_mask);

	if (!(rgb || mask) || (fb->bpp && fb->bpp != 32))
		return -EKDB_EINVAL;
	if (fb->width < FONT_W || fb->height < FONT_H || fb->pitch < fb->width * 4 ||
	    (fb->size && (u64)fb->pitch * fb->height > fb->size))
		return -EKDB_EINVAL;
	*cols = (u16)MIN(fb->width / FONT_W, FBCON_MAX_COLS);
	*rows = (u16)MIN(fb->height / FONT_H, FBCON_MAX_ROWS);
	return 0;
}

static u32 *pixel_row(struct fbcon *fc, u32 py)
{
	return (u32 *)(fc->base + (size_t)py * fc->pitch);
}

static void fill_rect(struct fbcon *fc, u32 x0, u32 y0, u32 x1, u32 y1, u32 px)
{
	for (u32 y = y0; y < y1; y++) {
		volatile u32 *p = pixel_row(fc, y);

		for (u32 x = x0; x < x1; x++)
			p[x] = px;
	}
}

static void draw_cell(struct fbcon *fc, u16 cx, u16 cy, struct tg_cell c)
{
	const u8 *glyph = font_glyph(c.ch);
	u32 fg = fc->palette[c.attr & 15], bg = fc->palette[(c.attr >> 4) & 7];
	u32 py = (u32)cy * FONT_H;

	if (c.attr & TG_ATTR_CURSOR) {
		u32 t = fg;

		fg = bg;
		bg = t;
	}
	for (unsigned r = 0; r < FONT_H; r++) {
		volatile u32 *p = pixel_row(fc, py + r) + (u32)cx * FONT_W;
		u8 bits = glyph[r];

		p[0] = bits & 0x80 ? fg : bg;
		p[1] = bits & 0x40 ? fg : bg;
		p[2] = bits & 0x20 ? fg : bg;
		p[3] = bits & 0x10 ? fg : bg;
		p[4] = bits & 0x08 ? fg : bg;
		p[5] = bits & 0x04 ? fg : bg;
		p[6] = bits & 0x02 ? fg : bg;
		p[7] = bits & 0x01 ? fg : bg;
	}
}

/* A cell that is all background black (whatever its foreground colour). */
static bool cell_is_black(struct tg_cell c)
{
	return c.ch == ' ' && !(c.attr & (0x70 | TG_ATTR_CURSOR));
}

static bool cell_same(struct tg_cell a, struct tg_cell b)
{
	return (a.ch == b.ch && a.attr == b.attr) || (cell_is_black(a) && cell_is_black(b));
}

/* Copy @cells cells' worth of text row @src's pixels to text row @dst. */
static void move_row(struct fbcon *fc, u16 dst, u16 src, u16 cells)
{
	size_t words = (size_t)cells * FONT_W;	/* one 32-bit pixel each: rows are only 4-aligned */

	for (unsigned r = 0; r < FONT_H; r++) {
		volatile u32 *d = (volatile u32 *)pixel_row(fc, (u32)dst * FONT_H + r);
		const volatile u32 *s = (const volatile u32 *)pixel_row(fc, (u32)src * FONT_H + r);

		for (size_t i = 0; i < words; i++)
			d[i] = s[i];
	}
}

static void scroll_pixels(struct fbcon *fc, u32 n)
{
	u16 rows = fc->rows, cols = fc->cols;

	for (u16 y = 0; y + n < rows; y++) {
		u16 span = MAX(fc->extent[y], fc->extent[y + n]);

		if (span)
			move_row(fc, y, (u16)(y + n), span);
		for (u16 x = 0; x < cols; x++)
			fc->shown[(size_t)y * cols + x] = fc->shown[(size_t)(y + n) * cols + x];
		fc->extent[y] = fc->extent[y + n];
	}
	fc->scrolls++;
}

static void sync_rows(struct fbcon *fc, u16 lo, u16 hi)
{
	u16 cx, cy;
	bool cursor = tg_cursor(fc->grid, &cx, &cy);

	for (u16 y = lo; y < hi && y < fc->rows; y++) {
		const struct tg_cell *row = tg_row(fc->grid, y);
		struct tg_cell *shown = &fc->shown[(size_t)y * fc->cols];
		bool changed = false;

		for (u16 x = 0; x < fc->cols; x++) {
			struct tg_cell c = row[x];

			if (cursor && x == cx && y == cy)
				c.attr |= TG_ATTR_CURSOR;
			if (cell_same(c, shown[x]))
				continue;
			draw_cell(fc, x, y, c);
			shown[x] = c;
			changed = true;
		}
		if (changed) {
			u16 e = fc->cols;

			while (e && cell_is_black(shown[e - 1]))
				e--;
			fc->extent[y] = e;
		}
	}
}

void fbcon_sync(struct fbcon *fc)
{
	u32 scrolled;
	u16 lo, hi;

	tg_take(fc->grid, &scrolled, &lo, &hi);
	if (scrolled) {
		if (fc->scroll_by_copy && scrolled < fc->rows)
			scroll_pixels(fc, scrolled);
		lo = 0;
		hi = fc->rows;
	}
	if (lo < hi)
		sync_rows(fc, lo, hi);
}

void fbcon_redraw(struct fbcon *fc)
{
	u32 scrolled;
	u16 lo, hi;

	tg_take(fc->grid, &scrolled, &lo, &hi);
	for (size_t i = 0; i < (size_t)fc->cols * fc->rows; i++) {
		fc->shown[i].ch = 0;		/* matches no cell: everything is drawn */
		fc->shown[i].attr = 0;
	}
	sync_rows(fc, 0, fc->rows);
}

void fbcon_refresh(struct fbcon *fc)
{
	u32 scrolled;
	u16 lo, hi;

	tg_take(fc->grid, &scrolled, &lo, &hi);
	sync_rows(fc, 0, fc->rows);
}

void fbcon_set_base(struct fbcon *fc, void *base)
{
	fc->base = base;
}

int fbcon_init(struct fbcon *fc, const struct ekdb_framebuffer *fb, void *base,
	       struct textgrid *grid)
{
	int err = fbcon_geometry(fb, &fc->cols, &fc->rows);

	if (err)
		return err;
	if (grid->cols != fc->cols || grid->rows != fc->rows)
		return -EKDB_EINVAL;
	fc->base = base;
	fc->pitch = fb->pitch;
	fc->width = fb->width;
	fc->height = fb->height;
	fc->grid = grid;
	fc->scrolls = 0;
	for (unsigned i = 0; i < 16; i++)
		fc->palette[i] = fbcon_pixel(fb, i);
	/* the margins outside the cell area, then every cell */
	fill_rect(fc, (u32)fc->cols * FONT_W, 0, fc->width, fc->height, fc->palette[0]);
	fill_rect(fc, 0, (u32)fc->rows * FONT_H, (u32)fc->cols * FONT_W, fc->height,
		  fc->palette[0]);
	fbcon_redraw(fc);
	return 0;
}
