/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fbcon.h - draw a textgrid on a 32-bit linear framebuffer with the 8x16
 * font.  Pure memory writes (host-tested on memory framebuffers).
 *
 * The console covers the top-left cols*8 x rows*16 pixels; the margin to
 * the right and below is cleared once.  fbcon_sync() brings the pixels up
 * to date with the grid: it redraws the cells that differ from what the
 * pixels show; with scroll_by_copy set it first moves the pixel rows up
 * when the grid scrolled (only as much of each row as holds text).
 */
#ifndef IO_VGA_FBCON_H
#define IO_VGA_FBCON_H

#include <ekdb/bootinfo.h>
#include "textgrid.h"

#define FBCON_MAX_COLS	320		/* 2560 pixels */
#define FBCON_MAX_ROWS	100		/* 1600 pixels */

struct fbcon {
	u8 *base;			/* pixel (0,0), as the CPU reaches it now */
	u32 pitch;			/* bytes per scan line */
	u32 width, height;		/* pixels */
	u16 cols, rows;
	u32 palette[16];		/* the 16 VGA colours as pixel values */
	struct textgrid *grid;
	struct tg_cell shown[FBCON_MAX_COLS * FBCON_MAX_ROWS];	/* what the pixels show */
	u16 extent[FBCON_MAX_ROWS];	/* shown row y is blank from extent[y] on */
	u32 scrolls;			/* pixel scrolls done (statistics) */
	bool scroll_by_copy;		/* scroll by copying pixel rows (reads the framebuffer) */
};

/*
 * fbcon_geometry - the cell grid @fb holds (clamped to the maxima above).
 * Returns 0, or -EKDB_EINVAL for a format or depth we cannot draw
 * (only 32 bpp RGBX8, BGRX8 and bitmask formats are drawn).
 */
int fbcon_geometry(const struct ekdb_framebuffer *fb, u16 *cols, u16 *rows);

/*
 * fbcon_init - draw @grid (already tg_init()ed with fbcon_geometry()'s
 * size) on @fb whose pixel (0,0) is at @base.  Clears the screen.
 */
int fbcon_init(struct fbcon *fc, const struct ekdb_framebuffer *fb, void *base,
	       struct textgrid *grid);

/* The CPU now reaches pixel (0,0) at @base (paging changed). */
void fbcon_set_base(struct fbcon *fc, void *base);

/* Bring the pixels up to date with the grid. */
void fbcon_sync(struct fbcon *fc);

/*
 * Bring the pixels up to date with every row of the grid, not only the
 * rows changed since the last tg_take(): for a renderer that shares its
 * grid with another one (the kms console's two pages), whose syncs took
 * the change marks.  Draws only the cells that differ from `shown`.
 */
void fbcon_refresh(struct fbcon *fc);

/* Redraw every cell (after someone else drew on the screen). */
void fbcon_redraw(struct fbcon *fc);

/* Pixel value of VGA colour @idx (0..15) in @fb's format (host tests). */
u32 fbcon_pixel(const struct ekdb_framebuffer *fb, unsigned idx);

#endif
