/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mem.c - every memory access made for a debugger user: fault-safe reads,
 * and writes that also work on read-only kernel text.  While stopped,
 * breakpoints are out of memory, so reads show the original bytes.
 * A range that runs past 2^64 is refused whole (-EKDB_ERANGE): an access
 * never continues at address 0.
 */
#include "debug_core.h"
#include <ekdb/errno.h>
#include <ekdb/range.h>

long dbg_mem_read(u64 addr, void *buf, size_t len)
{
	size_t n;

	if (ekdb_range_wraps(addr, len))
		return -EKDB_ERANGE;
	n = arch_dbg_probe_read(buf, addr, len);
	return n || !len ? (long)n : -EKDB_EFAULT;
}

/*
 * Writes into the debugger itself are refused (-EKDB_EPERM), as
 * breakpoints and watchpoints there are: its code (an int3 written by hand
 * with M would dodge the Z refusal) and its data and bss (gdb's `set var
 * roundup_active = 0` while stopped would break the stop it is part of).
 * Reads stay allowed.
 */
long dbg_mem_write(u64 addr, const void *buf, size_t len)
{
	size_t n;

	if (ekdb_range_wraps(addr, len))
		return -EKDB_ERANGE;
	if (len && dbg_addr_is_debugger(addr, len))
		return -EKDB_EPERM;
	n = arch_dbg_probe_write(addr, buf, len);

	/* read-only mapping (kernel text, rodata): retry in a CR0.WP window */
	if (n < len)
		n += arch_dbg_text_poke(addr + n, (const u8 *)buf + n, len - n);
	return n || !len ? (long)n : -EKDB_EFAULT;
}
