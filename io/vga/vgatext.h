/* SPDX-License-Identifier: GPL-2.0 */
/* vgatext.h - draw a textgrid on legacy VGA text memory (0xB8000). */
#ifndef IO_VGA_VGATEXT_H
#define IO_VGA_VGATEXT_H

#include "textgrid.h"

#define VGATEXT_MAX_COLS	132
#define VGATEXT_MAX_ROWS	60

struct vgatext {
	volatile u16 *base;		/* cell (0,0): character | attribute << 8 */
	u16 cols, rows;
	struct textgrid *grid;
};

/* Take over @cols x @rows text memory at @base for @grid (same size); clears it. */
int vgatext_init(struct vgatext *vt, void *base, u16 cols, u16 rows, struct textgrid *grid);
void vgatext_set_base(struct vgatext *vt, void *base);
/* Bring the text memory up to date with the grid. */
void vgatext_sync(struct vgatext *vt);

#endif
