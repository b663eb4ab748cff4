/* SPDX-License-Identifier: GPL-2.0 */
/*
 * framebuffer.h - the screen the firmware left, as a host describes it to
 * the debugger (struct ekdb_port_ops.framebuffer, <ekdb/port.h>) and as the
 * UEFI loader hands it to the reference kernel (struct ekdb_bootinfo.fb).
 * Fixed-width types only: the loader (GNU-EFI), the debugger and a host
 * with its own headers (Linux: linux/glue/io.c fills it from screen_info)
 * all include it.
 */
#ifndef EKDB_FRAMEBUFFER_H
#define EKDB_FRAMEBUFFER_H

#ifdef _LINUX_TYPES_H
#include <linux/types.h>	/* Linux's uint32_t, uint64_t */
#else
#include <stdint.h>
#endif

enum ekdb_fb_format {
	EKDB_FB_NONE = 0,	/* no framebuffer was handed over */
	EKDB_FB_RGBX8 = 1,	/* 32 bpp, byte 0 = red   (GOP PixelRedGreenBlueReserved8BitPerColor) */
	EKDB_FB_BGRX8 = 2,	/* 32 bpp, byte 0 = blue  (GOP PixelBlueGreenRedReserved8BitPerColor) */
	EKDB_FB_BITMASK = 3,	/* masks below say where each colour lives */
	EKDB_FB_VGA_TEXT = 4,	/* legacy 80x25 text mode at 0xB8000 */
};

struct ekdb_framebuffer {
	uint64_t base;		/* physical address of pixel (0,0) */
	uint64_t size;		/* bytes */
	uint32_t width;		/* pixels (or text columns for VGA_TEXT) */
	uint32_t height;	/* pixels (or text rows) */
	uint32_t pitch;		/* bytes per scan line */
	uint32_t bpp;		/* bits per pixel */
	uint32_t format;	/* enum ekdb_fb_format */
	uint32_t red_mask, green_mask, blue_mask, reserved_mask;	/* BITMASK only */
	uint32_t pad;
};

#endif
