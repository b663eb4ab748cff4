/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_kdb_edit.c - kdb input and output over the byte channel: the line
 * editor fed VT100 escape sequences, history, tab completion, the more>
 * pager, Ctrl-C, repeat on Enter, and gdb traffic at the prompt.
 */
#include "kdb_test_util.h"
#include "../../kdb/kdb.h"

#define LEFT	"\x1b[D"
#define RIGHT	"\x1b[C"
#define UP	"\x1b[A"
#define DOWN	"\x1b[B"
#define HOME	"\x1b[H"
#define END	"\x1b[F"
#define DEL	"\x1b[3~"

/* The command line kdb ended up with: an unknown word is echoed back. */
static const char *typed(const char *keys)
{
	static char in[2048];
	const char *o, *p, *q;
	static char word[256];

	snprintf(in, sizeof(in), "%s\r", keys);
	o = kdb_run(in);
	p = strstr(o, "Unknown kdb command: '");
	if (!p) {
		/* a word that is also a number or symbol is evaluated: "acd = 0x..." */
		p = strrchr(o, '\n');
		while (p > o && p[-1] != '\n')
			p--;
		q = strstr(o, " = 0x");
		if (!q)
			return o;
		p = q;
		while (p > o && p[-1] != '\n')
			p--;
		snprintf(word, sizeof(word), "%.*s", (int)(q - p), p);
		return word;
	}
	p += 22;
	q = strchr(p, '\'');
	snprintf(word, sizeof(word), "%.*s", (int)(q - p), p);
	return word;
}

static void test_editing_keys(void **state)
{
	assert_string_equal(typed("abd" LEFT LEFT "X"), "aXbd");
	assert_string_equal(typed("abd" HOME "X"), "Xabd");
	assert_string_equal(typed("abd" HOME END "X"), "abdX");
	assert_string_equal(typed("abcd" LEFT LEFT "\x7f"), "acd");	/* DEL key = backspace */
	assert_string_equal(typed("abcd" LEFT LEFT "\b"), "acd");
	assert_string_equal(typed("axyz" HOME DEL), "xyz");
	assert_string_equal(typed("abcd" HOME RIGHT DEL), "acd");
	assert_string_equal(typed("ab" "\x1b[1~" "X" "\x1b[4~" "Y"), "XabY");
	assert_string_equal(typed("ab" "\x1bOH" "X" "\x1bOF" "Y"), "XabY");
	assert_string_equal(typed("ab\x01X\x05Y"), "XabY");		/* Ctrl-A, Ctrl-E */
	assert_string_equal(typed("xy\x02\x02\x04"), "y");		/* Ctrl-B, Ctrl-D */
	assert_string_equal(typed("junk\x15ok"), "ok");			/* Ctrl-U */
	assert_string_equal(typed("a\x1b[9~b\x1bxc"), "abc");		/* unknown sequences ignored */
	assert_string_equal(typed(LEFT "\b" DEL "z"), "z");		/* edits at the edges */
	assert_string_equal(typed("q\x07w"), "qw");			/* other control bytes */
}

static void test_echo(void **state)
{
	const char *o = kdb_run("abd" LEFT LEFT "X\r");

	/* insert in the middle: the tail is redrawn and the cursor moved back */
	assert_has(o, "[0]kdb> abd\b\bXbd\b\b");
	o = kdb_run("ab\x7f\r");
	assert_has(o, "ab\b \b");
}

static void test_crlf(void **state)
{
	/* CR LF is one Enter, not an Enter and an empty (repeating) line */
	const char *o = kdb_run("md 0x1000 1\r\nrd\r\n");

	assert_has(o, "ax: ");
	assert_int_equal(strstr(strstr(o, "0x0000000000001000"), "0x0000000000001010") == NULL, 1);
}

static void test_history_keys(void **state)
{
	assert_string_equal(typed("first"), "first");
	assert_string_equal(typed("second"), "second");
	assert_string_equal(typed(UP), "second");
	assert_string_equal(typed(UP UP), "first");
	assert_string_equal(typed(UP UP UP UP), "first");		/* stops at the oldest */
	assert_string_equal(typed(UP UP DOWN), "first");	/* "first" was run again */
	assert_string_equal(typed("new" UP DOWN), "new");		/* back to the edited line */
	assert_string_equal(typed(UP "X"), "newX");
	assert_string_equal(typed("\x10\x10"), "new");			/* Ctrl-P */
}

