/* SPDX-License-Identifier: GPL-2.0 */
/* argv.c - split a kdb command line into words: blanks separate, "double quotes" group. */
#include "kdb.h"

/**
 * kdb_tokenize - split @line in place into at most @max words.
 * A word in double quotes may hold blanks (the quotes are dropped; \"
 * inside is a quote).  Returns the number of words, -KDB_TOOMANYARGS when
 * there are more than @max, or -KDB_BADARG for an unterminated quote.
 */
int kdb_tokenize(char *line, const char **argv, int max)
{
	char *p = line, *w;
	int argc = 0;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p)
			return argc;
		if (argc == max)
			return -KDB_TOOMANYARGS;
		if (*p == '"') {
			w = ++p;
			argv[argc++] = w;
			while (*p && *p != '"') {
				if (*p == '\\' && p[1] == '"')
					p++;
				*w++ = *p++;
			}
			if (*p != '"')
				return -KDB_BADARG;
			p++;
			*w = 0;		/* over the closing quote or before it */
			continue;
		}
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			p++;
		if (*p)
			*p++ = 0;
	}
}
