/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lineedit.c - kdb's line editor over a byte channel: VT100 cursor keys
 * (left, right, home, end, delete), backspace, history (up/down), tab
 * completion of kernel symbols (a second tab lists the matches, at most
 * DTABCOUNT), and recognising gdb talking at the prompt (gdb_sniff).
 * Echo uses only printable bytes, '\b' and '\r', so it works on a dumb
 * screen console as well as on a terminal.
 */
#include "kdb.h"
#include "keys.h"
#include <ekdb/gdbstub.h>

/** kdb_typeahead_push - keep a byte read early (while output ran) for later. */
void kdb_typeahead_push(struct kdb_session *s, u8 c)
{
	if (s->ta_len < KDB_TYPEAHEAD) {
		s->typeahead[(s->ta_head + s->ta_len) % KDB_TYPEAHEAD] = c;
		s->ta_len++;
	}
}

/* Put @c back in front of everything not yet read. */
static void typeahead_unget(struct kdb_session *s, u8 c)
{
	if (s->ta_len >= KDB_TYPEAHEAD)
		return;
	s->ta_head = (s->ta_head + KDB_TYPEAHEAD - 1) % KDB_TYPEAHEAD;
	s->typeahead[s->ta_head] = c;
	s->ta_len++;
}

/**
 * kdb_drop_stale_input - a new stop begins (before its entry line): the
 * bytes already waiting were typed before it, to the kernel - the key
 * whose interrupt hit a breakpoint in the serial driver's handler, the
 * rest of a line - and are not kdb's first input (Linux's kdb_input_flush(),
 * which Linux runs at its pager's prompt only).  Dropped up to the first
 * '$', which stays with everything behind it: gdb's packet (the one whose
 * '$' broke in, or one that arrived as the stop began) loses nothing.
 * At most KDB_STALE_MAX bytes: a line that never stops sending is not
 * waited out.
 */
void kdb_drop_stale_input(struct kdb_session *s)
{
	s->replay_pos = s->replay_len = 0;
	for (unsigned n = 0; n < KDB_STALE_MAX; n++) {
		int c = kdb_poll_char(s);

		if (c < 0)
			return;		/* nothing waiting (or the end of a host channel) */
		if (c == '$') {
			typeahead_unget(s, (u8)c);
			return;
		}
		s->stale_dropped++;
	}
}

/** kdb_poll_char - next input byte if one is there: byte, EKDB_NO_CHAR or KDB_GETC_EOF. */
int kdb_poll_char(struct kdb_session *s)
{
	int c;

	if (s->replay_pos < s->replay_len)
		return (u8)s->sniff[s->replay_pos++];
	if (s->ta_len) {
		c = s->typeahead[s->ta_head];
		s->ta_head = (s->ta_head + 1) % KDB_TYPEAHEAD;
		s->ta_len--;
		return c;
	}
	return kdb_poll_chan(s);
}

/**
 * kdb_poll_chan - the channel's next byte, past the typeahead and the
 * replayed bytes: byte, EKDB_NO_CHAR or KDB_GETC_EOF.  For a look at what
 * arrives while output runs (Ctrl-C), which must neither reorder nor
 * re-read the bytes already kept.  A closed channel (host tests only) is
 * asked again each time: it keeps saying so, and a test's channel sees
 * every poll (the kdb-line fuzzer bounds an input by them).
 */
int kdb_poll_chan(struct kdb_session *s)
{
	int c = s->chan->getc(s->chan->arg);

	return c == EKDB_CHAN_EOF ? KDB_GETC_EOF : c;
}

/**
 * kdb_getc - wait for the next input byte (or key code).  The machine is
 * stopped, so waiting is a poll loop; only a closed channel (host tests)
 * ends it with KDB_GETC_EOF.
 */
int kdb_getc(struct kdb_session *s)
{
	int c;

	do {
		c = kdb_poll_char(s);
	} while (c == EKDB_NO_CHAR);
	return c;
}

/* Decode "ESC [ x", "ESC O x" and "ESC [ n ~" into KDB_KEY_* codes. */
static int read_escape(struct kdb_session *s)
{
	int c = kdb_getc(s), n = 0, digits = 0;

	if (c != '[' && c != 'O')
		return c == KDB_GETC_EOF ? c : KDB_KEY_NONE;
	c = kdb_getc(s);
	switch (c) {
	case 'A': return KDB_KEY_UP;
	case 'B': return KDB_KEY_DOWN;
	case 'C': return KDB_KEY_RIGHT;
	case 'D': return KDB_KEY_LEFT;
	case 'H': return KDB_KEY_HOME;
	case 'F': return KDB_KEY_END;
	}
	while (c >= '0' && c <= '9' && digits++ < 4) {
		n = n * 10 + (c - '0');
		c = kdb_getc(s);
	}
	if (c == KDB_GETC_EOF)
		return c;
	if (c != '~' || !digits)
		return KDB_KEY_NONE;
	switch (n) {
	case 1: case 7: return KDB_KEY_HOME;
	case 4: case 8: return KDB_KEY_END;
	case 3: return KDB_KEY_DELETE;
	default: return KDB_KEY_NONE;
	}
}