/* 8 lines while the session is early, 32 (Linux's count) once the handoff gave it a ring */
static void test_history_32(void **state)
{
	static char in[4096], ring[KDB_HISTORY][KDB_LINE_MAX];
	size_t n = 0;

	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(in + n, sizeof(in) - n, "c%d\r", i);
	kdb_run(in);
	n = 0;
	for (int i = 0; i < KDB_HISTORY_EARLY; i++)
		n += (size_t)snprintf(in + n, sizeof(in) - n, "%s", UP);
	assert_string_equal(typed(in), "c32");
	assert_int_equal(kdb_session_set_history(&F.s, ring, KDB_HISTORY), 0);
	/* the early lines moved (the "c32" just run is the newest now) */
	assert_string_equal(typed(in), "c33");
	n = 0;
	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(in + n, sizeof(in) - n, "d%d\r", i);
	kdb_run(in);
	n = 0;
	for (int i = 0; i < KDB_HISTORY; i++)
		n += (size_t)snprintf(in + n, sizeof(in) - n, "%s", UP);
	assert_string_equal(typed(in), "d8");
}

static void test_completion(void **state)
{
	const char *o;

	assert_has(kdb_run("md setup_a\t 1\r"), "0xffffffff81000100 ");	/* unique */
	assert_has(kdb_run("md jif\t 1\r"), "0x0000000000001100 ");
	/* common prefix of setup_arch/setup_boot_params is setup_ */
	o = kdb_run("setu\t\r");
	assert_has(o, "[0]kdb> setup_\n");
	assert_has(o, "diag: -2: Improper argument count");	/* Linux: "setup_" is set */
	/* double tab lists, in Linux's words and form: the names on one line */
	o = kdb_run("md setup_\t\t\x15\r");
	assert_has(o, "\n2 symbols are found.\nsetup_arch setup_boot_params \n[0]kdb> md setup_");
	/* limited by DTABCOUNT, "..." for the rest */
	o = kdb_run("many_\t\t\x15\r");
	assert_has(o, "\n40 symbols are found. But only first 30 symbols will be printed.\n"
		   "You can change the environment variable DTABCOUNT.\nmany_00 many_01 ");
	assert_has(o, " many_29 ...\n[0]kdb> many_");
	assert_hasnt(o, "many_30");
	/* exactly DTABCOUNT: all shown, no "..." (Linux prints one) */
	kdb_setenv(&F.s, "DTABCOUNT", "40");
	o = kdb_run("many_\t\t\x15\r");
	assert_has(o, "\n40 symbols are found.\nmany_00 ");
	assert_has(o, " many_39 \n[0]kdb> many_");
	kdb_setenv(&F.s, "DTABCOUNT", "30");
	/* one match: the first Tab completes it, the second lists it (Linux) */
	o = kdb_run("md setup_a\t\t\x15\r");
	assert_has(o, "md setup_arch\n1 symbols are found.\nsetup_arch \n[0]kdb> md setup_arch");
	/* nothing matches, or no word: nothing happens */
	assert_string_equal(typed("zzz\t"), "zzz");
	assert_string_equal(typed("\tx"), "x");
	F.sim.ops.sym_get = NULL;
	assert_string_equal(typed("xsetu\t"), "xsetu");
}

static void test_interrupt(void **state)
{
	const char *o;

	kdb_setenv(&F.s, "LINES", "10000");
	/* Ctrl-C typed while output runs stops it; the rest of the input is kept */
	o = kdb_run("md 0x1000 200\r\x03rd\r");
	assert_hasnt(o, "0x0000000000001c70");
	assert_has(o, "ax: ");
	/* bytes typed ahead during output are not lost */
	o = kdb_run("md 0x1000 4\rcpu\r");
	assert_has(o, "Currently on cpu 0");
}

static void test_repeat(void **state)
{
	const char *o;

	kdb_run("md 0x1000 1\r");
	o = kdb_run("\r");
	assert_has(o, "0x0000000000001010 ");
	o = kdb_run("\r");
	assert_has(o, "0x0000000000001020 ");
	/* commands without repeat: nothing */
	kdb_run("cpu\r");
	assert_string_equal(kdb_run("\r"), "[0]kdb> \n[0]kdb> ");
}

static void test_gdb_at_prompt(void **state)
{
	static const char pkt[] = "+$qSupported:multiprocess+;swbreak+#c9";
	const char *buf;
	size_t len;
	const char *o = kdb_run(pkt);

	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	assert_hasnt(o, "qSupported");		/* not echoed */
	kdb_session_pushback(&F.s, &buf, &len);
	/* the whole frame is handed over (the leading ack is not needed) */
	assert_int_equal(len, strlen(pkt) - 1);
	assert_memory_equal(buf, pkt + 1, len);
	kdb_run("$?#3f");
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	/* a person typing '+' or '$' is not gdb */
	assert_string_equal(typed("+x"), "+x");
	assert_string_equal(typed("$HOME"), "$HOME");
	assert_string_equal(typed("xy+zz$w"), "xy+zz$w");
	kdb_session_pushback(&F.s, &buf, &len);
	assert_int_equal(len, 0);
}

