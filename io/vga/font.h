/* SPDX-License-Identifier: GPL-2.0 */
/*
 * font.h - the console's 8x16 bitmap font: printable ASCII 0x20..0x7e and
 * one "unknown character" glyph.  The table (font8x16.c) is generated at
 * build time from a Debian console font by tools/gen_font.py; the tests'
 * screen decoder reads the same font.
 */
#ifndef IO_VGA_FONT_H
#define IO_VGA_FONT_H

#include <ekdb/types.h>

#define FONT_W		8
#define FONT_H		16
#define FONT_FIRST	0x20
#define FONT_UNKNOWN	0x7f		/* drawn for anything outside 0x20..0x7e */
#define FONT_GLYPHS	(FONT_UNKNOWN - FONT_FIRST + 1)

extern const u8 font8x16[FONT_GLYPHS][FONT_H];

/* The 16 rows of @c's glyph (bit 7 = leftmost pixel). */
static inline const u8 *font_glyph(u8 c)
{
	if (c < FONT_FIRST || c >= FONT_UNKNOWN)
		c = FONT_UNKNOWN;
	return font8x16[c - FONT_FIRST];
}

#endif
