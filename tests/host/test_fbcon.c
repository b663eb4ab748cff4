/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_fbcon.c - host tests of the framebuffer renderer (io/vga/fbcon.c):
 * draws into memory framebuffers of several formats, sizes and pitches and
 * reads the pixels back through the font, cell by cell, after every sync.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include "../../io/vga/fbcon.h"
#include "../../io/vga/font.h"

#define PAD_BYTE 0xee

struct mem_fb {
	struct ekdb_framebuffer fb;
	u8 *mem;
	struct textgrid grid;
	struct tg_cell *cells;
	struct fbcon *fc;
};

static void fb_setup(struct mem_fb *m, u32 format, u32 w, u32 h, u32 pitch)
{
	u16 cols, rows;

	memset(m, 0, sizeof(*m));
	m->fb.format = format;
	m->fb.width = w;
	m->fb.height = h;
	m->fb.pitch = pitch;
	m->fb.bpp = 32;
	m->fb.size = (u64)pitch * h;
	if (format == EKDB_FB_BITMASK) {	/* 10 bits per channel, like x2r10g10b10 */
		m->fb.red_mask = 0x3ff00000;
		m->fb.green_mask = 0x000ffc00;
		m->fb.blue_mask = 0x000003ff;
		m->fb.reserved_mask = 0xc0000000;
	}
	m->mem = malloc(m->fb.size);
	memset(m->mem, PAD_BYTE, m->fb.size);	/* "firmware" picture + pitch padding */
	assert_int_equal(fbcon_geometry(&m->fb, &cols, &rows), 0);
	m->cells = calloc((size_t)cols * rows, sizeof(*m->cells));
	m->fc = calloc(1, sizeof(*m->fc));
	tg_init(&m->grid, m->cells, cols, rows);
	assert_int_equal(fbcon_init(m->fc, &m->fb, m->mem, &m->grid), 0);
}

static void fb_teardown(struct mem_fb *m)
{
	free(m->mem);
	free(m->cells);
	free(m->fc);
}

static u32 px(const struct mem_fb *m, u32 x, u32 y)
{
	u32 v;

	memcpy(&v, m->mem + (size_t)y * m->fb.pitch + (size_t)x * 4, 4);
	return v;
}

/* Check cell (cx, cy) shows @c exactly: glyph bits in fg, others in bg. */
static void check_cell(const struct mem_fb *m, u16 cx, u16 cy, struct tg_cell c)
{
	const u8 *glyph = font_glyph(c.ch);
	u32 fg = fbcon_pixel(&m->fb, c.attr & 15), bg = fbcon_pixel(&m->fb, (c.attr >> 4) & 7);

	if (c.attr & TG_ATTR_CURSOR) {
		u32 t = fg;

		fg = bg;
		bg = t;
	}
	for (unsigned r = 0; r < FONT_H; r++)
		for (unsigned b = 0; b < FONT_W; b++) {
			u32 want = (glyph[r] & (0x80 >> b)) ? fg : bg;
			u32 got = px(m, (u32)cx * FONT_W + b, (u32)cy * FONT_H + r);

			if (got != want && !(c.ch == ' ' && !(c.attr & 0xf0) && got == bg))
				fail_msg("cell (%u,%u) '%c' pixel (%u,%u): got 0x%08x want 0x%08x",
					 cx, cy, c.ch, b, r, got, want);
		}
}

static void check_screen(const struct mem_fb *m)
{
	for (u16 y = 0; y < m->grid.rows; y++)
		for (u16 x = 0; x < m->grid.cols; x++)
			check_cell(m, x, y, tg_view(&m->grid, x, y));
}

/* Margins are black; bytes past width in each pitch line are untouched. */
static void check_margins(const struct mem_fb *m)
{
	u32 cw = (u32)m->grid.cols * FONT_W, ch = (u32)m->grid.rows * FONT_H;

	for (u32 y = 0; y < m->fb.height; y++) {
		for (u32 x = 0; x < m->fb.width; x++)
			if (x >= cw || y >= ch)
				assert_int_equal(px(m, x, y), fbcon_pixel(&m->fb, 0));
		for (u32 b = m->fb.width * 4; b < m->fb.pitch; b++)
			assert_int_equal(m->mem[(size_t)y * m->fb.pitch + b], PAD_BYTE);
	}
}

