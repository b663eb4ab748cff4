/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xlate.h - debugger addresses in the loader: the kernel image is not
 * mapped at its link address in the firmware's page tables (the firmware
 * maps physical memory 1:1); it sits at kernel_phys.  A debugger access to
 * [kernel_virt, kernel_virt + kernel_size) goes to the same offset from
 * kernel_phys; anything else is used as it is (identity).  Pure, host-tested.
 */
#ifndef BOOT_DBG_XLATE_H
#define BOOT_DBG_XLATE_H

#include <stddef.h>
#include <stdint.h>

struct ldr_xlate_map {
	uint64_t virt, phys, size;	/* size 0: no kernel placed yet */
};

/*
 * ldr_xlate - where to access @addr, and how many of the @len bytes from
 * it lie in the same region (so a range that crosses the image's edge is
 * split): returns the address to use, *@chunk in 1..@len (0 when @len is 0).
 */
uint64_t ldr_xlate(const struct ldr_xlate_map *m, uint64_t addr, size_t len, size_t *chunk);

/* Is [@addr, @addr + @len) inside the kernel image's link range? */
int ldr_xlate_in_kernel(const struct ldr_xlate_map *m, uint64_t addr, uint64_t len);

#endif
