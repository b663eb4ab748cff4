/* SPDX-License-Identifier: GPL-2.0 */
/* bootinfo.c - validate the boot-info record the loader hands over. */
#include <ekdb/bootinfo_check.h>
#include <ekdb/string.h>

static const char *check_fb(const struct ekdb_framebuffer *fb)
{
	if (fb->format == EKDB_FB_NONE)
		return NULL;
	if (fb->format > EKDB_FB_VGA_TEXT)
		return "unknown framebuffer format";
	if (!fb->base || !fb->width || !fb->height || !fb->pitch)
		return "framebuffer with zero base or size";
	if (fb->base + fb->size < fb->base)
		return "framebuffer wraps past the top of the address space";
	if (fb->format == EKDB_FB_VGA_TEXT)
		return NULL;
	if (fb->bpp != 32)
		return "framebuffer bpp is not 32";
	if ((u64)fb->pitch < (u64)fb->width * 4)
		return "framebuffer pitch smaller than a line";
	if ((u64)fb->pitch * fb->height > fb->size)
		return "framebuffer larger than its size";
	if (fb->format == EKDB_FB_BITMASK && (!fb->red_mask || !fb->green_mask || !fb->blue_mask))
		return "framebuffer bitmask format without masks";
	return NULL;
}

const char *bootinfo_check(const struct ekdb_bootinfo *bi)
{
	if (!bi)
		return "no boot-info record";
	if (bi->magic != EKDB_BOOTINFO_MAGIC)
		return "bad boot-info magic";
	if (bi->version != EKDB_BOOTINFO_VERSION)
		return "unsupported boot-info version";
	if (bi->size != sizeof(*bi))
		return "boot-info size mismatch";
	if (strnlen(bi->cmdline, EKDB_CMDLINE_MAX) >= EKDB_CMDLINE_MAX)
		return "command line not terminated";
	if (strlen(bi->cmdline) != bi->cmdline_len)
		return "command line length mismatch";
	if (bi->mmap_count == 0 || bi->mmap_count > EKDB_MMAP_MAX)
		return "memory map count out of range";
	for (u32 i = 0; i < bi->mmap_count; i++) {
		const struct ekdb_mmap_entry *e = &bi->mmap[i];

		if ((e->base | e->length) & 0xfff)
			return "memory map entry not page aligned";
		if (e->base + e->length < e->base)
			return "memory map entry wraps";
		if (e->type < EKDB_MEM_USABLE || e->type > EKDB_MEM_BOOTDATA)
			return "memory map entry of unknown type";
	}
	if (!bi->kernel_size || (bi->kernel_phys & 0xfff) || (bi->kernel_virt & 0xfff))
		return "kernel placement not page aligned";
	if (bi->kaslr_offset & 0x1fffff)
		return "KASLR offset not a multiple of 2 MiB";
	return check_fb(&bi->fb);
}
