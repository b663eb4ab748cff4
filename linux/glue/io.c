// SPDX-License-Identifier: GPL-2.0
/*
 * Where ekdb's early drivers reach the machine on Linux (docs/linux.md):
 * the screen the firmware left (struct ekdb_port_ops.framebuffer, from
 * Linux's screen_info, which the EFI stub filled from the GOP), memory
 * Linux has not mapped (map_phys: the framebuffer) and device registers
 * (map_io: the EHCI and xHCI BARs of the USB debug ports, a PCI UART's).
 *
 * ekdb asks again whenever the page tables change (and the screen console
 * at every redraw), maybe with the machine stopped: nothing here takes a
 * lock or allocates.  The three lifetimes:
 *
 *  - early (setup_arch() before init_mem_mapping(), CR3 = early_top_pgt):
 *    Linux's early page-fault handler maps any physical address at
 *    __va(phys) on first touch (early_make_pgtable(), as Linux reaches
 *    boot_params and the command line), so the framebuffer is __va();
 *  - between init_mem_mapping() and the initcalls: the direct map holds
 *    RAM only and ioremap() does not work yet: no framebuffer (a stop
 *    there keeps the text and draws it at the next stop that can);
 *  - from early_initcall() on: the framebuffer memremap()ed write-combined,
 *    once, if ekdb drew on it (as Linux's efifb earlycon does).
 *
 * Device registers go into fixmap slots of ekdb's own (FIX_EKDB_IO_BEGIN..,
 * uncached, as Linux's EHCI debug port uses FIX_DBGP_BASE): the same
 * address in every page table from setup_arch() on, for good.
 */
#include <linux/init.h>
#include <linux/io.h>
#include <linux/kprobes.h>
#include <linux/screen_info.h>
#include <asm/fixmap.h>
#include <asm/page.h>
#include <asm/pgtable.h>
#include <asm/tlbflush.h>

#include <ekdb/ekdb.h>
#include <ekdb/framebuffer.h>
#include <ekdb/port.h>

#include "glue.h"

/* ---------------------------------------------------------------- the screen */

static struct ekdb_framebuffer ekdb_fb;
static bool ekdb_fb_known;
static bool ekdb_fb_drawn;		/* ekdb asked to reach it: remap it later */
static void *ekdb_fb_late;		/* memremap()ed, from early_initcall() on */

static u32 ekdb_mask(u8 size, u8 pos)
{
	return size >= 32 ? ~0u : ((1u << size) - 1) << pos;
}

static void ekdb_fb_from_screen_info(struct ekdb_framebuffer *fb)
{
	const struct screen_info *si = &screen_info;
	u64 base = si->lfb_base;

	if (si->orig_video_isVGA != VIDEO_TYPE_EFI || si->lfb_depth != 32)
		return;			/* no GOP framebuffer (ekdb draws 32 bpp only) */
	if (si->capabilities & VIDEO_CAPABILITY_64BIT_BASE)
		base |= (u64)si->ext_lfb_base << 32;
	if (!base || !si->lfb_width || !si->lfb_height || !si->lfb_linelength)
		return;
	fb->base = base;
	fb->width = si->lfb_width;
	fb->height = si->lfb_height;
	fb->pitch = si->lfb_linelength;
	fb->size = max_t(u64, si->lfb_size, (u64)fb->pitch * fb->height);
	fb->bpp = si->lfb_depth;
	fb->red_mask = ekdb_mask(si->red_size, si->red_pos);
	fb->green_mask = ekdb_mask(si->green_size, si->green_pos);
	fb->blue_mask = ekdb_mask(si->blue_size, si->blue_pos);
	fb->reserved_mask = ekdb_mask(si->rsvd_size, si->rsvd_pos);
	if (fb->red_mask == 0xff && fb->green_mask == 0xff00 && fb->blue_mask == 0xff0000)
		fb->format = EKDB_FB_RGBX8;
	else if (fb->blue_mask == 0xff && fb->green_mask == 0xff00 && fb->red_mask == 0xff0000)
		fb->format = EKDB_FB_BGRX8;
	else
		fb->format = EKDB_FB_BITMASK;
}

/* screen_info is Linux's copy of boot_params' from the start of setup_arch() */
const struct ekdb_framebuffer *ekdb_linux_framebuffer(void)
{
	if (!ekdb_fb_known) {
		ekdb_fb_from_screen_info(&ekdb_fb);
		ekdb_fb_known = true;
	}
	return ekdb_fb.format != EKDB_FB_NONE ? &ekdb_fb : NULL;
}
NOKPROBE_SYMBOL(ekdb_linux_framebuffer);

