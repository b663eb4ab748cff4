/* SPDX-License-Identifier: GPL-2.0 */
/* init.c - mm_init(): memblock hands over to the page allocator, then kmalloc comes up. */

#include <ekdb/types.h>
#include <kernel/mm.h>
#include <kernel/printk.h>

/**
 * mm_init() - bring up the page allocator and kmalloc from memblock.
 *
 * start_kernel() calls this once, after setup_arch() has run
 * memblock_init_from_bootinfo() and built the direct map.  Prints the
 * memblock tables at KERN_DEBUG and one "Memory: ..." line at KERN_INFO.
 * Kept out of line so that "break mm_init" always works.
 */
__noinline void mm_init(void)
{
	u64 total_k = memblock_phys_mem_size() / SZ_1K;
	unsigned long avail_k;

	memblock_dump();
	page_alloc_init();
	kmalloc_init();

	avail_k = nr_free_pages() * (PAGE_SIZE / SZ_1K);
	printk(KERN_INFO "Memory: %luK/%luK available (%luK kernel image, %luK boot data, %luK reserved)\n",
	       avail_k, total_k, memblock_kernel_size() / SZ_1K,
	       memblock_bootdata_size() / SZ_1K, total_k > avail_k ? total_k - avail_k : 0);
}
