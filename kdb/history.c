/* SPDX-License-Identifier: GPL-2.0 */
/* history.c - a fixed ring of the last KDB_HISTORY command lines, browsed with up/down. */
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
	s->hist_next = (s->hist_next + 1) % KDB_HISTORY;
	if (s->hist_count < KDB_HISTORY)
		s->hist_count++;
}

/** kdb_hist_get - the @back'th previous line (0 = newest), or NULL. */
const char *kdb_hist_get(const struct kdb_session *s, unsigned back)
{
	if (back >= s->hist_count)
		return NULL;
	return s->hist[(s->hist_next + KDB_HISTORY - 1 - back) % KDB_HISTORY];
}