static void write_sync(struct mem_fb *m, const char *s)
{
	tg_write(&m->grid, s, strlen(s));
	fbcon_sync(m->fc);
}

static void test_pixel_formats(void **state)
{
	struct ekdb_framebuffer fb = { .bpp = 32 };

	fb.format = EKDB_FB_RGBX8;
	assert_int_equal(fbcon_pixel(&fb, 7), 0x00aaaaaa);
	assert_int_equal(fbcon_pixel(&fb, 4), 0x000000aa);	/* red in byte 0 */
	assert_int_equal(fbcon_pixel(&fb, 1), 0x00aa0000);
	fb.format = EKDB_FB_BGRX8;
	assert_int_equal(fbcon_pixel(&fb, 4), 0x00aa0000);	/* red in byte 2 */
	assert_int_equal(fbcon_pixel(&fb, 1), 0x000000aa);
	assert_int_equal(fbcon_pixel(&fb, 15), 0x00ffffff);
	fb.format = EKDB_FB_BITMASK;
	fb.red_mask = 0x3ff00000;
	fb.green_mask = 0x000ffc00;
	fb.blue_mask = 0x000003ff;
	assert_int_equal(fbcon_pixel(&fb, 4), 0x2aau << 20);
	assert_int_equal(fbcon_pixel(&fb, 15), 0x3fffffff);
	fb.red_mask = 0xf800;		/* 5:6:5 masks in a 32-bit pixel */
	fb.green_mask = 0x07e0;
	fb.blue_mask = 0x001f;
	assert_int_equal(fbcon_pixel(&fb, 15), 0xffff);
	assert_int_equal(fbcon_pixel(&fb, 4), 21u << 11);
}

static void test_geometry(void **state)
{
	struct ekdb_framebuffer fb = { .format = EKDB_FB_BGRX8, .bpp = 32, .width = 1280,
				       .height = 800, .pitch = 5120, .size = 5120 * 800 };
	u16 cols, rows;

	assert_int_equal(fbcon_geometry(&fb, &cols, &rows), 0);
	assert_int_equal(cols, 160);
	assert_int_equal(rows, 50);
	fb.width = 3840;
	fb.height = 2160;
	fb.pitch = 3840 * 4;
	fb.size = (u64)fb.pitch * fb.height;
	assert_int_equal(fbcon_geometry(&fb, &cols, &rows), 0);
	assert_int_equal(cols, FBCON_MAX_COLS);
	assert_int_equal(rows, FBCON_MAX_ROWS);
	fb.bpp = 16;
	assert_int_equal(fbcon_geometry(&fb, &cols, &rows), -EKDB_EINVAL);
	fb.bpp = 32;
	fb.format = EKDB_FB_VGA_TEXT;
	assert_int_equal(fbcon_geometry(&fb, &cols, &rows), -EKDB_EINVAL);
	fb.format = EKDB_FB_RGBX8;
	fb.pitch = 100;			/* shorter than a line */
	assert_int_equal(fbcon_geometry(&fb, &cols, &rows), -EKDB_EINVAL);
}

static const struct {
	u32 format, w, h, pitch;
} shapes[] = {
	{ EKDB_FB_BGRX8, 640, 480, 640 * 4 },
	{ EKDB_FB_RGBX8, 85, 55, 85 * 4 },		/* odd size: margins */
	{ EKDB_FB_BGRX8, 100, 70, 100 * 4 + 96 },	/* padded pitch */
	{ EKDB_FB_BITMASK, 168, 100, 176 * 4 },
	{ EKDB_FB_RGBX8, 8, 16, 64 },			/* a single cell */
};

