/* SPDX-License-Identifier: GPL-2.0 */
/* test_textgrid.c - host tests of the console's cell grid (io/vga/textgrid.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ekdb/string.h>
#include "../../io/vga/textgrid.h"

#define COLS 20
#define ROWS 4

static struct tg_cell cells[COLS * ROWS];
static struct textgrid g;

static const char *row(u16 y)
{
	static char buf[COLS + 1];

	tg_row_text(&g, y, buf);
	return buf;
}

static void put(const char *s)
{
	tg_write(&g, s, strlen(s));
}

static int setup(void **state)
{
	tg_init(&g, cells, COLS, ROWS);
	return 0;
}

static void test_plain_and_newline(void **state)
{
	put("hello\nworld");
	assert_string_equal(row(0), "hello");
	assert_string_equal(row(1), "world");
	assert_int_equal(g.x, 5);
	assert_int_equal(g.y, 1);
}

static void test_carriage_return_overwrites(void **state)
{
	put("abcdef\rXY");
	assert_string_equal(row(0), "XYcdef");
	assert_int_equal(g.x, 2);
}

static void test_backspace_moves_without_erasing(void **state)
{
	put("abcd\b\bXY");
	assert_string_equal(row(0), "abXY");
	put("\b \b");			/* a line editor's erase */
	assert_string_equal(row(0), "abX");
	assert_int_equal(g.x, 3);
}

static void test_backspace_at_column_0_goes_up(void **state)
{
	put("ab\n\b");
	assert_int_equal(g.y, 0);
	assert_int_equal(g.x, COLS - 1);
	put("\n\n\n\b\b");		/* stays inside the grid */
	assert_true(g.x < COLS);
	tg_init(&g, cells, COLS, ROWS);
	put("\b");
	assert_int_equal(g.x, 0);
	assert_int_equal(g.y, 0);
}

static void test_tab_stops(void **state)
{
	put("ab\tc\td");
	assert_string_equal(row(0), "ab      c       d");
	put("\t\t\t");			/* clamps at the last column */
	assert_int_equal(g.x, COLS - 1);
}

static void test_wrap_is_pending_until_next_char(void **state)
{
	char full[COLS + 1];

	memset(full, 'x', COLS);
	full[COLS] = 0;
	put(full);
	assert_int_equal(g.y, 0);
	assert_int_equal(g.x, COLS);	/* pending */
	put("\nnext");			/* no blank line in between */
	assert_string_equal(row(1), "next");
	put("\n");
	put(full);
	assert_int_equal(g.y, 2);
	put("y");			/* the wrap happens now */
	assert_string_equal(row(3), "y");
}

static void test_scroll_keeps_last_rows(void **state)
{
	u32 scrolled;
	u16 lo, hi;

	tg_take(&g, &scrolled, &lo, &hi);
	put("1\n2\n3\n4\n5\n6");
	assert_string_equal(row(0), "3");
	assert_string_equal(row(1), "4");
	assert_string_equal(row(2), "5");
	assert_string_equal(row(3), "6");
	tg_take(&g, &scrolled, &lo, &hi);
	assert_int_equal(scrolled, 2);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, ROWS);
	tg_take(&g, &scrolled, &lo, &hi);
	assert_int_equal(scrolled, 0);
	assert_true(lo >= hi);
	for (int i = 0; i < 100; i++)	/* many turns of the row ring */
		put("\nline");
	assert_string_equal(row(3), "line");
	assert_string_equal(row(0), "line");
}

static void test_dirty_rows_track_cursor(void **state)
{
	u32 scrolled;
	u16 lo, hi;

	put("a\nb");
	tg_take(&g, &scrolled, &lo, &hi);
	put("\b");			/* cursor move only */
	tg_take(&g, &scrolled, &lo, &hi);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 2);
	put("\rx\n");
	tg_take(&g, &scrolled, &lo, &hi);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 3);
}

static void test_cursor_view(void **state)
{
	struct tg_cell c;

	put("ab");
	c = tg_view(&g, 2, 0);
	assert_true(c.attr & TG_ATTR_CURSOR);
	c = tg_view(&g, 1, 0);
	assert_false(c.attr & TG_ATTR_CURSOR);
	tg_set_cursor(&g, false);
	c = tg_view(&g, 2, 0);
	assert_false(c.attr & TG_ATTR_CURSOR);
}

static void test_cursor_on_last_column_when_pending(void **state)
{
	char full[COLS + 1];
	u16 x, y;

	memset(full, 'x', COLS);
	full[COLS] = 0;
	put(full);
	assert_true(tg_cursor(&g, &x, &y));
	assert_int_equal(x, COLS - 1);
	assert_int_equal(y, 0);
}

static void test_escape_sequences(void **state)
{
	put("hello world\x1b[5D");
	assert_int_equal(g.x, 6);
	put("\x1b[K");
	assert_string_equal(row(0), "hello");
	put("\x1b[2;3HZ");
	assert_string_equal(row(1), "  Z");
	put("\x1b[31mR\x1b[0m");
	assert_int_equal(tg_row(&g, 1)[3].attr, 0x04);
	assert_int_equal(g.attr, TG_ATTR_DEFAULT);
	put("\x1b[?25l\x1b[1;1H");	/* unknown: swallowed, nothing drawn */
	assert_string_equal(row(0), "hello");
	put("\x1b[2J");
	assert_string_equal(row(0), "");
	assert_string_equal(row(1), "");
}

static void test_controls_ignored(void **state)
{
	put("a\a\x01\x7f" "b");
	assert_string_equal(row(0), "ab");
}

static void test_non_ascii_kept_as_byte(void **state)
{
	put("\xe9");
	assert_int_equal(tg_row(&g, 0)[0].ch, 0xe9);	/* the renderer draws the unknown glyph */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_plain_and_newline, setup),
		cmocka_unit_test_setup(test_carriage_return_overwrites, setup),
		cmocka_unit_test_setup(test_backspace_moves_without_erasing, setup),
		cmocka_unit_test_setup(test_backspace_at_column_0_goes_up, setup),
		cmocka_unit_test_setup(test_tab_stops, setup),
		cmocka_unit_test_setup(test_wrap_is_pending_until_next_char, setup),
		cmocka_unit_test_setup(test_scroll_keeps_last_rows, setup),
		cmocka_unit_test_setup(test_dirty_rows_track_cursor, setup),
		cmocka_unit_test_setup(test_cursor_view, setup),
		cmocka_unit_test_setup(test_cursor_on_last_column_when_pending, setup),
		cmocka_unit_test_setup(test_escape_sequences, setup),
		cmocka_unit_test_setup(test_controls_ignored, setup),
		cmocka_unit_test_setup(test_non_ascii_kept_as_byte, setup),
	};

	return cmocka_run_group_tests_name("textgrid", tests, NULL, NULL);
}
