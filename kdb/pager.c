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

/*
 * Ctrl-C typed while output runs aborts it; other bytes wait in typeahead,
 * in the order typed.  Only the channel is looked at: the bytes already
 * kept stay where they are (taking one from the typeahead and putting it
 * back at its end reordered them, and a Ctrl-C typed behind one was never
 * read while output ran).  When the typeahead fills (KDB_TYPEAHEAD keys,
 * or a gdb packet arriving), the output stops as for Ctrl-C, with a word
 * why: the keys wait for the prompt and nothing is dropped.  (The check
 * used to stop reading instead: a Ctrl-C behind 64 keys was never seen,
 * and a dump that `| grep` or a more> search hid ran to its end.)
 */
#define TYPEAHEAD_FULL	"\nkdb: typeahead full, output stopped\n"

static bool check_interrupt(struct kdb_session *s)	/* true: a byte was read */
{
	int c;

	if (s->ta_len < KDB_TYPEAHEAD) {
		c = kdb_poll_chan(s);
		if (c == KDB_KEY_CTRL('c'))
			s->aborted = true;
		if (c < 0 || s->aborted)
			return c >= 0;
		kdb_typeahead_push(s, (u8)c);
		if (s->ta_len < KDB_TYPEAHEAD)
			return true;
	}
	s->aborted = true;	/* full: nothing more is read */
	chan_write(s, TYPEAHEAD_FULL, strlen(TYPEAHEAD_FULL));
	return true;
}

/**
 * kdb_poll_interrupt - for a command that works long without printing a
 * line (md's scan over a run of zero words, which Linux's kdb_md() does not
 * poll either: 256 MiB of zeroes took 8 s under QEMU): read the line as
 * each printed line does, all the keys typed since the last poll, so
 * Ctrl-C (or a full typeahead) stops it.  Not for gdb's monitor, whose
 * line is gdb's.  true: stop.
 */
bool kdb_poll_interrupt(struct kdb_session *s)
{
	if (!s->monitor)
		while (!s->aborted && check_interrupt(s))
			;	/* every key typed since the last poll */
	return s->aborted;
}

/* Linux's kdbgetintenv() fallback for LINES and COLUMNS: unset, not a number or <= 1. */
static unsigned long env_dim(struct kdb_session *s, const char *name, long dflt)
{
	long v = kdb_getenv_int(s, name, dflt);

	return (unsigned long)(v <= 1 ? dflt : v);
}

/*
 * '/' at more>: read the string after SEARCHPROMPT ("search> "), echoing
 * it, Backspace edits; Enter ends it.  Output then skips to the first line
 * that contains it (Linux's KDB_GREPPING_FLAG_SEARCH).  Ctrl-C or the end
 * of input drops the rest of the output.
 */
static void pager_search(struct kdb_session *s)
{
	const char *prompt = kdb_getenv(s, "SEARCHPROMPT");
	size_t n = 0;
	int c;

	if (!prompt)
		prompt = "search> ";
	chan_write(s, "\r", 1);
	chan_write(s, prompt, strlen(prompt));
	for (;;) {
		c = kdb_getc(s);
		if (c == KDB_KEY_LF && s->skip_lf) {
			s->skip_lf = false;
			continue;
		}
		if (c == KDB_KEY_CR || c == KDB_KEY_LF) {
			s->skip_lf = c == KDB_KEY_CR;
			break;
		}
		if (c == KDB_GETC_EOF || c == KDB_KEY_CTRL('c')) {
			s->aborted = true;
			chan_write(s, "\n", 1);
			return;
		}
		if ((c == KDB_KEY_BS || c == KDB_KEY_DEL) && n) {
			n--;
			chan_write(s, "\b \b", 3);
		} else if (c >= 0x20 && c < 0x7f && n < sizeof(s->search) - 1) {
			s->search[n++] = (char)c;
			chan_write(s, (const char *)&(char){ (char)c }, 1);
		}
	}
	s->search[n] = 0;
	chan_write(s, "\n", 1);
	s->search_on = n > 0;
	s->lines_out = 1;			/* Linux's kdb_getstr() and its echoed Enter */
}

/*
 * Linux's pager (vkdb_printf): kdb_nextline starts at 1 at the prompt and
 * counts the echoed Enter, each output line, and a line wider than COLUMNS
 * once more per COLUMNS+1 characters; at LINES comes more>.  lines_out is
 * kdb_nextline - 1.  Space: a page; Enter: one line; q/Q: the rest is
 * dropped ("\n" leaves more> on the screen, as Linux); '/': a search;
 * anything else is refused with Linux's words.  Ctrl-C (Linux: refused)
 * stops the output as it does while a command prints.
 */
static void pager_wait(struct kdb_session *s)
{
	unsigned long lines = env_dim(s, "LINES", 24);
	const char *more = kdb_getenv(s, "MOREPROMPT");
	int c;

	if (s->lines_out < lines - 1)
		return;
	if (!more)
		more = "more> ";
	chan_write(s, more, strlen(more));
	do {
		c = kdb_getc(s);
	} while (c == KDB_KEY_LF && s->skip_lf && !(s->skip_lf = false));
	s->skip_lf = false;
	if (c == 'q' || c == 'Q' || c == KDB_KEY_CTRL('c') || c == KDB_GETC_EOF) {
		s->aborted = true;
		chan_write(s, "\n", 1);
		return;
	}
	if (c == '/' && !s->grep_on) {
		pager_search(s);
		return;
	}
	if (c != ' ' && c != KDB_KEY_CR && c != KDB_KEY_LF) {
		const char *msg = c == '/' ?
			"\n'/' cannot be used during | grep filtering, input ignored\n" :
			"\nOnly 'q', 'Q' or '/' are processed at more prompt, input ignored\n";

		chan_write(s, msg, strlen(msg));
		s->lines_out = 2;
		return;
	}
	if (c == KDB_KEY_CR || c == KDB_KEY_LF) {
		s->skip_lf = c == KDB_KEY_CR;
		s->lines_out = (unsigned)lines - 2;	/* one more line */
	} else {
		s->lines_out = 0;			/* space: a page */
	}
	/* Linux writes only "\r": a shorter next line would leave "more> " showing */
	chan_write(s, "\r", 1);
	for (size_t i = 0; i < strlen(more); i++)
		chan_write(s, " ", 1);
	chan_write(s, "\r", 1);
}

static void emit_line(struct kdb_session *s, bool newline)
{
	s->obuf[s->olen] = 0;
	s->olen = 0;
	if (s->aborted)
		return;
	if (!kdb_grep_match(s, s->obuf) ||
	    (s->search_on && !s->monitor && !strstr(s->obuf, s->search))) {
		/* nothing shown, no more> prompt: Ctrl-C still ends a long
		 * `md 0 1000000 | grep x`, or a more> search that finds nothing
		 * (either would run to its end otherwise) */
		if (newline)
			check_interrupt(s);
		return;
	}
	if (s->search_on && !s->monitor)
		s->search_on = false;	/* found: paging goes on from here */
	kdb_raw(s, s->obuf, strlen(s->obuf));
	if (newline)
		kdb_raw(s, "\n", 1);
	if (s->monitor || !newline)
		return;
	s->lines_out += 1 + (unsigned)(strlen(s->obuf) / (env_dim(s, "COLUMNS", 80) + 1));
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
	s->search_on = false;
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
