/* SPDX-License-Identifier: GPL-2.0 */
/*
 * history.c - a ring of the last command lines, browsed with up/down.
 * The ring starts in the session (KDB_HISTORY_EARLY lines, what early
 * storage affords) and grows to KDB_HISTORY at the handoff.
 */
#include "kdb.h"

/**
 * kdb_hist_add - remember @line (blank lines and a repeat of the newest
 * entry are not stored).  The oldest entry is dropped when full.
 */
void kdb_hist_add(struct kdb_session *s, const char *line)
{
	const char *p = line;

	while (*p == ' ')
		p++;
	if (!*p)
		return;
	if (s->hist_count && !strcmp(kdb_hist_get(s, 0), line))
		return;
	strlcpy(s->hist[s->hist_next], line, KDB_LINE_MAX);
	s->hist_next = (s->hist_next + 1) % s->hist_cap;
	if (s->hist_count < s->hist_cap)
		s->hist_count++;
}

/** kdb_hist_get - the @back'th previous line (0 = newest), or NULL. */
const char *kdb_hist_get(const struct kdb_session *s, unsigned back)
{
	if (back >= s->hist_count)
		return NULL;
	return s->hist[(s->hist_next + s->hist_cap - 1 - back) % s->hist_cap];
}

void kdb_hist_init(struct kdb_session *s)
{
	s->hist = s->hist_small;
	s->hist_cap = KDB_HISTORY_EARLY;
	s->hist_next = s->hist_count = 0;
}

int kdb_session_set_history(struct kdb_session *s, char (*buf)[KDB_LINE_MAX], unsigned cap)
{
	unsigned n = s->hist_count;

	if (!buf || cap < n || !cap)
		return -EKDB_EINVAL;
	/* oldest first into the new ring; the old ring may be @buf's neighbour, never @buf */
	for (unsigned i = 0; i < n; i++)
		memmove(buf[i], kdb_hist_get(s, n - 1 - i), KDB_LINE_MAX);
	s->hist = buf;
	s->hist_cap = cap;
	s->hist_next = n % cap;
	s->hist_count = n;
	return 0;
}
