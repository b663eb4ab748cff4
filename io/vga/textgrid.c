/* SPDX-License-Identifier: GPL-2.0 */
/*
 * textgrid.c - terminal semantics on a cell grid (no pixels; host-tested).
 *
 *  '\n'  new line, column 0 (printk text has no '\r'); scrolls at the bottom
 *  '\r'  column 0
 *  '\b'  one column left; at column 0 to the end of the line above (so a
 *        line editor can walk back over a wrapped line); never erases
 *  '\t'  next multiple of 8, at most the last column
 *  ESC [ n A/B/C/D, ESC [ r;c H, ESC [ n J (0, 2), ESC [ n K (0, 1, 2),
 *  ESC [ ... m (0, 1, 7, 30-37, 40-47, 90-97); other sequences are swallowed.
 * Writing the last column leaves the cursor "pending wrap" (x == cols), as
 * a VT100 does, so a full-width line followed by '\n' makes no blank line.
 */
#include "textgrid.h"
#include <ekdb/string.h>

enum { ESC_NONE, ESC_ESC, ESC_CSI };

static struct tg_cell *cell(struct textgrid *g, u16 x, u16 y)
{
	return (struct tg_cell *)tg_row(g, y) + x;
}

static void dirty(struct textgrid *g, u16 lo, u16 hi)
{
	if (lo >= hi)
		return;
	if (g->dirty_lo >= g->dirty_hi) {
		g->dirty_lo = lo;
		g->dirty_hi = hi;
		return;
	}
	g->dirty_lo = MIN(g->dirty_lo, lo);
	g->dirty_hi = MAX(g->dirty_hi, hi);
}

static void blank(struct textgrid *g, u16 x0, u16 x1, u16 y)
{
	struct tg_cell *c = cell(g, 0, y);

	for (u16 x = x0; x < x1; x++) {
		c[x].ch = ' ';
		c[x].attr = (u8)((g->attr & 0x70) | 0x07);
	}
	dirty(g, y, y + 1);
}

void tg_clear(struct textgrid *g)
{
	for (u16 y = 0; y < g->rows; y++)
		blank(g, 0, g->cols, y);
	g->x = g->y = 0;
	g->top = 0;
}

void tg_init(struct textgrid *g, struct tg_cell *cells, u16 cols, u16 rows)
{
	memset(g, 0, sizeof(*g));
	g->cells = cells;
	g->cols = cols;
	g->rows = rows;
	g->attr = TG_ATTR_DEFAULT;
	g->cursor_on = true;
	tg_clear(g);
}

void tg_set_cursor(struct textgrid *g, bool on)
{
	g->cursor_on = on;
	dirty(g, g->y, g->y + 1);
}

/* The rows are a ring: scrolling moves the top, not the cells. */
static void scroll_up(struct textgrid *g)
{
	g->top = (u16)(g->top + 1 == g->rows ? 0 : g->top + 1);
	blank(g, 0, g->cols, g->rows - 1);
	g->scrolled++;
	dirty(g, 0, g->rows);
}

static void newline(struct textgrid *g)
{
	g->x = 0;
	if (g->y + 1 < g->rows)
		g->y++;
	else
		scroll_up(g);
}

static void put_printable(struct textgrid *g, u8 c)
{
	struct tg_cell *p;

	if (g->x >= g->cols)
		newline(g);
	p = cell(g, g->x, g->y);
	p->ch = c;
	p->attr = g->attr;
	g->x++;
}

static u16 param(const struct textgrid *g, unsigned i, u16 dflt)
{
	return i < g->nparam && g->param[i] ? g->param[i] : dflt;
}

static void sgr(struct textgrid *g)
{
	static const u8 ansi_to_vga[8] = { 0, 4, 2, 6, 1, 5, 3, 7 };

	if (!g->nparam)
		g->attr = TG_ATTR_DEFAULT;
	for (unsigned i = 0; i < g->nparam && i < ARRAY_SIZE(g->param); i++) {
		u16 p = g->param[i];

		if (p == 0)
			g->attr = TG_ATTR_DEFAULT;
		else if (p == 1)
			g->attr |= 0x08;
		else if (p == 7)
			g->attr = (u8)(((g->attr & 0x07) << 4) | ((g->attr >> 4) & 0x07));
		else if (p >= 30 && p <= 37)
			g->attr = (u8)((g->attr & 0x78) | ansi_to_vga[p - 30]);
		else if (p >= 90 && p <= 97)
			g->attr = (u8)((g->attr & 0x70) | 0x08 | ansi_to_vga[p - 90]);
		else if (p >= 40 && p <= 47)
			g->attr = (u8)((g->attr & 0x0f) | ansi_to_vga[p - 40] << 4);
	}
}

