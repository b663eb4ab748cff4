/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mem.c - every memory access made for a debugger user: fault-safe reads,
 * and writes that also work on read-only kernel text.  While stopped,
 * breakpoints are out of memory, so reads show the original bytes.
 */
#include "debug_core.h"
#include <asm/fixup.h>
#include <asm/text_poke.h>
#include <ekdb/errno.h>

long dbg_mem_read(u64 addr, void *buf, size_t len)
{
	size_t n = x86_probe_read(buf, addr, len);

	return n || !len ? (long)n : -EKDB_EFAULT;
}

extern char __ekdb_text_start[], __ekdb_text_end[];

/*
 * Writes into the debugger's own code are refused, as breakpoints there
 * are: an int3 written by hand with M would dodge the Z refusal.
 */
long dbg_mem_write(u64 addr, const void *buf, size_t len)
{
	size_t n;

	if (len && addr < (u64)__ekdb_text_end && addr + len > (u64)__ekdb_text_start)
		return -EKDB_EPERM;
	n = x86_probe_write(addr, buf, len);

	/* read-only mapping (kernel text, rodata): retry in a CR0.WP window */
	if (n < len)
		n += x86_text_poke(addr + n, (const u8 *)buf + n, len - n);
	return n || !len ? (long)n : -EKDB_EFAULT;
}
