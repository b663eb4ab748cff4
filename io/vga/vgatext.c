/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgatext.c - render a textgrid on VGA text memory, for a machine the
 * loader left in 80x25 text mode (bootinfo EKDB_FB_VGA_TEXT).  The cursor
 * is drawn in software (attribute inverted) like on the framebuffer; the
 * hardware cursor is switched off through the CRTC so only one shows.
 */
#include "vgatext.h"
#include <asm/io.h>
#include <ekdb/errno.h>

#define CRTC_INDEX		0x3d4
#define CRTC_DATA		0x3d5
#define CRTC_CURSOR_START	0x0a
#define CRTC_CURSOR_OFF		0x20

static u16 text_cell(struct tg_cell c)
{
	u8 attr = c.attr & 0x7f;

	if (c.attr & TG_ATTR_CURSOR)
		attr = (u8)(((attr & 0x07) << 4) | ((attr >> 4) & 0x07));
	return (u16)(c.ch | attr << 8);
}

void vgatext_sync(struct vgatext *vt)
{
	u32 scrolled;
	u16 lo, hi;

	tg_take(vt->grid, &scrolled, &lo, &hi);
	if (scrolled) {
		lo = 0;
		hi = vt->rows;
	}
	for (u16 y = lo; y < hi && y < vt->rows; y++)
		for (u16 x = 0; x < vt->cols; x++)
			vt->base[(size_t)y * vt->cols + x] = text_cell(tg_view(vt->grid, x, y));
}

void vgatext_set_base(struct vgatext *vt, void *base)
{
	vt->base = base;
}

int vgatext_init(struct vgatext *vt, void *base, u16 cols, u16 rows, struct textgrid *grid)
{
	if (!cols || !rows || cols > VGATEXT_MAX_COLS || rows > VGATEXT_MAX_ROWS ||
	    grid->cols != cols || grid->rows != rows)
		return -EKDB_EINVAL;
	vt->base = base;
	vt->cols = cols;
	vt->rows = rows;
	vt->grid = grid;
	outb(CRTC_INDEX, CRTC_CURSOR_START);
	outb(CRTC_DATA, CRTC_CURSOR_OFF);
	for (u16 y = 0; y < rows; y++)
		for (u16 x = 0; x < cols; x++)
			vt->base[(size_t)y * cols + x] = text_cell(tg_view(grid, x, y));
	return 0;
}