static void backspaces(struct kdb_session *s, size_t n)
{
	while (n--)
		kdb_raw(s, "\b", 1);
}

/* Reprint from the cursor to the end, blank @extra old cells, come back. */
static void redraw_tail(struct kdb_session *s, size_t extra)
{
	kdb_raw(s, s->line + s->pos, s->len - s->pos);
	for (size_t i = 0; i < extra; i++)
		kdb_raw(s, " ", 1);
	backspaces(s, s->len - s->pos + extra);
}

static void insert_text(struct kdb_session *s, const char *p, size_t n)
{
	if (s->len + n >= KDB_LINE_MAX)
		n = KDB_LINE_MAX - 1 - s->len;
	if (!n)
		return;
	memmove(s->line + s->pos + n, s->line + s->pos, s->len - s->pos);
	memcpy(s->line + s->pos, p, n);
	s->len += n;
	kdb_raw(s, s->line + s->pos, n);
	s->pos += n;
	redraw_tail(s, 0);
}

static void delete_at_cursor(struct kdb_session *s)
{
	if (s->pos >= s->len)
		return;
	memmove(s->line + s->pos, s->line + s->pos + 1, s->len - s->pos - 1);
	s->len--;
	redraw_tail(s, 1);
}

static void replace_line(struct kdb_session *s, const char *text)
{
	size_t old = s->len, n = strlen(text);

	if (n >= KDB_LINE_MAX)
		n = KDB_LINE_MAX - 1;
	backspaces(s, s->pos);
	memcpy(s->line, text, n);
	s->len = s->pos = n;
	kdb_raw(s, s->line, n);
	if (old > n) {
		for (size_t i = 0; i < old - n; i++)
			kdb_raw(s, " ", 1);
		backspaces(s, old - n);
	}
}

static void history_move(struct kdb_session *s, int dir)
{
	const char *text;
	int to = s->hist_pos + dir;

	if (to < -1)
		return;
	if (to == -1) {
		text = s->hist_edit;
	} else {
		text = kdb_hist_get(s, (unsigned)to);
		if (!text)
			return;
		if (s->hist_pos == -1) {
			memcpy(s->hist_edit, s->line, s->len);
			s->hist_edit[s->len] = 0;
		}
	}
	s->hist_pos = to;
	replace_line(s, text);
}

/* ---------------------------------------------------------------- completion */

/* Linux's second Tab (kdb_read()): the count, then the names on one line, "..." when cut short. */
static void list_matches(struct kdb_session *s, const char *prefix, size_t plen,
			 unsigned long count)
{
	long limit = kdb_getenv_int(s, "DTABCOUNT", 30);
	struct ekdb_target *t = s->target;
	unsigned long shown = 0;
	struct ksym k;
	char num[128];

	ekdb_snprintf(num, sizeof(num), "\n%lu symbols are found.", count);
	kdb_raw_str(s, num);
	if ((long)count > limit) {
		ekdb_snprintf(num, sizeof(num), " But only first %ld symbols will be printed.\n"
			      "You can change the environment variable DTABCOUNT.", limit);
		kdb_raw_str(s, num);
	}
	kdb_raw(s, "\n", 1);
	for (unsigned long i = 0; t->ops->sym_get(t, i, &k) == 0 && (long)shown < limit; i++) {
		if (strncmp(k.name, prefix, plen))
			continue;
		kdb_raw_str(s, k.name);
		kdb_raw(s, " ", 1);
		shown++;
	}
	/* Linux prints "..." also when exactly DTABCOUNT matched and all were shown */
	if (shown < count)
		kdb_raw_str(s, "...");
	kdb_raw(s, "\n", 1);
}

/*
 * Tab: complete the word before the cursor to the longest common prefix
 * of the matching symbols; a second tab in a row lists them (Linux's
 * kdb_read(): the list comes only at the second, even for one match).
 */
