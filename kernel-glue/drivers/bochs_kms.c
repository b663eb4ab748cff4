/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bochs_kms.c - the kms display driver for QEMU's standard VGA (PCI
 * 1234:1111, the Bochs DISPI interface; Linux's bochs-drm): finds the
 * device, maps its framebuffer (BAR0) and registers (BAR2), sets its own
 * mode (1024x768x32, or video=WxH), and moves the console from the
 * firmware's framebuffer onto it (kms_console.c) with the text kept.
 *
 * The mode has two pages of the same size, one above the other in video
 * memory (the DISPI virtual height): page 0 is the kernel's screen (the
 * console, or whatever draws on it: test_fbdraw), page 1 the debugger's
 * (kms_debug.c flips the scanout to it by the Y offset and back).
 *
 *	nomodeset	leave the firmware's framebuffer alone (as Linux)
 *	video=WxH	the mode (Linux's syntax, video_mode.c); bad values: default
 */
#include "bochs_dispi.h"
#include "kms_console.h"
#include "kms_debug.h"
#include <kernel/kernel.h>
#include <kernel/drivers.h>
#include <kernel/pci.h>
#include <kernel/printk.h>
#include <asm/io.h>
#include <ekdb/bootinfo.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>

#define BOCHS_VENDOR		0x1234
#define BOCHS_DEVICE		0x1111
#define DISPI_MMIO		0x500	/* in BAR2: 16-bit registers, index * 2 */
#define VGA_MMIO		0x400	/* in BAR2: VGA ports 0x3c0..0x3df */
#define DISPI_IOPORT_INDEX	0x1ce
#define DISPI_IOPORT_DATA	0x1cf
#define VGA_AR_PORT		0x3c0
#define VGA_IS1_PORT		0x3da	/* reading it resets the attribute flip-flop */
#define VGA_AR_PAS		0x20	/* palette address source: 0 = screen blanked */
#define DEFAULT_W		1024
#define DEFAULT_H		768

struct bochs_dev bochs;

__ekdb_nobp u16 dispi_read(const struct bochs_dev *d, unsigned reg)
{
	if (d->mmio)
		return *(const volatile u16 *)(d->mmio + DISPI_MMIO + reg * 2);
	outw(DISPI_IOPORT_INDEX, (u16)reg);
	return inw(DISPI_IOPORT_DATA);
}

/* Not inlined: one place to stop at every register write (test_kms.py). */
__ekdb_nobp __noinline void dispi_write(const struct bochs_dev *d, unsigned reg, u16 v)
{
	if (d->mmio) {
		*(volatile u16 *)(d->mmio + DISPI_MMIO + reg * 2) = v;
		return;
	}
	outw(DISPI_IOPORT_INDEX, (u16)reg);
	outw(DISPI_IOPORT_DATA, v);
}

static u8 vga_inb(const struct bochs_dev *d, u16 port)
{
	if (d->mmio)
		return *(const volatile u8 *)(d->mmio + VGA_MMIO + port - VGA_AR_PORT);
	return inb(port);
}

static void vga_outb(const struct bochs_dev *d, u16 port, u8 v)
{
	if (d->mmio)
		*(volatile u8 *)(d->mmio + VGA_MMIO + port - VGA_AR_PORT) = v;
	else
		outb(port, v);
}

__ekdb_nobp void dispi_save(const struct bochs_dev *d, struct dispi_regs *s)
{
	for (unsigned i = 0; i < DISPI_NREGS; i++)
		s->r[i] = dispi_read(d, i);
	(void)vga_inb(d, VGA_IS1_PORT);		/* flip-flop to "index" */
	s->ar_index = vga_inb(d, VGA_AR_PORT);
}

__ekdb_nobp void dispi_load(const struct bochs_dev *d, const struct dispi_regs *s)
{
	/* Disabled while the geometry changes; enabling resets the virtual
	 * size and offsets, so those come after it. */
	dispi_write(d, DISPI_ENABLE, 0);
	dispi_write(d, DISPI_BPP, s->r[DISPI_BPP]);
	dispi_write(d, DISPI_XRES, s->r[DISPI_XRES]);
	dispi_write(d, DISPI_YRES, s->r[DISPI_YRES]);
	dispi_write(d, DISPI_BANK, s->r[DISPI_BANK]);
	if (s->r[DISPI_ENABLE] & DISPI_ENABLED)
		dispi_write(d, DISPI_ENABLE, (u16)(s->r[DISPI_ENABLE] | DISPI_NOCLEARMEM));
	dispi_write(d, DISPI_VIRT_WIDTH, s->r[DISPI_VIRT_WIDTH]);
	dispi_write(d, DISPI_VIRT_HEIGHT, s->r[DISPI_VIRT_HEIGHT]);
	dispi_write(d, DISPI_X_OFFSET, s->r[DISPI_X_OFFSET]);
	dispi_write(d, DISPI_Y_OFFSET, s->r[DISPI_Y_OFFSET]);
	(void)vga_inb(d, VGA_IS1_PORT);
	vga_outb(d, VGA_AR_PORT, s->ar_index);
}

__ekdb_nobp void dispi_regs_for(const struct kms_mode *m, struct dispi_regs *s)
{
	memset(s, 0, sizeof(*s));
	s->r[DISPI_XRES] = m->width;
	s->r[DISPI_YRES] = m->height;
	s->r[DISPI_BPP] = 32;
	s->r[DISPI_ENABLE] = DISPI_ENABLED | DISPI_LFB_ENABLED;
	s->r[DISPI_VIRT_WIDTH] = (u16)(m->pitch / 4);
	s->r[DISPI_VIRT_HEIGHT] = (u16)(2 * m->height);
	s->r[DISPI_Y_OFFSET] = m->yoff;
	s->ar_index = VGA_AR_PAS;		/* not blanked */
}

__ekdb_nobp void dispi_set_yoff(const struct bochs_dev *d, u16 yoff)
{
	dispi_write(d, DISPI_Y_OFFSET, yoff);
}

/**
 * bochs_kms_modeset - program @m and clear both of its pages.
 *
 * The debugger may stop anywhere in here (a breakpoint, an NMI): its
 * display hook saves the registers as they are, shows its console and
 * puts them back on leave, so the modeset then goes on where it was
 * (tests/integration/test_kms.py plants a breakpoint here).
 */
int bochs_kms_modeset(const struct kms_mode *m)
{
	struct dispi_regs regs;
	size_t page = (size_t)m->pitch * m->height;

	if (2 * page > bochs.vram || 2 * page > bochs.fb_size)
		return -EKDB_ERANGE;
	bochs.in_modeset = true;
	dispi_regs_for(m, &regs);
	dispi_load(&bochs, &regs);
	memset(bochs.fb, 0, 2 * page);
	bochs.mode = *m;
	bochs.mode_set = true;
	bochs.in_modeset = false;
	return 0;
}

static int probe(void)
{
	u64 mmio_phys = 0, mmio_size = 0;
	u16 cmd;

	if (!pci_find_device(BOCHS_VENDOR, BOCHS_DEVICE, &bochs.bdf)) {
		if (ekdb_io_wanted("kms"))
			pr_err("kms: kgdboc=kms: no std VGA (PCI 1234:1111) on this machine: the "
			       "debugger has no kms screen (the firmware's framebuffer, if any, "
			       "stays)\n");
		else
			pr_info("kms: no std VGA (PCI 1234:1111): no kms display\n");
		return -EKDB_ENODEV;
	}
	if (!pci_bar(bochs.bdf, 0, &bochs.fb_phys, &bochs.fb_size)) {
		pr_err("kms: std VGA at %02x:%02x.%u has no framebuffer BAR\n",
		       bochs.bdf >> 8, (bochs.bdf >> 3) & 31, bochs.bdf & 7);
		return -EKDB_ENODEV;
	}
	cmd = pci_read16(bochs.bdf, PCI_COMMAND);
	pci_write16(bochs.bdf, PCI_COMMAND, (u16)(cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_IO));
	bochs.fb = ioremap(bochs.fb_phys, bochs.fb_size);
	if (pci_bar(bochs.bdf, 2, &mmio_phys, &mmio_size) && mmio_size >= 0x1000)
		bochs.mmio = ioremap(mmio_phys, mmio_size);
	if (!bochs.fb) {
		pr_err("kms: framebuffer at 0x%llx is outside the direct map\n",
		       (unsigned long long)bochs.fb_phys);
		return -EKDB_ENODEV;
	}
	bochs.id = dispi_read(&bochs, DISPI_ID);
	if ((bochs.id & 0xfff0) != DISPI_ID0) {
		pr_err("kms: std VGA answers DISPI id 0x%04x, not a Bochs DISPI: left alone\n",
		       bochs.id);
		return -EKDB_ENODEV;
	}
	bochs.vram = (u32)dispi_read(&bochs, DISPI_VIDEO_MEMORY_64K) * 65536u;
	if (!bochs.vram || bochs.vram > bochs.fb_size)
		bochs.vram = (u32)bochs.fb_size;
	dispi_save(&bochs, &bochs.boot);
	return 0;
}

static void choose_mode(struct kms_mode *m)
{
	const char *video = cmdline_get("video");
	u16 w = DEFAULT_W, h = DEFAULT_H;

	if (video) {
		int err = video_mode_parse(video, &w, &h);

		if (!err && 2ULL * w * 4 * h > bochs.vram)
			err = -EKDB_ENOMEM;
		if (err) {
			pr_err("kms: video=%s: %s; using %ux%u\n", video,
			       err == -EKDB_EINVAL ? "not a mode (WxH[-32][@Hz])" :
			       err == -EKDB_ENOMEM ? "two pages of it do not fit in video memory" :
			       "unsupported (320x200..2560x1600, width a multiple of 8, 32 bpp)",
			       DEFAULT_W, DEFAULT_H);
			w = DEFAULT_W;
			h = DEFAULT_H;
		}
	}
	m->width = w;
	m->height = h;
	m->pitch = (u32)w * 4;
	m->yoff = 0;
}

/**
 * bochs_kms_init - the display driver's start, after the debugger's
 * handoff (allocators up): take the screen if it is QEMU's std VGA.
 */
void bochs_kms_init(void)
{
	struct kms_mode m;
	int err;

	if (cmdline_has("nomodeset")) {
		pr_info("kms: nomodeset: the firmware's framebuffer stays\n");
		return;
	}
	err = probe();
	if (err)
		return;
	choose_mode(&m);
	err = kms_console_prepare(&m);
	if (err) {
		pr_err("kms: no memory for the console (%d): the firmware's framebuffer stays\n", err);
		return;
	}
	kms_debug_init();		/* the debugger's hooks: from here on it may stop anywhere */
	err = bochs_kms_modeset(&m);
	if (err) {
		pr_err("kms: cannot set %ux%u (%d)\n", m.width, m.height, err);
		kms_debug_exit();
		return;
	}
	kms_console_take_over();
	pr_info("kms: bochs-drm %02x:%02x.%u (DISPI 0x%04x, %u MiB): %ux%ux32 at 0x%llx, "
		"debugger page at line %u%s\n", bochs.bdf >> 8, (bochs.bdf >> 3) & 31, bochs.bdf & 7,
		bochs.id, bochs.vram >> 20, m.width, m.height, (unsigned long long)bochs.fb_phys,
		m.height, kms_debug_registered() ? " (kgdboc kms)" : "");
}
