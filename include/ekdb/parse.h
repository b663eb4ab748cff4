/* SPDX-License-Identifier: GPL-2.0 */
/* parse.h - number and token parsing shared by parameters, kdb and gdbstub (lib/parse.c). */
#ifndef EKDB_PARSE_H
#define EKDB_PARSE_H

#include <ekdb/types.h>

/*
 * parse_u64 - parse an unsigned number: "0x" prefix = hex, otherwise
 * @base (10 or 16; 0 = auto: 0x hex, leading 0 octal, else decimal).
 * The whole string must be consumed.  Returns 0 or -EKDB_EINVAL/-EKDB_ERANGE.
 */
int parse_u64(const char *s, unsigned base, u64 *out);
/* parse_u64_prefix - like parse_u64, but stops at the first non-digit; *end gets it. */
int parse_u64_prefix(const char *s, unsigned base, u64 *out, const char **end);
/* hex digit value or -1 */
int hex_val(int c);

#endif
