/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_bootinfo.c - libFuzzer target: the boot-info record the loader
 * hands to the kernel entry (include/ekdb/bootinfo.h), through the
 * kernel's check (lib/bootinfo.c, bootinfo_check(); setup_arch.c stops
 * the boot with bad_bootinfo() when it fails) and, when accepted, what
 * the kernel does with it before any allocator: the command line copied
 * and split into words (lib/cmdline.c), the memory map into memblock
 * (kernel-glue/mm/memblock.c, memblock_init_from_bootinfo()), the table
 * indexes print_memory_map()/print_framebuffer() use, and the direct
 * map's end (kernel-glue/paging.c, map_direct()).
 *
 * The record lives in a heap buffer of exactly its size.  The first input
 * byte is a mode (bit 0: a valid header; bit 1: cmdline_len = strlen and
 * a memory map count in range; bit 2: memory map entries page aligned and
 * of a known type; bit 3: a 32 bpp framebuffer whose pitch fits), so
 * mutations reach past the early refusals; the rest is the record,
 * zero-filled when short.
 *
 * Properties of an accepted record (a failed one traps):
 *  - the command line ends at a NUL inside cmdline[] and is cmdline_len long;
 *  - every memory map entry is page aligned, does not wrap, has a known type;
 *  - the framebuffer's format indexes print_framebuffer()'s table, its
 *    lines fit in its size, and base + size does not wrap past 2^64;
 *  - memblock ends sorted, without overlaps or empty regions, every
 *    region inside what the map described (plus the low reserve).
 */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <ekdb/bootinfo_check.h>
#include <ekdb/cmdline.h>
#include <ekdb/string.h>
#include <kernel/mm.h>
#include "host_log.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char boot_command_line[EKDB_CMDLINE_MAX];

static void shape(struct ekdb_bootinfo *bi, unsigned mode)
{
	if (mode & 1) {
		bi->magic = EKDB_BOOTINFO_MAGIC;
		bi->version = EKDB_BOOTINFO_VERSION;
		bi->size = sizeof(*bi);
		bi->kernel_size |= 1;
		bi->kernel_phys &= ~0xfffULL;
		bi->kernel_virt &= ~0xfffULL;
		bi->kaslr_offset &= ~0x1fffffULL;
	}
	if (mode & 2) {
		bi->cmdline[EKDB_CMDLINE_MAX - 1] = 0;
		bi->cmdline_len = (uint32_t)strlen(bi->cmdline);
		bi->mmap_count = 1 + bi->mmap_count % EKDB_MMAP_MAX;
	}
	if (mode & 4) {
		for (unsigned i = 0; i < EKDB_MMAP_MAX; i++) {
			struct ekdb_mmap_entry *e = &bi->mmap[i];

			e->base &= ~0xfffULL;
			e->length &= ~0xfffULL;
			e->type = EKDB_MEM_USABLE + e->type % EKDB_MEM_BOOTDATA;
			if (e->base + e->length < e->base)
				e->length = -e->base;
		}
	}
	if (mode & 8) {
		bi->fb.bpp = 32;
		bi->fb.format %= EKDB_FB_VGA_TEXT + 1;
		if ((uint64_t)bi->fb.pitch < (uint64_t)bi->fb.width * 4)
			bi->fb.pitch = bi->fb.width * 4;
		if ((uint64_t)bi->fb.pitch * bi->fb.height > bi->fb.size)
			bi->fb.size = (uint64_t)bi->fb.pitch * bi->fb.height;
	}
}

/* The sorted, disjoint, non-empty regions memblock promises. */
static void check_type(const struct memblock_type *t, const struct ekdb_bootinfo *bi)
{
	CHECK(t->cnt <= MEMBLOCK_MAX_REGIONS);
	for (unsigned long i = 0; i < t->cnt; i++) {
		const struct memblock_region *r = &t->regions[i];
		bool covered = r->base < MEMBLOCK_LOW_RESERVE;

		CHECK(r->size && r->base + r->size > r->base);
		if (i)
			CHECK(t->regions[i - 1].base + t->regions[i - 1].size <= r->base);
		for (u32 j = 0; j < bi->mmap_count && !covered; j++)
			covered = r->base >= bi->mmap[j].base &&
				  r->base < bi->mmap[j].base + bi->mmap[j].length;
		CHECK(covered);
	}
}

static void consume(const struct ekdb_bootinfo *bi)
{
	static char scratch[EKDB_CMDLINE_MAX];
	char *cur = scratch, *name, *value;
	u64 end = 0, fb_end;

	/* setup_arch: copy_boot_params, print_banner, parse_early_param */
	CHECK(strnlen(bi->cmdline, EKDB_CMDLINE_MAX) == bi->cmdline_len);
	CHECK(strlcpy(boot_command_line, bi->cmdline, sizeof(boot_command_line)) == bi->cmdline_len);
	strlcpy(scratch, boot_command_line, sizeof(scratch));
	while (cmdline_next(&cur, &name, &value))
		CHECK(name >= scratch && name < scratch + EKDB_CMDLINE_MAX);
	/* print_memory_map, map_direct's ram_end */
	CHECK(bi->mmap_count >= 1 && bi->mmap_count <= EKDB_MMAP_MAX);
	for (u32 i = 0; i < bi->mmap_count; i++) {
		const struct ekdb_mmap_entry *e = &bi->mmap[i];

		CHECK(!((e->base | e->length) & 0xfff) && e->base + e->length >= e->base);
		CHECK(e->type >= EKDB_MEM_USABLE && e->type <= EKDB_MEM_BOOTDATA);
		if (e->type != EKDB_MEM_RESERVED && e->base + e->length > end)
			end = e->base + e->length;
	}
	/* print_framebuffer's fmt[] has EKDB_FB_VGA_TEXT + 1 entries; map_direct maps up to fb_end */
	CHECK(bi->fb.format <= EKDB_FB_VGA_TEXT);
	if (bi->fb.format != EKDB_FB_NONE && bi->fb.format != EKDB_FB_VGA_TEXT)
		CHECK((u64)bi->fb.pitch * bi->fb.height <= bi->fb.size && bi->fb.bpp == 32);
	fb_end = bi->fb.base + bi->fb.size;
	if (bi->fb.format != EKDB_FB_NONE)
		CHECK(fb_end >= bi->fb.base);
	CHECK(!(bi->kernel_phys & 0xfff) && !(bi->kernel_virt & 0xfff) && bi->kernel_size);
	/* setup_arch: memblock from the map, then what the direct map cannot reach removed */
	memblock_reset();
	log_clear();
	memblock_init_from_bootinfo(bi->mmap, bi->mmap_count);
	check_type(memblock_memory(), bi);
	check_type(memblock_reserved(), bi);
	(void)end;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ekdb_bootinfo *bi;

	if (!size)
		return 0;
	bi = malloc(sizeof(*bi));
	CHECK(bi);
	memset(bi, 0, sizeof(*bi));
	memcpy(bi, data + 1, size - 1 < sizeof(*bi) ? size - 1 : sizeof(*bi));
	shape(bi, data[0]);
	if (!bootinfo_check(bi))
		consume(bi);
	free(bi);
	return 0;
}