static void test_draw_text_and_cursor(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(shapes); i++) {
		struct mem_fb m;

		fb_setup(&m, shapes[i].format, shapes[i].w, shapes[i].h, shapes[i].pitch);
		check_margins(&m);
		check_screen(&m);		/* cleared, cursor at home */
		write_sync(&m, "Hi!");
		check_screen(&m);
		assert_true(tg_view(&m.grid, m.grid.x < m.grid.cols ? m.grid.x : m.grid.cols - 1,
				    m.grid.y).attr & TG_ATTR_CURSOR);
		write_sync(&m, "\b\bo");
		check_screen(&m);
		write_sync(&m, "\x1b[44;97m col \x1b[0m");
		check_screen(&m);
		check_margins(&m);
		fb_teardown(&m);
	}
}

static void scrolling_matches_grid(bool by_copy)
{
	static const char *const words[] = { "kgdb: ", "mem [0x0000-0xffff] usable", "\n", "\n",
					     "x", "a much longer line of boot log text that wraps ",
					     "\r", "\b", "\t", "", "ok\n" };

	for (size_t i = 0; i < ARRAY_SIZE(shapes); i++) {
		struct mem_fb m;
		unsigned seed = 12345;

		fb_setup(&m, shapes[i].format, shapes[i].w, shapes[i].h, shapes[i].pitch);
		m.fc->scroll_by_copy = by_copy;
		for (int round = 0; round < 300; round++) {
			unsigned n;

			seed = seed * 1103515245 + 12345;
			n = (seed >> 16) % 6;	/* several writes per sync: multi-row scrolls */
			for (unsigned k = 0; k <= n; k++) {
				seed = seed * 1103515245 + 12345;
				tg_write(&m.grid, words[(seed >> 16) % ARRAY_SIZE(words)],
					 strlen(words[(seed >> 16) % ARRAY_SIZE(words)]));
			}
			fbcon_sync(m.fc);
			check_screen(&m);
		}
		assert_true(!by_copy || m.fc->scrolls > 0 || m.grid.rows == 1);
		check_margins(&m);
		fb_teardown(&m);
	}
}

static void test_scrolling_matches_grid(void **state)
{
	scrolling_matches_grid(false);
}

static void test_scrolling_by_copy_matches_grid(void **state)
{
	scrolling_matches_grid(true);
}

static void test_scroll_more_than_a_screen(void **state)
{
	struct mem_fb m;

	for (int by_copy = 0; by_copy < 2; by_copy++) {
		fb_setup(&m, EKDB_FB_BGRX8, 160, 64, 160 * 4);	/* 20x4 */
		m.fc->scroll_by_copy = by_copy;
		write_sync(&m, "top\n");
		for (int i = 0; i < 10; i++)
			tg_write(&m.grid, "line\n", 5);
		tg_write(&m.grid, "end", 3);
		fbcon_sync(m.fc);
		check_screen(&m);
		write_sync(&m, "\n1\n2");			/* a partial scroll after it */
		check_screen(&m);
		fb_teardown(&m);
	}
}

static void test_redraw_after_overdraw(void **state)
{
	struct mem_fb m;

	fb_setup(&m, EKDB_FB_RGBX8, 160, 64, 160 * 4);
	write_sync(&m, "some text\nmore");
	memset(m.mem, 0x55, m.fb.size);		/* someone else drew */
	fbcon_redraw(m.fc);
	check_screen(&m);
	fb_teardown(&m);
}

static void test_unknown_glyph(void **state)
{
	struct mem_fb m;

	fb_setup(&m, EKDB_FB_BGRX8, 160, 64, 160 * 4);
	write_sync(&m, "\xe9");
	assert_memory_equal(font_glyph(0xe9), font_glyph(FONT_UNKNOWN), FONT_H);
	check_screen(&m);
	fb_teardown(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pixel_formats),
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_draw_text_and_cursor),
		cmocka_unit_test(test_scrolling_matches_grid),
		cmocka_unit_test(test_scrolling_by_copy_matches_grid),
		cmocka_unit_test(test_scroll_more_than_a_screen),
		cmocka_unit_test(test_redraw_after_overdraw),
		cmocka_unit_test(test_unknown_glyph),
	};

	return cmocka_run_group_tests_name("fbcon", tests, NULL, NULL);
}
