/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_defcmd.c - defcmd NAME "usage" "help" ... endefcmd: command macros.
 * Bodies live in the session's fixed pool (KDB_DEFCMD_POOL bytes, kept
 * compact when a macro is redefined); nothing is allocated.  A body line
 * starting with '-' ignores that command's errors.
 */
#include "kdb.h"

#define KDB_DEFCMD_DEPTH	4	/* macros calling macros */

int kdb_defcmd_lookup(const struct kdb_session *s, const char *name)
{
	for (int i = 0; i < KDB_MAX_DEFCMD; i++)
		if (s->defs[i].used && !strcmp(s->defs[i].name, name))
			return i;
	return -1;
}

/* Remove macro @i and close the gap its body left in the pool. */
static void defcmd_delete(struct kdb_session *s, int i)
{
	struct kdb_defcmd *d = &s->defs[i];
	size_t end = (size_t)d->start + d->len;

	memmove(s->defpool + d->start, s->defpool + end, s->defpool_used - end);
	s->defpool_used -= d->len;
	for (int j = 0; j < KDB_MAX_DEFCMD; j++)
		if (j != i && s->defs[j].used && s->defs[j].start > d->start)
			s->defs[j].start = (u16)(s->defs[j].start - d->len);
	memset(d, 0, sizeof(*d));
}

static void defcmd_list(struct kdb_session *s)
{
	for (int i = 0; i < KDB_MAX_DEFCMD && !kdb_interrupted(s); i++) {
		const struct kdb_defcmd *d = &s->defs[i];
		const char *p = s->defpool + d->start, *end = p + d->len;

		if (!d->used)
			continue;
		kdb_printf(s, "defcmd %s \"%s\" \"%s\"\n", d->name, d->usage, d->help);
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));

			kdb_printf(s, "%.*s\n", (int)(nl - p), p);
			p = nl + 1;
		}
		kdb_printf(s, "endefcmd\n");
	}
}

/**
 * kdb_cmd_defcmd - `defcmd` lists the macros; `defcmd NAME "usage"
 * "help"` starts recording the lines that follow, up to `endefcmd`.
 */
int kdb_cmd_defcmd(struct kdb_session *s, int argc, const char **argv)
{
	struct kdb_defcmd *d = NULL;
	int i;

	if (argc == 0) {
		defcmd_list(s);
		return 0;
	}
	if (argc != 3 && argc != 1)
		return -KDB_ARGCOUNT;
	if (s->monitor || s->depth) {
		/* not from gdb's monitor, and never while a macro runs: its body must not move */
		kdb_printf(s, "defcmd: cannot define a macro %s\n",
			   s->monitor ? "from gdb's monitor" : "inside a macro");
		return -KDB_NOTHERE;
	}
	if (kdb_lookup(argv[1])) {
		kdb_printf(s, "defcmd: '%s' is already a kdb command\n", argv[1]);
		return -KDB_BADARG;
	}
	if (strlen(argv[1]) >= sizeof(d->name) ||
	    (argc == 3 && (strlen(argv[2]) >= sizeof(d->usage) || strlen(argv[3]) >= sizeof(d->help))))
		return -KDB_BADLENGTH;
	i = kdb_defcmd_lookup(s, argv[1]);
	if (i >= 0)
		defcmd_delete(s, i);
	for (i = 0; i < KDB_MAX_DEFCMD && s->defs[i].used; i++)
		;
	if (i == KDB_MAX_DEFCMD) {
		kdb_printf(s, "defcmd: all %d macros in use (raise KDB_MAX_DEFCMD)\n", KDB_MAX_DEFCMD);
		return -KDB_ENVFULL;
	}
	d = &s->defs[i];
	memset(d, 0, sizeof(*d));
	strlcpy(d->name, argv[1], sizeof(d->name));
	if (argc == 3) {
		strlcpy(d->usage, argv[2], sizeof(d->usage));
		strlcpy(d->help, argv[3], sizeof(d->help));
	}
	d->start = (u16)s->defpool_used;
	s->defining = i;
	return 0;
}

/**
 * kdb_defcmd_capture - while a macro is being defined, store @line in
 * its body (endefcmd finishes it).  Returns false when not defining.
 */
bool kdb_defcmd_capture(struct kdb_session *s, const char *line)
{
	struct kdb_defcmd *d;
	size_t n;

	if (s->defining < 0 || s->depth)
		return false;
	d = &s->defs[s->defining];
	while (*line == ' ' || *line == '\t')
		line++;
	n = strlen(line);
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	if (n == 8 && !strncmp(line, "endefcmd", 8)) {
		d->used = true;
		s->defining = -1;
		return true;
	}
	if (!n)
		return true;
	if (s->defpool_used + n + 1 > KDB_DEFCMD_POOL) {
		kdb_printf(s, "defcmd %s: body too long, dropped (raise KDB_DEFCMD_POOL)\n", d->name);
		s->defpool_used = d->start;
		memset(d, 0, sizeof(*d));
		s->defining = -1;
		return true;
	}
	memcpy(s->defpool + s->defpool_used, line, n);
	s->defpool[s->defpool_used + n] = '\n';
	s->defpool_used += n + 1;
	d->len = (u16)(d->len + n + 1);
	d->nlines++;
	return true;
}

/**
 * kdb_defcmd_exec - run macro @idx line by line.  Stops at a command
 * that resumes the machine (its KDB_CMD_* is returned) or when output is
 * aborted.
 */
int kdb_defcmd_exec(struct kdb_session *s, int idx)
{
	const struct kdb_defcmd *d = &s->defs[idx];
	char line[KDB_LINE_MAX];
	size_t pos = d->start, end = (size_t)d->start + d->len;
	int r = 0;

	if (s->depth >= KDB_DEFCMD_DEPTH) {
		kdb_printf(s, "defcmd %s: nested too deep\n", d->name);
		return -KDB_NOTHERE;
	}
	s->depth++;
	while (pos < end && !kdb_interrupted(s)) {
		const char *nl = memchr(s->defpool + pos, '\n', end - pos);
		size_t n;

		if (!nl)
			break;	/* cannot happen: bodies end in '\n' and do not move while running */
		n = (size_t)(nl - (s->defpool + pos));

		memcpy(line, s->defpool + pos, n);
		line[n] = 0;
		pos += n + 1;
		kdb_printf(s, "[%s]kdb> %s\n", d->name, line);	/* Linux: the macro's name */
		r = kdb_exec_line(s, line);
		if (r > 0)
			break;
		r = 0;
	}
	s->depth--;
	return r;
}
