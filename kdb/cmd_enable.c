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

/*
 * kdb_parse_cmd_enable_int - the run-time form (Linux's kdb module
 * parameter is an int: param_set_int, i.e. kstrtoint(val, 0)): an optional
 * sign, "0x" hex, "0" octal or decimal, one trailing newline, and the
 * value must fit an int.  -EKDB_EINVAL for anything else, -EKDB_ERANGE
 * when it does not fit (as kstrtoint).
 */
int kdb_parse_cmd_enable_int(const char *val, int *out)
{
	const char *p = val;
	bool neg = false;
	unsigned base = 10, digits = 0;
	u64 v = 0;
	bool range = false;

	if (!p)
		return -EKDB_EINVAL;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    ((p[2] >= '0' && p[2] <= '9') || ((p[2] | 0x20) >= 'a' && (p[2] | 0x20) <= 'f'))) {
		base = 16;
		p += 2;
	} else if (p[0] == '0') {
		base = 8;
	}
	for (; *p && *p != '\n'; p++) {
		unsigned d;
		char c = (char)(*p | 0x20);

		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else
			return -EKDB_EINVAL;
		if (d >= base)
			return -EKDB_EINVAL;
		if (v > (0xffffffffffffffffull - d) / base)
			range = true;
		else
			v = v * base + d;
		digits++;
	}
	if (!digits || (*p == '\n' && p[1]))
		return -EKDB_EINVAL;
	if (range || v > (neg ? 0x80000000ull : 0x7fffffffull))
		return -EKDB_ERANGE;
	*out = neg ? (int)(0 - v) : (int)v;
	return 0;
}
