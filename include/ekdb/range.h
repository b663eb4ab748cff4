/* SPDX-License-Identifier: GPL-2.0 */
/*
 * range.h - address ranges a user names (gdb "m addr,len", kdb "md addr
 * count", a watchpoint's address and length).  A range is @len bytes from
 * @addr; it may end exactly at the top of the address space (2^64) but
 * never continues at address 0: every debugger access refuses a range
 * that wraps, before touching memory.
 */
#ifndef EKDB_RANGE_H
#define EKDB_RANGE_H

#include <ekdb/types.h>

/** ekdb_range_wraps - true if [@addr, @addr + @len) runs past 2^64. */
static inline bool ekdb_range_wraps(u64 addr, u64 len)
{
	return len && addr + (len - 1) < addr;
}

/*
 * ekdb_range_overlaps - true if [@addr, @addr + @len) and [@start, @end)
 * share a byte.  @len may reach the top (addr + len == 2^64); a range
 * that wraps is the caller's to refuse first.
 */
static inline bool ekdb_range_overlaps(u64 addr, u64 len, u64 start, u64 end)
{
	return len && start < end && addr < end && addr + (len - 1) >= start;
}

#endif