static void complete(struct kdb_session *s, const char *prompt)
{
	struct ekdb_target *t = s->target;
	char prefix[KDB_LINE_MAX], common[KDB_LINE_MAX];
	size_t start = s->pos, plen, clen = 0;
	unsigned long count = 0;
	struct ksym k;

	if (!t->ops->sym_get)
		return;
	while (start > 0 && s->line[start - 1] != ' ')
		start--;
	plen = s->pos - start;
	if (!plen)
		return;
	memcpy(prefix, s->line + start, plen);
	prefix[plen] = 0;
	for (unsigned long i = 0; t->ops->sym_get(t, i, &k) == 0; i++) {
		if (strncmp(k.name, prefix, plen))
			continue;
		if (!count++) {
			clen = strlcpy(common, k.name, sizeof(common));
			if (clen >= sizeof(common))
				clen = sizeof(common) - 1;
		} else {
			size_t j = plen;

			while (j < clen && k.name[j] == common[j])
				j++;
			clen = j;
		}
	}
	if (!count)
		return;
	if (clen > plen) {
		insert_text(s, common + plen, clen - plen);
		return;
	}
	if (s->last_was_tab) {	/* Linux: also the one match the first Tab completed */
		list_matches(s, prefix, plen, count);
		kdb_raw_str(s, prompt);
		kdb_raw(s, s->line, s->len);
		backspaces(s, s->len - s->pos);
	}
}

/* ---------------------------------------------------------------- the editor */

/*
 * gdb was recognised.  What is already queued behind its greeting is a
 * backlog, not a conversation (gdb sends its next packet only after our
 * reply): retransmissions of a greeting sent while the machine booted, or
 * the packets of a gdb that gave up.  Read it (until the line has been
 * quiet for as many polls as make a pause on this channel, at most
 * KDB_SNIFF_MAX bytes) and keep
 * only the newest frame, the one a live gdb waits for, so the stub does not
 * answer stale packets out of turn.
 */
static void keep_newest_frame(struct kdb_session *s)
{
	unsigned long quiet = 0, pause = s->chan->quiet_polls ?
				s->chan->quiet_polls(s->chan->arg) : EKDB_QUIET_POLLS;
	size_t start = 0;
	int c;

	for (size_t i = 0; i < s->sniff_len; i++)
		if (s->sniff[i] == '$')
			start = i;
	while (quiet < pause) {
		if (s->sniff_len - start >= KDB_SNIFF_MAX)
			break;		/* a huge frame: the stub reads the rest */
		if (s->sniff_len == KDB_SNIFF_MAX) {
			memmove(s->sniff, s->sniff + start, s->sniff_len - start);
			s->sniff_len -= start;
			start = 0;
		}
		c = kdb_poll_char(s);
		if (c == EKDB_NO_CHAR) {
			quiet++;
			continue;
		}
		if (c < 0)
			break;		/* KDB_GETC_EOF: the stub sees the end too */
		quiet = 0;
		if (c == '$')
			start = s->sniff_len;
		s->sniff[s->sniff_len++] = (char)c;
	}
	memmove(s->sniff, s->sniff + start, s->sniff_len - start);
	s->sniff_len -= start;
}

/*
 * gdb's greeting: the first packet of a new connection ($qSupported, or
 * $?#3f from an older gdb), after acks, NAKs or a Ctrl-C.  Linux's kdb_read()
 * takes these two wherever they end the line; any other packet only as the
 * first thing typed at a stop (kgdb_transition_check() while KGDB_TRANS is
 * clear).
 */
static bool gdb_greeting(const char *buf, size_t len)
{
	size_t i = 0;

	while (i < len && (buf[i] == '+' || buf[i] == '-' || buf[i] == 0x03))
		i++;
	buf += i;
	len -= i;
	return (len >= 11 && !memcmp(buf, "$qSupported", 11)) ||
	       (len >= 5 && !memcmp(buf, "$?#3f", 5));
}

/* Feed one byte to the gdb detector; returns 1 (gdb), 0 (keep sniffing), -1 (not gdb). */
static int sniff_byte(struct kdb_session *s, int c)
{
	enum gdb_sniff r;

	s->sniff[s->sniff_len++] = (char)c;
	r = gdb_sniff(s->sniff, s->sniff_len);
	if (c == '\r' || c == '\n')
		r = GDB_SNIFF_NO;	/* a person pressed Enter */
	if (r == GDB_SNIFF_YES && !s->gdb_window && !gdb_greeting(s->sniff, s->sniff_len))
		r = GDB_SNIFF_NO;	/* a packet after typing (`$D#44`): text, as in Linux */

	if (r == GDB_SNIFF_YES) {
		keep_newest_frame(s);
		return 1;
	}
	if (r == GDB_SNIFF_MAYBE && s->sniff_len < KDB_SNIFF_DETECT)
		return 0;
	/*
	 * not gdb (or too long to be its greeting): the bytes count as typing
	 */
	s->replay_pos = 0;
	s->replay_len = s->sniff_len;
	s->sniff_len = 0;
	return -1;
}