static void csi_final(struct textgrid *g, char f)
{
	u16 n = param(g, 0, 1), x = MIN(g->x, (u16)(g->cols - 1));

	switch (f) {
	case 'A': g->y = g->y > n ? g->y - n : 0; g->x = x; break;
	case 'B': g->y = (u16)MIN(g->y + n, g->rows - 1); g->x = x; break;
	case 'C': g->x = (u16)MIN(x + n, g->cols - 1); break;
	case 'D': g->x = x > n ? x - n : 0; break;
	case 'H':
	case 'f':
		g->y = (u16)(MIN(param(g, 0, 1), g->rows) - 1);
		g->x = (u16)(MIN(param(g, 1, 1), g->cols) - 1);
		break;
	case 'J':
		if (g->nparam && g->param[0] == 2) {
			for (u16 y = 0; y < g->rows; y++)
				blank(g, 0, g->cols, y);
		} else if (!g->nparam || g->param[0] == 0) {
			blank(g, x, g->cols, g->y);
			for (u16 y = g->y + 1; y < g->rows; y++)
				blank(g, 0, g->cols, y);
		}
		break;
	case 'K': {
		u16 p = g->nparam ? g->param[0] : 0;

		if (p == 0)
			blank(g, g->x < g->cols ? g->x : g->cols, g->cols, g->y);
		else if (p == 1)
			blank(g, 0, x + 1, g->y);
		else if (p == 2)
			blank(g, 0, g->cols, g->y);
		break;
	}
	case 'm':
		sgr(g);
		break;
	default:
		break;		/* unknown: swallowed */
	}
}

/* Returns true when @c was part of an escape sequence. */
static bool escape(struct textgrid *g, char c)
{
	switch (g->esc) {
	case ESC_NONE:
		if (c != 0x1b)
			return false;
		g->esc = ESC_ESC;
		return true;
	case ESC_ESC:
		g->esc = c == '[' ? ESC_CSI : ESC_NONE;
		g->nparam = 0;
		memset(g->param, 0, sizeof(g->param));
		return true;
	default:
		if (c >= '0' && c <= '9') {
			if (!g->nparam)
				g->nparam = 1;
			if (g->nparam <= ARRAY_SIZE(g->param)) {
				u16 *p = &g->param[g->nparam - 1];

				*p = (u16)MIN(*p * 10 + (c - '0'), 9999);
			}
		} else if (c == ';') {
			if (!g->nparam)
				g->nparam = 1;
			if (g->nparam < 255)
				g->nparam++;
		} else if (c >= 0x40 && c <= 0x7e) {
			if (g->nparam > ARRAY_SIZE(g->param))
				g->nparam = ARRAY_SIZE(g->param);
			g->esc = ESC_NONE;
			csi_final(g, c);
		} else if (c < 0x20 || c > 0x7e) {
			g->esc = ESC_NONE;	/* broken sequence: drop it */
		}
		return true;
	}
}

void tg_putc(struct textgrid *g, char ch)
{
	u8 c = (u8)ch;
	u16 y0 = g->y;

	if (escape(g, ch))
		goto out;
	switch (c) {
	case '\n':
		newline(g);
		break;
	case '\r':
		g->x = 0;
		break;
	case '\b':
		if (g->x > 0) {
			g->x--;
		} else if (g->y > 0) {
			g->y--;
			g->x = g->cols - 1;
		}
		break;
	case '\t':
		if (g->x >= g->cols)
			newline(g);
		g->x = (u16)MIN((g->x / TG_TAB + 1) * TG_TAB, g->cols - 1);
		break;
	default:
		if (c >= 0x20 && c != 0x7f)
			put_printable(g, c);
		break;		/* other control characters: ignored */
	}
out:
	dirty(g, MIN(y0, g->y), MAX(y0, g->y) + 1);
}

void tg_write(struct textgrid *g, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		tg_putc(g, s[i]);
}

const struct tg_cell *tg_row(const struct textgrid *g, u16 y)
{
	u32 r = (u32)g->top + y;

	if (r >= g->rows)
		r -= g->rows;
	return &g->cells[(size_t)r * g->cols];
}

bool tg_cursor(const struct textgrid *g, u16 *x, u16 *y)
{
	*x = g->x < g->cols ? g->x : g->cols - 1;
	*y = g->y;
	return g->cursor_on;
}

struct tg_cell tg_view(const struct textgrid *g, u16 x, u16 y)
{
	struct tg_cell c = tg_row(g, y)[x];
	u16 cx, cy;

	if (tg_cursor(g, &cx, &cy) && y == cy && x == cx)
		c.attr |= TG_ATTR_CURSOR;
	return c;
}

void tg_take(struct textgrid *g, u32 *scrolled, u16 *lo, u16 *hi)
{
	*scrolled = g->scrolled;
	*lo = g->dirty_lo;
	*hi = g->dirty_hi;
	g->scrolled = 0;
	g->dirty_lo = g->dirty_hi = 0;
}

size_t tg_row_text(const struct textgrid *g, u16 y, char *buf)
{
	size_t n = 0, end = 0;

	const struct tg_cell *row = tg_row(g, y);

	for (u16 x = 0; x < g->cols; x++) {
		buf[n++] = (char)row[x].ch;
		if (buf[n - 1] != ' ')
			end = n;
	}
	buf[end] = 0;
	return end;
}
