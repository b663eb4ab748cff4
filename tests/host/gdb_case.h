/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gdb_case.h - kgdbts-style tables of {request, expected reply} run
 * against the sim target (test_gdb_cmds.c, test_gdb_plain.c).
 */
#ifndef TESTS_HOST_GDB_CASE_H
#define TESTS_HOST_GDB_CASE_H

#include "gdb_test_util.h"

struct gdb_case {
	const char *req;
	const char *want;	/* exact reply; a trailing '*' matches a prefix */
};

static inline void run_table(struct gt *g, const struct gdb_case *c, size_t n)
{
	size_t i, l;
	const char *r;

	for (i = 0; i < n; i++) {
		r = gt_ask(g, c[i].req);
		if (!r)
			fail_msg("no reply to \"%s\"", c[i].req);
		l = strlen(c[i].want);
		if (l && c[i].want[l - 1] == '*') {
			if (strncmp(r, c[i].want, l - 1))
				fail_msg("\"%s\": got \"%s\", want prefix \"%s\"", c[i].req, r, c[i].want);
		} else if (strcmp(r, c[i].want)) {
			fail_msg("\"%s\": got \"%s\", want \"%s\"", c[i].req, r, c[i].want);
		}
	}
}

#define RUN(g, tab) run_table(g, tab, sizeof(tab) / sizeof(tab[0]))

#endif
