/* SPDX-License-Identifier: GPL-2.0 */
/* hex.c - hex <-> bytes conversion and gdb binary escaping, kernel and host. */
#include <ekdb/hex.h>
#include <ekdb/parse.h>
#include <ekdb/errno.h>

static const char hex_digits[] = "0123456789abcdef";

char hex_digit(unsigned v)
{
	return hex_digits[v & 0xf];
}

/* The table inline, no call per digit: gdb's memory reads are all hex (m). */
size_t hex_encode(char *dst, const void *src, size_t n)
{
	const u8 *s = src;
	size_t i;

	for (i = 0; i < n; i++) {
		dst[2 * i] = hex_digits[s[i] >> 4];
		dst[2 * i + 1] = hex_digits[s[i] & 0xf];
	}
	return 2 * n;
}

long hex_decode(void *dst, const char *src, size_t nchars)
{
	u8 *d = dst;
	size_t i;

	if (nchars & 1)
		return -EKDB_EINVAL;
	for (i = 0; i < nchars; i += 2) {
		int hi = hex_val((unsigned char)src[i]);
		int lo = hex_val((unsigned char)src[i + 1]);

		if (hi < 0 || lo < 0)
			return -EKDB_EINVAL;
		d[i / 2] = (u8)(hi << 4 | lo);
	}
	return (long)(nchars / 2);
}

int hex_parse_u64(const char **p, u64 *out)
{
	const char *s = *p;
	u64 v = 0;
	int d;

	if (hex_val((unsigned char)*s) < 0)
		return -EKDB_EINVAL;
	while ((d = hex_val((unsigned char)*s)) >= 0) {
		if (v >> 60)
			return -EKDB_ERANGE;
		v = v << 4 | (u64)d;
		s++;
	}
	*p = s;
	*out = v;
	return 0;
}

static bool bin_needs_escape(u8 c)
{
	return c == '$' || c == '#' || c == HEX_ESCAPE_CHAR || c == '*';
}

size_t bin_escape(char *dst, size_t cap, const u8 *src, size_t n, size_t *consumed)
{
	size_t in = 0, out = 0;

	while (in < n) {
		u8 c = src[in];

		if (bin_needs_escape(c)) {
			if (out + 2 > cap)
				break;
			dst[out++] = HEX_ESCAPE_CHAR;
			dst[out++] = (char)(c ^ HEX_ESCAPE_XOR);
		} else {
			if (out + 1 > cap)
				break;
			dst[out++] = (char)c;
		}
		in++;
	}
	if (consumed)
		*consumed = in;
	return out;
}

long bin_unescape(u8 *dst, const char *src, size_t n)
{
	size_t in = 0, out = 0;

	while (in < n) {
		u8 c = (u8)src[in++];

		if (c == HEX_ESCAPE_CHAR) {
			if (in == n)
				return -EKDB_EINVAL;
			c = (u8)src[in++] ^ HEX_ESCAPE_XOR;
		}
		dst[out++] = c;
	}
	return (long)out;
}
