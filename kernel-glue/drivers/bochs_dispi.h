/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bochs_dispi.h - QEMU's standard VGA (PCI 1234:1111) as the kms driver
 * sees it: the Bochs DISPI register file (through BAR2's MMIO window at
 * 0x500, or the 0x1CE/0x1CF ports when there is no BAR2), the linear
 * framebuffer in BAR0, and the driver state shared by bochs_kms.c (probe,
 * modeset), kms_console.c (the console on it) and kms_debug.c (the
 * debugger's display hooks).
 */
#ifndef DRIVERS_BOCHS_DISPI_H
#define DRIVERS_BOCHS_DISPI_H

#include <ekdb/types.h>

#define DISPI_ID		0x0
#define DISPI_XRES		0x1
#define DISPI_YRES		0x2
#define DISPI_BPP		0x3
#define DISPI_ENABLE		0x4
#define DISPI_BANK		0x5
#define DISPI_VIRT_WIDTH	0x6
#define DISPI_VIRT_HEIGHT	0x7
#define DISPI_X_OFFSET		0x8
#define DISPI_Y_OFFSET		0x9
#define DISPI_VIDEO_MEMORY_64K	0xa
#define DISPI_NREGS		0xb

#define DISPI_ID0		0xb0c0	/* ids 0xb0c0..0xb0c5: every version has the above */
#define DISPI_ENABLED		0x01
#define DISPI_LFB_ENABLED	0x40
#define DISPI_NOCLEARMEM	0x80

/* A mode as the registers hold it (what the debugger saves and puts back). */
struct dispi_regs {
	u16 r[DISPI_NREGS];
	u8 ar_index;		/* VGA attribute index: bit 5 (PAS) set = screen not blanked */
};

/* A mode the driver sets: @yoff picks the scanout page. */
struct kms_mode {
	u16 width, height;	/* pixels */
	u32 pitch;		/* bytes per line (width * 4) */
	u16 yoff;		/* first scanned-out line in the framebuffer */
};

struct bochs_dev {
	u32 bdf;
	u64 fb_phys, fb_size;	/* BAR0 */
	u8 *fb;			/* BAR0 as the CPU reaches it */
	volatile u8 *mmio;	/* BAR2 (DISPI at +0x500, VGA ports at +0x400), or NULL */
	u32 vram;		/* bytes of video memory (DISPI_VIDEO_MEMORY_64K) */
	u16 id;
	struct dispi_regs boot;	/* the firmware's (GOP) mode, read at probe */
	struct kms_mode mode;	/* the mode the console shows (valid when @mode_set) */
	bool mode_set;
	volatile bool in_modeset;	/* bochs_kms_modeset() is writing registers */
};

extern struct bochs_dev bochs;

u16 dispi_read(const struct bochs_dev *d, unsigned reg);
void dispi_write(const struct bochs_dev *d, unsigned reg, u16 v);
/* All registers and the VGA blanking state, as they are now. */
void dispi_save(const struct bochs_dev *d, struct dispi_regs *s);
/* Put back a saved register file (mode, pitch, offsets, enable, blanking). */
void dispi_load(const struct bochs_dev *d, const struct dispi_regs *s);
/* The register file that shows @m, 32 bpp, linear framebuffer on. */
void dispi_regs_for(const struct kms_mode *m, struct dispi_regs *s);
/* Set @m's scanout page only (the mode is already @m's). */
void dispi_set_yoff(const struct bochs_dev *d, u16 yoff);

/* bochs_kms.c */
int bochs_kms_modeset(const struct kms_mode *m);

/* video_mode.c: "WxH[-32][@Hz]" with an optional "connector:" prefix, as Linux's video=. */
int video_mode_parse(const char *s, u16 *width, u16 *height);

#endif