/*
 * Linux's rules (kdb_read(), kgdb_transition_check(), KGDB_TRANS cleared in
 * kdb_stub()): any packet opens the line to gdb only as the first input of a
 * stop; once something is typed, only gdb's greeting does.  After gdb gave
 * the line back ($3#33), only the greeting (ekdb: see docs/kdb.md).
 */
static void test_gdb_packet_rules(void **state)
{
	const char *buf, *o;
	size_t len;

	kdb_run("$D#44");				/* the first input of a stop */
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	kdb_session_pushback(&F.s, &buf, &len);
	assert_int_equal(len, 5);
	assert_memory_equal(buf, "$D#44", 5);
	/* after Enter, or a key typed (even if erased): text */
	assert_has(kdb_run("\r$D#44\r"), "Unknown kdb command: '$D#44'\n");
	assert_int_equal(F.r.action, EKDB_RESUME_EOF);
	assert_has(kdb_run("x\x7f$k#6b\r"), "Unknown kdb command: '$k#6b'\n");
	assert_int_equal(F.r.action, EKDB_RESUME_EOF);
	/* gdb's greeting is gdb at any point */
	kdb_run("md 0x1000 1\r+$qSupported:swbreak+#c9");
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	kdb_run("md 0x1000 1\r$?#3f");
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	/* back from gdb: its D (or k) on exit is not a packet, even first */
	kdb_session_from_gdb(&F.s);
	assert_has(kdb_run("$D#44\r"), "Unknown kdb command: '$D#44'\n");
	assert_int_equal(F.r.action, EKDB_RESUME_EOF);
	/* issue 21: the '-'s and '+' a gdb sends when it gives up waiting for
	 * $3#33's reply are dropped (until a line is entered), not typed */
	kdb_session_from_gdb(&F.s);
	assert_has(kdb_run("+xq\r"), "Unknown kdb command: 'xq'\n");
	kdb_session_from_gdb(&F.s);		/* real gdb 13: a NAK per timeout, then the ack */
	assert_has(kdb_run("---+xq\r"), "Unknown kdb command: 'xq'\n");
	kdb_session_from_gdb(&F.s);
	o = kdb_run("-+\rx+\r+y\r");
	assert_hasnt(o, "'-+'");				/* gdb's: gone */
	assert_has(o, "Unknown kdb command: 'x+'\n");
	assert_has(o, "Unknown kdb command: '+y'\n");		/* after a line: text */
	assert_has(kdb_run("+z\r"), "Unknown kdb command: '+z'\n");	/* not back from gdb */
	kdb_session_from_gdb(&F.s);
	kdb_run("+$qSupported:swbreak+#c9");		/* a new gdb is */
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	kdb_run("$D#44");				/* the next stop is a new stop */
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
}

/* Line noise (or half a typed line) before gdb's greeting does not hide it. */
static void test_gdb_after_noise(void **state)
{
	const char *buf;
	size_t len;
	const char *o = kdb_run("xyz$?#3f");

	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	assert_hasnt(o, "Unknown");
	kdb_session_pushback(&F.s, &buf, &len);
	assert_int_equal(len, 5);
	assert_memory_equal(buf, "$?#3f", 5);
	kdb_run("a\x7f\x01garbage+$qSupported:xmlRegisters=i386#6a");
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	kdb_session_pushback(&F.s, &buf, &len);
	assert_memory_equal(buf, "$qSupported:", 12);
}

/*
 * A backlog queued while the machine booted (gdb retransmitting, or a gdb
 * that gave up and moved on): only the newest frame reaches the stub.
 */
static void test_gdb_backlog(void **state)
{
	static const char q[] = "$qSupported:swbreak+#c9";
	static char in[1024];
	const char *buf;
	size_t len;

	snprintf(in, sizeof(in), "+%s%s-%s--+$vMustReplyEmpty#3a-+$Hg0#df", q, q, q);
	kdb_run(in);
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	kdb_session_pushback(&F.s, &buf, &len);
	assert_int_equal(len, 7);
	assert_memory_equal(buf, "$Hg0#df", 7);
	/* a frame longer than the buffer: handed over from its start, the rest unread */
	memset(in, 0, sizeof(in));
	strcpy(in, "$qSupported:");
	memset(in + 12, 'a', 400);
	kdb_run(in);
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	kdb_session_pushback(&F.s, &buf, &len);
	assert_int_equal(len, KDB_SNIFF_MAX);
	assert_memory_equal(buf, "$qSupported:aaa", 15);
	assert_int_equal(F.ch.in_pos + 0, KDB_SNIFF_MAX);
}

/*
 * A line read by bus transactions (the USB debug port): the pause that
 * ends the backlog is the channel's quiet_polls empty reads, not the
 * 20000 a serial port needs (at ~0.25 ms a read those were 5 s before
 * gdb's first reply).  Script: a greeting, @gap empty reads, a newer frame.
 */
