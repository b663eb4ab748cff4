/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_enable.c - the kdb.cmd_enable=MASK value (Linux's KDB_ENABLE_*
 * classes, decimal or 0x hex, at most 32 bits).  Pure: the kernel's early
 * parameters and the loader's debugger options read it the same way.
 */
#include <ekdb/errno.h>
#include <ekdb/kdb.h>
#include <ekdb/parse.h>

int kdb_parse_cmd_enable(const char *val, u32 *mask)
{
	u64 v;

	if (!val || parse_u64(val, 0, &v) || v > 0xffffffffull)
		return -EKDB_EINVAL;
	*mask = (u32)v;
	return 0;
}
