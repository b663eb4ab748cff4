/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debug_port.c - the reference kernel's porting interface (<ekdb/port.h>)
 * as it is from the start of setup_arch(): the log, the consoles and where
 * physical memory is reached.  The early debugger uses these, so this file
 * and what it reaches are part of tools/check-early.sh's allocator-free
 * link (tools/check-early.allow).  The rest comes with debug_glue.c.
 */
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <asm/processor.h>
#include <ekdb/bootinfo.h>
#include <ekdb/ekdb.h>
#include <ekdb/port.h>
#include "debug_port.h"

#define IDENTITY_LIMIT	(4ULL << 30)	/* the loader's identity map */
#define CR3_ADDR	0x000ffffffffff000ULL

/*
 * Where the CPU reaches physical memory now: earlyprintk= is parsed while
 * the loader's identity map of 0..4 GiB is live; init_mem_mapping() then
 * switches to the kernel's tables, where it is at __va(phys).  The screen
 * console asks at every sync, maybe with the machine stopped.
 */
__ekdb_nobp void *glue_map_phys(u64 phys, u64 len)
{
	if ((read_cr3() & CR3_ADDR) == (boot_params.loader_pml4 & CR3_ADDR))
		return phys + len <= IDENTITY_LIMIT ? (void *)(uintptr_t)phys : NULL;
	return __va(phys);
}

__ekdb_nobp const struct ekdb_framebuffer *glue_framebuffer(void)
{
	return &boot_params.fb;
}

static const struct ekdb_port_ops kernel_boot_port = {
	DEBUG_PORT_BOOT_SERVICES,
};

/* First thing in setup_arch(): earlyprintk= registers the early consoles. */
void debug_glue_boot(void)
{
	ekdb_set_port(&kernel_boot_port);
}
