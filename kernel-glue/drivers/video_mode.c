/* SPDX-License-Identifier: GPL-2.0 */
/*
 * video_mode.c - the video= kernel parameter, in the subset of Linux's
 * syntax (Documentation/fb/modedb.rst) a fixed-timing virtual display can
 * honour:
 *
 *	video=[<connector>:]<xres>x<yres>[M][R][-<bpp>][@<refresh>][i][m][e|d|D]
 *
 * The connector name, the M/R (CVT) flags and the refresh rate are
 * accepted and ignored (QEMU scans out at its own pace); bpp must be 32
 * when given.  Pure: host-tested (tests/host/test_video_mode.c).
 */
#include "bochs_dispi.h"
#include <ekdb/errno.h>
#include <ekdb/parse.h>
#include <ekdb/string.h>

#define VIDEO_MIN_W	320
#define VIDEO_MIN_H	200
#define VIDEO_MAX_W	2560	/* the console's widest grid (FBCON_MAX_COLS) */
#define VIDEO_MAX_H	1600

static bool number(const char **p, u64 *v)
{
	const char *end;

	if (!isdigit(**p) || parse_u64_prefix(*p, 10, v, &end) || end == *p)
		return false;
	*p = end;
	return true;
}

/**
 * video_mode_parse - @s as video= gives it.
 * Return: 0 with *@width, *@height set; -EKDB_EINVAL for text that is not
 * a mode; -EKDB_ERANGE for a mode outside 320x200..2560x1600, a width
 * that is not a multiple of 8, or a depth other than 32.
 */
int video_mode_parse(const char *s, u16 *width, u16 *height)
{
	const char *p = s, *colon = strchr(s, ':');
	u64 w, h, v;

	if (colon)
		p = colon + 1;
	if (!number(&p, &w) || *p++ != 'x' || !number(&p, &h))
		return -EKDB_EINVAL;
	if (*p == 'M')
		p++;
	if (*p == 'R')
		p++;
	if (*p == '-') {
		p++;
		if (!number(&p, &v))
			return -EKDB_EINVAL;
		if (v != 32)
			return -EKDB_ERANGE;
	}
	if (*p == '@') {
		p++;
		if (!number(&p, &v))
			return -EKDB_EINVAL;
	}
	if (*p == 'i')
		p++;
	if (*p == 'm')
		p++;
	if (*p == 'e' || *p == 'd' || *p == 'D')
		p++;
	if (*p)
		return -EKDB_EINVAL;
	if (w < VIDEO_MIN_W || w > VIDEO_MAX_W || h < VIDEO_MIN_H || h > VIDEO_MAX_H || (w & 7))
		return -EKDB_ERANGE;
	*width = (u16)w;
	*height = (u16)h;
	return 0;
}