/* One editing key (not Enter) at the cursor, as Linux's kdb_read() edits its line. */
static void edit_key(struct kdb_session *s, int c, const char *prompt)
{
	switch (c) {
	case KDB_KEY_BS:
	case KDB_KEY_DEL:
		if (s->pos) {
			kdb_raw(s, "\b", 1);
			s->pos--;
			delete_at_cursor(s);
		}
		break;
	case KDB_KEY_DELETE:
	case KDB_KEY_CTRL('d'):
		delete_at_cursor(s);
		break;
	case KDB_KEY_LEFT:
	case KDB_KEY_CTRL('b'):
		if (s->pos) {
			kdb_raw(s, "\b", 1);
			s->pos--;
		}
		break;
	case KDB_KEY_RIGHT:
	case KDB_KEY_CTRL('f'):
		if (s->pos < s->len)
			kdb_raw(s, s->line + s->pos++, 1);
		break;
	case KDB_KEY_HOME:
	case KDB_KEY_CTRL('a'):
		backspaces(s, s->pos);
		s->pos = 0;
		break;
	case KDB_KEY_END:
	case KDB_KEY_CTRL('e'):
		kdb_raw(s, s->line + s->pos, s->len - s->pos);
		s->pos = s->len;
		break;
	case KDB_KEY_UP:
	case KDB_KEY_CTRL('p'):
		history_move(s, 1);
		break;
	case KDB_KEY_DOWN:
	case KDB_KEY_CTRL('n'):
		history_move(s, -1);
		break;
	case KDB_KEY_CTRL('u'):
		replace_line(s, "");
		break;
	case KDB_KEY_TAB:
		complete(s, prompt);
		s->last_was_tab = true;
		break;
	default:
		if (c >= 0x20 && c < 0x7f) {
			char ch = (char)c;

			insert_text(s, &ch, 1);
		}
		break;	/* other control bytes and unknown keys are ignored */
	}
}

/**
 * kdb_readline - print @prompt and edit a line into s->line.
 * Returns 0 when Enter ends the line, 1 when the input is gdb (s->sniff
 * holds its newest frame; a line typed so far is dropped), -1 at the end
 * of input.
 */
int kdb_readline(struct kdb_session *s, const char *prompt)
{
	bool replaying = false;
	int c;

	s->len = s->pos = 0;
	s->line[0] = 0;
	s->hist_pos = -1;
	s->hist_edit[0] = 0;
	s->last_was_tab = false;
	s->sniff_len = 0;
	kdb_raw_str(s, prompt);
	for (;;) {
		replaying = s->replay_pos < s->replay_len;
		c = kdb_getc(s);
		if (c == KDB_GETC_EOF)
			return -1;
		/*
		 * Back from gdb (`maintenance packet 3`), before a line is
		 * entered: a '-' or '+' at the start of the line is gdb's, not
		 * typing.  gdb waits for a reply that kdb does not send, NAKs
		 * ('-') on each timeout and acks ('+') when it gives up; no kdb
		 * command starts with either.
		 */
		if (s->ack_window && !replaying && !s->len && !s->sniff_len && (c == '+' || c == '-'))
			continue;
		/*
		 * gdb's greeting is recognised wherever it starts, also after
		 * line noise or half a line of typing (as Linux's kdb checks
		 * the end of its line buffer): that line is then dropped.
		 */
		if (!replaying &&
		    (s->sniff_len || c == '$' || c == '+' || c == KDB_KEY_CTRL('c'))) {
			int r = sniff_byte(s, c);

			if (r > 0)
				return 1;
			continue;	/* r < 0: the bytes replay as typing */
		}
		if (c == KDB_KEY_ESC)
			c = read_escape(s);
		if (c == KDB_GETC_EOF)
			return -1;
		if (c == KDB_KEY_LF && s->skip_lf) {
			s->skip_lf = false;
			continue;
		}
		s->skip_lf = false;
		if (c != KDB_KEY_TAB)
			s->last_was_tab = false;
		if (c == KDB_KEY_CR || c == KDB_KEY_LF || (c >= 0x20 && c < 0x7f))
			s->gdb_window = false;	/* typed: Linux sets KGDB_TRANS */
		if (c == KDB_KEY_CR || c == KDB_KEY_LF) {
			s->ack_window = false;
			s->skip_lf = c == KDB_KEY_CR;
			s->line[s->len] = 0;
			kdb_raw(s, "\n", 1);
			return 0;
		}
		edit_key(s, c, prompt);
	}
}
