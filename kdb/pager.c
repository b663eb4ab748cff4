/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pager.c - kdb output: line buffering, `| grep PATTERN` filtering, the
 * `more> ` pager driven by LINES, and interruption (q at more>, Ctrl-C
 * typed while a command prints).  Output goes to the channel ('\n' sent
 * as CR LF) or, for gdb's monitor, to the monitor callback (unpaged).
 */
#include "kdb.h"
#include "keys.h"

static void chan_write(struct kdb_session *s, const char *p, size_t n)
{
	const struct ekdb_chan *c = s->chan;

	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n')
			c->putc(c->arg, '\r');
		c->putc(c->arg, (u8)p[i]);
	}
	if (c->flush)
		c->flush(c->arg);
}

/** kdb_raw - write @n bytes straight to the user (prompt, echo). */
void kdb_raw(struct kdb_session *s, const char *p, size_t n)
{
	if (s->monitor) {
		if (s->mon_out)
			s->mon_out(s->mon_arg, p, n);
		return;
	}
	chan_write(s, p, n);
}

/** kdb_raw_str - kdb_raw of a C string. */
void kdb_raw_str(struct kdb_session *s, const char *str)
{
	kdb_raw(s, str, strlen(str));
}

/**
 * kdb_grep_set - filter the next command's output lines by @pattern:
 * "^text" matches at the start, "text$" at the end, else anywhere.
 * Returns false when the pattern is too long.
 */
bool kdb_grep_set(struct kdb_session *s, const char *pattern)
{
	size_t n;

	s->grep_head = pattern[0] == '^';
	if (s->grep_head)
		pattern++;
	n = strlen(pattern);
	if (n >= sizeof(s->grep))
		return false;
	memcpy(s->grep, pattern, n + 1);
	s->grep_tail = n && s->grep[n - 1] == '$';
	if (s->grep_tail)
		s->grep[n - 1] = 0;
	s->grep_on = true;
	return true;
}

/** kdb_grep_match - does @line pass the active grep filter? */
bool kdb_grep_match(const struct kdb_session *s, const char *line)
{
	size_t n = strlen(s->grep), l = strlen(line);

	if (!s->grep_on)
		return true;
	if (s->grep_head && s->grep_tail)
		return l == n && !memcmp(line, s->grep, n);
	if (s->grep_head)
		return !strncmp(line, s->grep, n);
	if (s->grep_tail)
		return l >= n && !memcmp(line + l - n, s->grep, n);
	return strstr(line, s->grep) != NULL;
}

/* Ctrl-C typed while output runs aborts it; other bytes wait in typeahead. */
static void check_interrupt(struct kdb_session *s)
{
	int c;

	if (s->ta_len >= KDB_TYPEAHEAD || s->replay_pos < s->replay_len)
		return;
	c = kdb_poll_char(s);
	if (c == KDB_KEY_CTRL('c'))
		s->aborted = true;
	else if (c >= 0)
		kdb_typeahead_push(s, (u8)c);
}

/* At LINES-1 lines: more> waits for space (page), Enter (line) or q (quit). */
static void pager_wait(struct kdb_session *s)
{
	long lines = kdb_getenv_int(s, "LINES", 24);
	const char *more = kdb_getenv(s, "MOREPROMPT");
	int c;

	if (lines < 2 || s->lines_out < (unsigned long)lines - 1)
		return;
	if (!more)
		more = "more> ";
	chan_write(s, more, strlen(more));
	do {
		c = kdb_getc(s);
	} while (c == KDB_KEY_LF && s->skip_lf && !(s->skip_lf = false));
	s->skip_lf = false;
	if (c == KDB_KEY_CR || c == KDB_KEY_LF) {
		s->skip_lf = c == KDB_KEY_CR;
		s->lines_out = (unsigned)lines - 2;	/* one more line */
	} else if (c == 'q' || c == 'Q' || c == KDB_KEY_CTRL('c') || c == KDB_GETC_EOF) {
		s->aborted = true;
	} else {
		s->lines_out = 0;			/* space (or any key): a page */
	}
	chan_write(s, "\r", 1);
	for (size_t i = 0; i < strlen(more); i++)
		chan_write(s, " ", 1);
	chan_write(s, "\r", 1);
}

static void emit_line(struct kdb_session *s, bool newline)
{
	s->obuf[s->olen] = 0;
	s->olen = 0;
	if (s->aborted || !kdb_grep_match(s, s->obuf))
		return;
	kdb_raw(s, s->obuf, strlen(s->obuf));
	if (newline)
		kdb_raw(s, "\n", 1);
	if (s->monitor || !newline)
		return;
	s->lines_out++;
	check_interrupt(s);
	if (!s->aborted)
		pager_wait(s);
}

static void out_putc(void *arg, char c)
{
	struct kdb_session *s = arg;

	s->out_chars++;
	if (s->aborted)
		return;
	if (c == '\n') {
		emit_line(s, true);
		return;
	}
	if (s->olen >= sizeof(s->obuf) - 1)
		emit_line(s, false);
	s->obuf[s->olen++] = c;
}

/** kdb_write - command output of @n bytes (buffered by line). */
void kdb_write(struct kdb_session *s, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out_putc(s, p[i]);
}

int kdb_printf(struct kdb_session *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vformat(out_putc, s, fmt, ap);
	va_end(ap);
	return n;
}

/** kdb_out_begin - a new top-level command: reset the pager and abort state. */
void kdb_out_begin(struct kdb_session *s)
{
	s->lines_out = 0;
	s->aborted = false;
	s->olen = 0;
	s->out_chars = 0;
	s->getarea_quiet = false;
}

/** kdb_out_end - flush a last line without newline (grep still applies). */
void kdb_out_end(struct kdb_session *s)
{
	if (s->olen)
		emit_line(s, false);
}