/* set at early_initcall(): head_64.S's tables are long gone (their page is freed later) */
static bool ekdb_early_tables_gone;

/* CR3 is still head_64.S's: the early #PF handler maps __va() on demand. */
static bool __ref ekdb_linux_early_tables(void)
{
	return !ekdb_early_tables_gone && read_cr3_pa() == __pa_symbol(early_top_pgt);
}
NOKPROBE_SYMBOL(ekdb_linux_early_tables);

/*
 * map_phys for what the direct map does not hold (port.c asks it first).
 * Early, any address: the USB drivers' DMA address walk reads the page
 * tables themselves (RAM the direct map does not have yet), the screen
 * console the framebuffer.
 */
void *ekdb_linux_map_unmapped(u64 phys, u64 len)
{
	const struct ekdb_framebuffer *fb = ekdb_linux_framebuffer();
	bool in_fb = fb && phys >= fb->base && phys + len <= fb->base + fb->size;

	if (in_fb)
		ekdb_fb_drawn = true;
	if (ekdb_linux_early_tables())
		return phys + len <= MAXMEM ? __va(phys) : NULL;
	if (in_fb && ekdb_fb_late)
		return ekdb_fb_late + (phys - fb->base);
	return NULL;
}
NOKPROBE_SYMBOL(ekdb_linux_map_unmapped);

/* From here on ioremap() works: map the screen ekdb drew on, for good. */
static int __init ekdb_linux_remap_screen(void)
{
	const struct ekdb_framebuffer *fb = ekdb_linux_framebuffer();

	ekdb_early_tables_gone = true;
	if (!(ekdb_linux_started || ekdb_linux_screen_lent) || !fb || !ekdb_fb_drawn)
		return 0;
	ekdb_fb_late = memremap(fb->base, fb->size, MEMREMAP_WC);
	if (!ekdb_fb_late)
		pr_warn("ekdb: cannot map the framebuffer at 0x%llx (%llu bytes): "
			"kdb is not drawn on the screen any more\n", fb->base, fb->size);
	return 0;
}
early_initcall(ekdb_linux_remap_screen);

/* ---------------------------------------------------------------- registers */

#define EKDB_IO_MAPS	4

/* a range of ekdb's fixmap slots: [slot, slot + pages) maps [phys, +pages) */
struct ekdb_io_slot {
	u64 phys;		/* page aligned */
	unsigned int pages;
	unsigned int slot;	/* first page after FIX_EKDB_IO_BEGIN */
};

static struct ekdb_io_slot ekdb_io_slots[EKDB_IO_MAPS];
static unsigned int ekdb_io_nslots, ekdb_io_used;

static void __iomem *ekdb_io_virt(const struct ekdb_io_slot *s, u64 phys)
{
	/* fixmap slots grow downwards: the range's first page is the highest index */
	return (void __iomem *)(__fix_to_virt(FIX_EKDB_IO_BEGIN + s->slot + s->pages - 1) +
				(phys - s->phys));
}
NOKPROBE_SYMBOL(ekdb_io_virt);

void *ekdb_linux_map_io(u64 phys, u64 len)
{
	u64 first = phys & PAGE_MASK;
	unsigned int pages, i;
	struct ekdb_io_slot *s;

	if (!len || phys + len < phys)
		return NULL;
	pages = (PAGE_ALIGN(phys + len) - first) >> PAGE_SHIFT;
	for (i = 0; i < ekdb_io_nslots; i++) {
		s = &ekdb_io_slots[i];
		if (first >= s->phys && first + ((u64)pages << PAGE_SHIFT) <=
		    s->phys + ((u64)s->pages << PAGE_SHIFT))
			return (void __force *)ekdb_io_virt(s, phys);
	}
	if (ekdb_io_nslots == EKDB_IO_MAPS ||
	    pages > FIX_EKDB_IO_END - FIX_EKDB_IO_BEGIN + 1 - ekdb_io_used)
		return NULL;
	s = &ekdb_io_slots[ekdb_io_nslots];
	s->phys = first;
	s->pages = pages;
	s->slot = ekdb_io_used;
	for (i = 0; i < pages; i++)
		set_fixmap_nocache(FIX_EKDB_IO_BEGIN + s->slot + pages - 1 - i,
				   first + ((u64)i << PAGE_SHIFT));
	ekdb_io_used += pages;
	ekdb_io_nslots++;
	return (void __force *)ekdb_io_virt(s, phys);
}
NOKPROBE_SYMBOL(ekdb_linux_map_io);
