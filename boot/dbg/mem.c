/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mem.c - the loader's address translation for the fault-safe accessors
 * (arch/x86/fixup.c, arch_dbg_probe_set_xlate): the debugger speaks the kernel
 * image's link addresses, the bytes are where the loader placed the image
 * (xlate.c).  Faults of the accessors go to the loader's IDT, then the
 * fixup table.
 */
#include "glue.h"
#include "xlate.h"
#include <asm/fixup.h>

static u64 ldr_probe_xlate(u64 addr, size_t len, size_t *chunk)
{
	struct ldr_xlate_map m;

	ldr_dbg_kernel_map(&m);
	return ldr_xlate(&m, addr, len, chunk);
}

/* ldr_mem_init - the debugger's memory accesses translate from now on. */
void ldr_mem_init(void)
{
	arch_dbg_probe_set_xlate(ldr_probe_xlate);
}
