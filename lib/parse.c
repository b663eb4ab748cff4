/* SPDX-License-Identifier: GPL-2.0 */
/* parse.c - number parsing shared by kernel parameters, kdb and gdbstub. */
#include <ekdb/parse.h>
#include <ekdb/errno.h>

int hex_val(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int parse_u64_prefix(const char *s, unsigned base, u64 *out, const char **end)
{
	u64 v = 0;
	int digits = 0;

	if (!s)
		return -EKDB_EINVAL;
	if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	} else if (base == 0) {
		base = (s[0] == '0' && s[1]) ? 8 : 10;
	}
	for (;; s++, digits++) {
		int d = hex_val(*s);

		if (d < 0 || (unsigned)d >= base)
			break;
		if (v > (UINT64_MAX - (u64)d) / base)
			return -EKDB_ERANGE;
		v = v * base + d;
	}
	if (end)
		*end = s;
	if (!digits)
		return -EKDB_EINVAL;
	*out = v;
	return 0;
}

int parse_u64(const char *s, unsigned base, u64 *out)
{
	const char *end;
	u64 v;
	int err = parse_u64_prefix(s, base, &v, &end);

	if (err)
		return err;
	if (*end)
		return -EKDB_EINVAL;
	*out = v;
	return 0;
}
