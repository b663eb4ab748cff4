/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ekdbts.h - private to selftest/ekdbts*.c: the ekdbts= options and the pure
 * helpers of the scripted gdb (no state, host-testable).
 */
#ifndef CORE_EKDBTS_H
#define CORE_EKDBTS_H

#include <ekdb/types.h>

#define EKDBTS_MAX_COUNT	1000000u	/* F<N>, S<N>: at most this many iterations */

struct ekdbts_opts {
	unsigned verbose;	/* V1: the basic tests, V2: the same, every packet logged */
	unsigned fork_iters;	/* F<N>: breakpoint stress iterations (0: none) */
	unsigned step_iters;	/* S<N> (or Linux's I<N>): single-step stress iterations */
	bool early;		/* E: the early tests in setup_arch, and the handoff test */
	bool plant;		/* X: one test that must fail (checks the checker) */
};

/*
 * ekdbts_parse - "V1F100S50E": 0, or -EKDB_EINVAL with *@why set (unknown
 * letter, a letter twice, a count missing, 0 or over EKDBTS_MAX_COUNT,
 * nothing to run).  Letters: V1|V2, F<N>, S<N>|I<N>, E, X.
 */
int ekdbts_parse(const char *v, struct ekdbts_opts *o, const char **why);

/*
 * ekdbts_rle_expand - a reply payload with gdb's run-length encoding
 * ("c*N": N - 29 more copies of c) expanded into @out (NUL-terminated).
 * Returns the length, or -1 (a '*' with nothing before it, a count below
 * 3 + 29 or above 126, or @cap too small).
 */
long ekdbts_rle_expand(const char *in, size_t n, char *out, size_t cap);

/*
 * ekdbts_stop_field - the value of "@key:value;" in a T stop reply
 * ("T05thread:1;10:...;core:0;swbreak:;"): a pointer into @reply and
 * its length in *@len, or NULL.  Fields start after "Txx".
 */
const char *ekdbts_stop_field(const char *reply, const char *key, size_t *len);

/* The value of a hex field (watch:<addr>) as a number: 0 or -1. */
int ekdbts_stop_hex(const char *reply, const char *key, u64 *v);

/* Expedited register @regno ("10:<16 hex digits, little endian>;") of a stop reply: 0 or -1. */
int ekdbts_stop_reg(const char *reply, unsigned regno, u64 *v);

#endif
