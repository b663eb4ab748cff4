/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mem.c - the loader's fault-safe accessors: x86_probe_read/x86_probe_write
 * as the debug core calls them (asm/fixup.h), taking the kernel image's
 * link addresses to where the loader placed it (xlate.c), then the byte
 * accessors of arch/x86/fixup.c (built for the loader as ldr_probe_*_raw),
 * whose faults the loader's IDT sends to the fixup table.
 */
#include "glue.h"
#include "xlate.h"
#include <asm/fixup.h>

size_t ldr_probe_read_raw(void *dst, u64 src, size_t len);
size_t ldr_probe_write_raw(u64 dst, const void *src, size_t len);

size_t x86_probe_read(void *dst, u64 src, size_t len)
{
	struct ldr_xlate_map m;
	size_t done = 0;

	ldr_dbg_kernel_map(&m);
	while (done < len) {
		size_t chunk, n;
		u64 a = ldr_xlate(&m, src + done, len - done, &chunk);

		n = ldr_probe_read_raw((u8 *)dst + done, a, chunk);
		done += n;
		if (n < chunk)
			break;
	}
	return done;
}

size_t x86_probe_write(u64 dst, const void *src, size_t len)
{
	struct ldr_xlate_map m;
	size_t done = 0;

	ldr_dbg_kernel_map(&m);
	while (done < len) {
		size_t chunk, n;
		u64 a = ldr_xlate(&m, dst + done, len - done, &chunk);

		n = ldr_probe_write_raw(a, (const u8 *)src + done, chunk);
		done += n;
		if (n < chunk)
			break;
	}
	return done;
}