static const char *slow_script;
static unsigned long slow_gap, slow_empty, slow_quiet;
static size_t slow_pos;

static int slow_getc(void *arg)
{
	size_t first = strlen("$qSupported:swbreak+#c9");

	if (slow_pos == first && slow_empty < slow_gap) {
		slow_empty++;
		return EKDB_NO_CHAR;
	}
	if (!slow_script[slow_pos])
		return EKDB_NO_CHAR;
	return (u8)slow_script[slow_pos++];
}

static unsigned long slow_quiet_polls(void *arg)
{
	return slow_quiet;
}

static void slow_run(unsigned long gap, unsigned long quiet, bool with_op)
{
	struct ekdb_chan ch = { .getc = slow_getc, .putc = F.ch.chan.putc,
				.flush = F.ch.chan.flush, .arg = F.ch.chan.arg,
				.quiet_polls = with_op ? slow_quiet_polls : NULL };
	struct ekdb_stop stop = { .reason = EKDB_STOP_ENTRY, .signal = 5, .thread = 1,
				  .bp_index = -1, .vector = -1 };
	const struct ekdb_chan *saved = F.s.chan;

	slow_script = "$qSupported:swbreak+#c9$Hg0#df";
	slow_gap = gap;
	slow_quiet = quiet;
	slow_pos = slow_empty = 0;
	F.s.chan = &ch;
	F.r = kdb_session_run(&F.s, &stop, false);
	F.s.chan = saved;
}

static void test_gdb_backlog_pause_per_channel(void **state)
{
	const char *buf;
	size_t len;

	/* a gap shorter than the channel's pause: still the backlog */
	slow_run(4, 5, true);
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	kdb_session_pushback(&F.s, &buf, &len);
	assert_int_equal(len, 7);
	assert_memory_equal(buf, "$Hg0#df", 7);
	/* a gap as long as the pause: the greeting is the live frame; what
	 * follows is left for the stub to read */
	slow_run(5, 5, true);
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	kdb_session_pushback(&F.s, &buf, &len);
	assert_memory_equal(buf, "$qSupported:", 12);
	assert_int_equal(slow_pos, strlen("$qSupported:swbreak+#c9"));
	/* a channel that says nothing: a serial port's pause */
	slow_run(5, 5, false);
	kdb_session_pushback(&F.s, &buf, &len);
	assert_memory_equal(buf, "$Hg0#df", 7);
}

static void test_eof(void **state)
{
	kdb_run("md 0x1000 1");
	assert_int_equal(F.r.action, EKDB_RESUME_EOF);
	kdb_run("md 0x1000 1\x1b[");
	assert_int_equal(F.r.action, EKDB_RESUME_EOF);
	kdb_setenv(&F.s, "LINES", "3");
	kdb_run("md 0x1000 10\r");
	assert_int_equal(F.r.action, EKDB_RESUME_EOF);
}

static void test_long_line(void **state)
{
	static char in[1024];

	memset(in, 'a', 600);
	in[600] = 0;
	assert_int_equal(strlen(typed(in)), KDB_LINE_MAX - 1);
}

/*
 * A live line (chan.drop_stale): what waits when a stop begins was typed
 * before it and is dropped, up to a '$' (kept with what follows: gdb's
 * packet).  The sim channel's EKDB_NO_CHAR every 2nd call marks where the
 * waiting bytes end.  Not after gdb gave the line back (from_gdb).
 */
static void test_stale_input(void **state)
{
	const char *buf;
	size_t len;

	F.ch.chan.drop_stale = true;
	F.ch.nochar_every = 2;			/* 'z' waits; the rest comes later */
	assert_string_equal(typed("zabc"), "abc");
	F.ch.nochar_every = 0;			/* all of it waits */
	kdb_run("xy$?#3f");
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	kdb_session_pushback(&F.s, &buf, &len);
	assert_int_equal(len, 5);
	assert_memory_equal(buf, "$?#3f", 5);
	F.s.from_gdb = true;			/* back from gdb: nothing dropped */
	F.ch.nochar_every = 2;
	assert_string_equal(typed("zabc"), "zabc");
	F.ch.chan.drop_stale = false;		/* a scripted channel: nothing dropped */
	assert_string_equal(typed("zabc"), "zabc");
	assert_int_equal(F.s.stale_dropped, 3);	/* z, x, y */
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, kdb_fix_setup)
	const struct CMUnitTest tests[] = {
		T(test_editing_keys), T(test_echo), T(test_crlf), T(test_history_keys),
		T(test_history_32), T(test_completion), T(test_interrupt),
		T(test_repeat), T(test_gdb_at_prompt), T(test_gdb_packet_rules), T(test_gdb_after_noise), T(test_gdb_backlog), T(test_gdb_backlog_pause_per_channel), T(test_eof), T(test_long_line), T(test_stale_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
