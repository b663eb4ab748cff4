/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ekdbts_wire.c - the pure part of the self-test's scripted gdb: the
 * ekdbts= syntax, run-length decoding and stop-reply fields.  No state;
 * built for the kernel and for the host tests (tests/host/test_ekdbts.c).
 */
#include "ekdbts.h"
#include <ekdb/errno.h>
#include <ekdb/parse.h>
#include <ekdb/string.h>

static int count_after(const char **p, unsigned *out)
{
	u64 n = 0;
	const char *s = *p;

	if (!isdigit(*s))
		return -1;
	while (isdigit(*s)) {
		n = n * 10 + (u64)(*s++ - '0');
		if (n > EKDBTS_MAX_COUNT)
			return -1;
	}
	if (!n)
		return -1;
	*out = (unsigned)n;
	*p = s;
	return 0;
}

int ekdbts_parse(const char *v, struct ekdbts_opts *o, const char **why)
{
	unsigned seen = 0;

	memset(o, 0, sizeof(*o));
	*why = "empty value";
	if (!v || !*v)
		return -EKDB_EINVAL;
	while (*v) {
		char c = *v++;
		unsigned bit;

		switch (c) {
		case 'V': bit = 1; break;
		case 'F': bit = 2; break;
		case 'S': case 'I': bit = 4; break;
		case 'E': bit = 8; break;
		case 'X': bit = 16; break;
		case 'N':
			*why = "N (NMI sleep test) is not supported";
			return -EKDB_EINVAL;
		default:
			*why = "unknown letter (V1|V2, F<N>, S<N>|I<N>, E, X)";
			return -EKDB_EINVAL;
		}
		if (seen & bit) {
			*why = "a letter given twice";
			return -EKDB_EINVAL;
		}
		seen |= bit;
		switch (c) {
		case 'V':
			if (*v != '1' && *v != '2') {
				*why = "V needs 1 or 2";
				return -EKDB_EINVAL;
			}
			o->verbose = (unsigned)(*v++ - '0');
			break;
		case 'F':
			if (count_after(&v, &o->fork_iters)) {
				*why = "F needs a count of 1 to 1000000";
				return -EKDB_EINVAL;
			}
			break;
		case 'S': case 'I':
			if (count_after(&v, &o->step_iters)) {
				*why = "S needs a count of 1 to 1000000";
				return -EKDB_EINVAL;
			}
			break;
		case 'E': o->early = true; break;
		default: o->plant = true; break;
		}
	}
	if (!(seen & 15)) {
		*why = "nothing to run (V1, F<N>, S<N> or E)";
		return -EKDB_EINVAL;
	}
	*why = NULL;
	return 0;
}

long ekdbts_rle_expand(const char *in, size_t n, char *out, size_t cap)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (in[i] == '*') {
			unsigned reps;

			if (!o || i + 1 >= n)
				return -1;
			reps = (unsigned)(u8)in[++i];
			if (reps < 3 + 29 || reps > 126)
				return -1;
			reps -= 29;
			if (o + reps >= cap)
				return -1;
			memset(out + o, out[o - 1], reps);
			o += reps;
			continue;
		}
		if (o + 1 >= cap)
			return -1;
		out[o++] = in[i];
	}
	out[o] = '\0';
	return (long)o;
}

const char *ekdbts_stop_field(const char *reply, const char *key, size_t *len)
{
	size_t klen = strlen(key);
	const char *p;

	if (reply[0] != 'T' || strlen(reply) < 3)
		return NULL;
	for (p = reply + 3; *p; ) {
		const char *colon = strchr(p, ':'), *semi;

		if (!colon)
			return NULL;
		semi = strchr(colon, ';');
		if (!semi)
			return NULL;
		if ((size_t)(colon - p) == klen && !strncmp(p, key, klen)) {
			*len = (size_t)(semi - colon - 1);
			return colon + 1;
		}
		p = semi + 1;
	}
	return NULL;
}

int ekdbts_stop_hex(const char *reply, const char *key, u64 *v)
{
	size_t len;
	const char *f = ekdbts_stop_field(reply, key, &len);
	u64 n = 0;

	if (!f || !len || len > 16)
		return -1;
	for (size_t i = 0; i < len; i++) {
		int d = hex_val(f[i]);

		if (d < 0)
			return -1;
		n = n << 4 | (u64)d;
	}
	*v = n;
	return 0;
}

int ekdbts_stop_reg(const char *reply, unsigned regno, u64 *v)
{
	static const char digits[] = "0123456789abcdef";
	char key[3] = { digits[(regno >> 4) & 15], digits[regno & 15], 0 };
	size_t len;
	const char *f = ekdbts_stop_field(reply, key, &len);
	u64 n = 0;

	if (!f || len != 16)
		return -1;
	for (int i = 7; i >= 0; i--) {	/* little endian: the last byte is the top one */
		int hi = hex_val(f[2 * i]), lo = hex_val(f[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		n = n << 8 | (u64)(hi << 4 | lo);
	}
	*v = n;
	return 0;
}
