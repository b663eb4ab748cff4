/* SPDX-License-Identifier: GPL-2.0 */
/*
 * textgrid.h - a terminal's character cell grid, with no pixels in it:
 * cursor, \n \r \b \t, auto-wrap, scrolling, a few VT100 sequences.
 * Pure (host-tested); fbcon.c and vgatext.c draw it.
 *
 * Cell attributes are VGA text attributes: bits 0-3 foreground colour,
 * bits 4-6 background colour.  Bit 7 (TG_ATTR_CURSOR) never appears in
 * the grid itself: tg_view() sets it on the cell the visible cursor is on,
 * and the renderers draw such a cell inverted.
 */
#ifndef IO_VGA_TEXTGRID_H
#define IO_VGA_TEXTGRID_H

#include <ekdb/types.h>

#define TG_ATTR_DEFAULT	0x07	/* light grey on black */
#define TG_ATTR_CURSOR	0x80
#define TG_TAB		8

struct tg_cell {
	u8 ch;
	u8 attr;
};

struct textgrid {
	struct tg_cell *cells;	/* cols * rows, caller's storage: a ring of rows */
	u16 cols, rows;
	u16 top;		/* index in cells of screen row 0 */
	u16 x, y;		/* cursor; x == cols means "wrap before the next character" */
	u8 attr;		/* attribute of newly written characters */
	bool cursor_on;		/* draw the cursor */
	u32 scrolled;		/* rows scrolled up since the last tg_take() */
	u16 dirty_lo, dirty_hi;	/* rows [lo, hi) changed since the last tg_take() */
	u8 esc;			/* escape parser state */
	u8 nparam;
	u16 param[4];
};

/* Set up @g over @cells (cols * rows of them), cleared, cursor home and visible. */
void tg_init(struct textgrid *g, struct tg_cell *cells, u16 cols, u16 rows);
/* Blank the grid, cursor home. */
void tg_clear(struct textgrid *g);
/* Interpret one byte / @len bytes of terminal output. */
void tg_putc(struct textgrid *g, char c);
void tg_write(struct textgrid *g, const char *s, size_t len);
/* Show or hide the cursor. */
void tg_set_cursor(struct textgrid *g, bool on);

/* Screen row @y's cols cells. */
const struct tg_cell *tg_row(const struct textgrid *g, u16 y);
/* Where the cursor is drawn (*@x < cols); returns whether it is visible. */
bool tg_cursor(const struct textgrid *g, u16 *x, u16 *y);
/* The cell at (@x, @y) as it should look: TG_ATTR_CURSOR set under the cursor. */
struct tg_cell tg_view(const struct textgrid *g, u16 x, u16 y);

/*
 * What changed since the last call: *@scrolled rows scrolled up (the
 * renderer may move its pixels up by that much first) and rows
 * [*@lo, *@hi) to compare and redraw afterwards.  Resets both.
 */
void tg_take(struct textgrid *g, u32 *scrolled, u16 *lo, u16 *hi);

/* Copy row @y's characters to @buf (cols + 1 bytes), trailing blanks cut. */
size_t tg_row_text(const struct textgrid *g, u16 y, char *buf);

#endif
