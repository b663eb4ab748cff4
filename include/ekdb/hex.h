/* SPDX-License-Identifier: GPL-2.0 */
/* hex.h - hex <-> bytes conversion and gdb binary escaping (lib/hex.c). */
#ifndef EKDB_HEX_H
#define EKDB_HEX_H

#include <ekdb/types.h>

/* The gdb remote protocol escape byte: '}' followed by the byte XOR 0x20. */
#define HEX_ESCAPE_CHAR	0x7d
#define HEX_ESCAPE_XOR	0x20

/** hex_digit - the lower-case hex digit for the low 4 bits of @v. */
char hex_digit(unsigned v);

/**
 * hex_encode - write 2 * @n lower-case hex digits for @n bytes of @src
 * into @dst (no terminating NUL).  Returns 2 * @n.
 */
size_t hex_encode(char *dst, const void *src, size_t n);

/**
 * hex_decode - decode @nchars hex digits from @src into @dst.
 * @nchars must be even.  Returns the byte count, or -EKDB_EINVAL on an odd
 * count or a non-hex character (@dst may then be partly written).
 * @dst may alias @src (decoding in place is safe: output trails input).
 */
long hex_decode(void *dst, const char *src, size_t nchars);

/**
 * hex_parse_u64 - parse a big-endian hex number at *@p (no "0x" prefix,
 * at least one digit) and advance *@p past it.  Returns 0,
 * -EKDB_EINVAL (no digit) or -EKDB_ERANGE (more than 64 bits).
 */
int hex_parse_u64(const char **p, u64 *out);

/**
 * bin_escape - escape @n bytes of @src for a gdb binary reply: '$', '#',
 * '}' and '*' become '}' + (byte ^ 0x20).  Writes at most @cap bytes to
 * @dst and never splits an escape pair.  *@consumed gets the number of
 * source bytes that fitted.  Returns the number of bytes written.
 */
size_t bin_escape(char *dst, size_t cap, const u8 *src, size_t n, size_t *consumed);

/**
 * bin_unescape - undo gdb binary escaping of @n bytes at @src into @dst
 * (may be the same buffer).  Returns the decoded length, or -EKDB_EINVAL
 * when the data ends in a lone '}'.
 */
long bin_unescape(u8 *dst, const char *src, size_t n);

#endif
