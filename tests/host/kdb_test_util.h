/* SPDX-License-Identifier: GPL-2.0 */
/* kdb_test_util.h - a kdb session over the sim target and a scripted channel, for the kdb host tests. */
#ifndef TESTS_KDB_TEST_UTIL_H
#define TESTS_KDB_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <ekdb/kdb.h>
#include "sim_target.h"
#include "sim_chan.h"
#include "../../kdb/kdb.h"	/* kdb_setenv */

struct kdb_fix {
	struct sim_target sim;
	struct sim_chan ch;
	struct kdb_session s;
	struct ekdb_resume r;
	char out[SIM_CHAN_OUT_MAX + 1];	/* output without '\r' */
};

static struct kdb_fix F;

static inline int kdb_fix_setup(void **state)
{
	sim_target_init(&F.sim, 2);
	sim_target_setup_frames(&F.sim);
	sim_chan_init(&F.ch);
	if (kdb_session_init(&F.s, &F.sim.t, &F.ch.chan))
		return -1;
	kdb_session_set_host(&F.s, &F.sim.host);
	return 0;
}

/* The same with LINES 10000: long outputs are checked whole (the pager has its own tests). */
static inline int kdb_fix_setup_unpaged(void **state)
{
	int r = kdb_fix_setup(state);

	kdb_setenv(&F.s, "LINES", "10000");
	return r;
}

static inline const char *kdb_fix_norm(void)
{
	size_t j = 0;

	for (size_t i = 0; i < F.ch.out_len; i++)
		if (F.ch.out[i] != '\r')
			F.out[j++] = F.ch.out[i];
	F.out[j] = 0;
	return F.out;
}

/* Run the session on @input (bytes, may hold NULs with @len) until EOF or a resume. */
static inline const char *kdb_run_bytes(const char *input, size_t len, enum ekdb_stop_reason why,
					bool announce)
{
	struct ekdb_stop stop = { .reason = why, .signal = 5, .thread = 1, .bp_index = -1,
				  .vector = -1 };

	sim_chan_clear_output(&F.ch);
	sim_chan_feed(&F.ch, input, len);
	F.r = kdb_session_run(&F.s, &stop, announce);
	return kdb_fix_norm();
}

static inline const char *kdb_run(const char *input)
{
	return kdb_run_bytes(input, strlen(input), EKDB_STOP_ENTRY, false);
}

/* Output of one command line, without the prompts and the echo. */
static inline const char *kdb_cmd(const char *line)
{
	static char in[1024];
	const char *o, *p;
	size_t n;

	snprintf(in, sizeof(in), "%s\n", line);
	o = kdb_run(in);
	/* skip "[0]kdb> line\n" */
	p = strchr(o, '\n');
	p = p ? p + 1 : o;
	memmove(F.out, p, strlen(p) + 1);
	/* drop the final prompt */
	n = strlen(F.out);
	if (n >= 8 && !strcmp(F.out + n - 8, "[0]kdb> "))
		F.out[n - 8] = 0;
	else if (n >= 8 && !strcmp(F.out + n - 8, "[1]kdb> "))
		F.out[n - 8] = 0;
	return F.out;
}

#define assert_has(hay, needle) do {						\
	const char *h_ = (hay), *n_ = (needle);					\
	if (!strstr(h_, n_))							\
		fail_msg("expected \"%s\" in:\n%s", n_, h_);			\
} while (0)
#define assert_hasnt(hay, needle) do {						\
	const char *h_ = (hay), *n_ = (needle);					\
	if (strstr(h_, n_))							\
		fail_msg("did not expect \"%s\" in:\n%s", n_, h_);		\
} while (0)

#endif
