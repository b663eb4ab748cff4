/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_kdb_pager.c - kdb's more> pager against Linux 6.1's vkdb_printf():
 * page lengths (the echoed Enter counts, a line wider than COLUMNS counts
 * once more per COLUMNS+1 characters, LINES <= 1 is 24), the keys (space,
 * Enter, q, '/' search, anything else refused with Linux's words) and the
 * bad inputs (an unknown key, '/' while grepping, Ctrl-C and the end of
 * input inside a search, a search that matches nothing, Backspace in it).
 * The sim target's memory at 0x1000 holds 0x00, 0x01, ...: md prints one
 * 16-byte line per address 0x1000, 0x1010, ...
 */
#include "kdb_test_util.h"
#include "../../kdb/kdb.h"

#define L(a) "0x000000000000" #a " "

/* LINES 5: the first page is LINES-2 lines (the echoed Enter counts), q
 * drops the rest and leaves more> on the screen with a newline, as Linux. */
static void test_first_page_and_q(void **state)
{
	const char *o;

	kdb_setenv(&F.s, "LINES", "5");
	o = kdb_run("md 0x1000 20\rq");
	assert_has(o, L(1020));
	assert_hasnt(o, L(1030));
	assert_has(o, "more> \n[0]kdb> ");
}

/* space: a page of LINES-1 lines; Enter: one line; CR LF counts once; the
 * prompt is wiped before the next line. */
static void test_space_enter(void **state)
{
	const char *o;

	kdb_setenv(&F.s, "LINES", "5");
	o = kdb_run("md 0x1000 20\r \rq");
	assert_has(o, L(1060));
	assert_has(o, L(1070));
	assert_hasnt(o, L(1080));
	o = kdb_run("md 0x1000 20\r\r\nq");
	assert_has(o, L(1030));
	assert_hasnt(o, L(1040));
	assert_has(F.ch.out, "more> \r      \r");
	/* the next command starts afresh */
	assert_has(kdb_run("md 0x1000 20\rq" "rd\r"), "ax: ");
}

/* Any other key: Linux's refusal; its two lines count, the output goes on. */
static void test_other_key(void **state)
{
	const char *o;

	kdb_setenv(&F.s, "LINES", "5");
	o = kdb_run("md 0x1000 20\rxq");
	assert_has(o, "more> \nOnly 'q', 'Q' or '/' are processed at more prompt, input ignored\n"
		      L(1030));
	assert_has(o, L(1040));
	assert_hasnt(o, L(1050));
	/* a Tab, a digit: the same */
	o = kdb_run("md 0x1000 20\r\t7q");
	assert_has(o, L(1060));
	assert_hasnt(o, L(1070));
}

/* '/': search> reads a string; output skips to the first line with it,
 * then pages on (the search's own Enter counts, as Linux's kdb_getstr). */
static void test_search(void **state)
{
	const char *o;

	kdb_setenv(&F.s, "LINES", "5");
	o = kdb_run("md 0x1000 20\r/10a0\rq");
	assert_has(o, "more> search> 10a0\n" L(10a0));
	assert_hasnt(o, L(1030));
	assert_hasnt(o, L(1090));
	assert_has(o, L(10c0));
	assert_hasnt(o, L(10d0));
	/* Backspace edits the string; SEARCHPROMPT replaces the prompt */
	kdb_setenv(&F.s, "SEARCHPROMPT", "find: ");
	o = kdb_run("md 0x1000 20\r/10b1\x7f" "0\rq");
	assert_has(o, "find: 10b1\b \b0\n" L(10b0));
	assert_hasnt(o, L(10a0));
}

/* A search that matches nothing drops the rest; Ctrl-C or the end of
 * input inside search> drops it too; an empty string searches nothing. */
static void test_search_bad(void **state)
{
	const char *o;

	kdb_setenv(&F.s, "LINES", "5");
	o = kdb_run("md 0x1000 20\r/nosuch\rrd\r");
	assert_hasnt(o, L(1030));
	assert_hasnt(o, L(1130));
	assert_has(o, "ax: ");
	o = kdb_run("md 0x1000 20\r/10\x03rd\r");
	assert_hasnt(o, L(1030));
	assert_has(o, "ax: ");
	o = kdb_run("md 0x1000 20\r/10");
	assert_hasnt(o, L(1030));
	assert_int_equal(F.r.action, EKDB_RESUME_EOF);
	o = kdb_run("md 0x1000 20\r/\rq");
	assert_has(o, L(1030));
	assert_hasnt(o, L(1070));
}

/* '/' while the output is grepped: Linux's refusal. */
static void test_search_while_grep(void **state)
{
	const char *o;

	kdb_setenv(&F.s, "LINES", "4");
	o = kdb_run("md 0x1000 40 | grep 0x0000\r/q");
	assert_has(o, "more> \n'/' cannot be used during | grep filtering, input ignored\n");
	assert_hasnt(o, "search> ");
}

/* A line wider than COLUMNS counts 1 + len / (COLUMNS + 1) lines. */
static void test_wide_lines(void **state)
{
	const char *o;

	kdb_setenv(&F.s, "LINES", "10");
	kdb_setenv(&F.s, "COLUMNS", "20");		/* md lines: 70 chars, 4 lines each */
	o = kdb_run("md 0x1000 20\rq");
	assert_has(o, L(1010));
	assert_hasnt(o, L(1020));
}

/* LINES unset, not a number, or <= 1: 24 (Linux's fallback), so 22 lines. */
static void test_lines_fallback(void **state)
{
	static const char *const v[] = { NULL, "1", "0", "junk" };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const char *o;

		if (v[i])
			kdb_setenv(&F.s, "LINES", v[i]);
		o = kdb_run("md 0x1000 40\rq");
		assert_has(o, L(1150));
		assert_hasnt(o, L(1160));
	}
}

/* Ctrl-C at more> stops the output (ekdb's; Linux refuses it as a key). */
static void test_ctrl_c(void **state)
{
	const char *o;

	kdb_setenv(&F.s, "LINES", "5");
	o = kdb_run("md 0x1000 20\r\x03rd\r");
	assert_hasnt(o, L(1030));
	assert_has(o, "ax: ");
}

/*
 * Ctrl-C while output runs behind `| grep` that hides it: no more>
 * prompt ever comes, so only the poll between lines can stop it (it did
 * not look: `md 0 100000000 | grep x` ran to its end).
 */
static void test_ctrl_c_while_grep_hides_all(void **state)
{
	const char *o;

	/* lines from 0x1100 on would pass the filter: none is reached */
	o = kdb_run("md 0x1000 400 | grep 0x00000000000011\r\x03" "rd\r");
	assert_hasnt(o, L(1000));
	assert_hasnt(o, L(1100));
	assert_has(o, "ax: ");
	/* without the Ctrl-C the same filter shows them */
	assert_has(kdb_run("md 0x1000 400 | grep 0x00000000000011\r"), L(1100));
}

/* The same for a more> search that has not found its line yet. */
static void test_ctrl_c_while_search_finds_nothing_yet(void **state)
{
	const char *o;

	kdb_setenv(&F.s, "LINES", "5");
	/* the lines from 0x1100 on would match: none is reached */
	o = kdb_run("md 0x1000 400\r/0x00000000000011\r\x03" "rd\r");
	assert_has(o, "search> 0x00000000000011");
	assert_hasnt(o, L(1100));
	assert_has(o, "ax: ");
}

/*
 * Keys typed while output runs wait in the typeahead in the order typed,
 * and a Ctrl-C typed behind them still stops the output (the check took
 * the typeahead's first key and put it back at its end: it never read on,
 * and it turned "xy" into "yx").
 */
static void test_typeahead_then_ctrl_c(void **state)
{
	const char *o;

	kdb_setenv(&F.s, "LINES", "1000");
	o = kdb_run("md 0x1000 400\rxy\x03\r");
	assert_hasnt(o, L(1100));
	assert_has(o, "Unknown kdb command: 'xy'");
}

/*
 * More keys than the typeahead holds, typed while a long dump is hidden
 * (a more> search that finds nothing, as the kdb-line fuzzer typed it):
 * the output stops when the typeahead fills, says so, and the keys run at
 * the prompt, none dropped.  The check used to stop reading at a full
 * typeahead: the Ctrl-C behind the keys was never seen and the dump ran
 * to its end (73 s for one fuzz input).  A defcmd stops there too.
 */
static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_typeahead_full_stops_output(void **state)
{
	char keys[KDB_TYPEAHEAD + 16], in[256];
	const char *o;

	memset(keys, 'x', sizeof(keys));
	keys[KDB_TYPEAHEAD - 1] = '\r';	/* a full line of 63 x's and Enter */
	keys[sizeof(keys) - 1] = 0;
	kdb_setenv(&F.s, "LINES", "5");
	snprintf(in, sizeof(in), "md 0x1000 400\r/nowhere\r%s\x03\rrd\r", keys);
	o = kdb_run(in);
	assert_has(o, "search> nowhere");
	assert_has(o, "kdb: typeahead full, output stopped\n");
	assert_hasnt(o, L(2000));
	/* the 63 x's ran as a command at the prompt; the rest of the keys after it */
	assert_has(o, "Unknown kdb command: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'");
	assert_has(o, "ax: ");
	/* the same without a search: plain lines, no pager */
	kdb_setenv(&F.s, "LINES", "1000");
	snprintf(in, sizeof(in), "md 0x1000 400\r%s\r", keys);
	o = kdb_run(in);
	assert_has(o, "kdb: typeahead full, output stopped\n");
	assert_hasnt(o, L(2000));
	/* a macro: stopped as by Ctrl-C */
	kdb_run_cmds(&F.s, "defcmd two \"\" \"\"\n  md 0x1000 400\n  md 0x2000 400\nendefcmd\n");
	snprintf(in, sizeof(in), "two\r%s\r", keys);
	o = kdb_run(in);
	assert_int_equal(count(o, "kdb: typeahead full, output stopped\n"), 1);
	assert_hasnt(o, "md 0x2000");	/* the macro stopped there, as at Ctrl-C */
}

/*
 * A long run of zero words prints nothing until it ends (Linux's kdb_md()
 * folds it into one "zero suppressed" line), so no printed line polls for
 * Ctrl-C: `mdp 0x10000000 21020b0` on 256 MiB of zeroes ran 8 s under QEMU
 * after Ctrl-C.  The scan polls every MD_POLL_WORDS words: a Ctrl-C typed
 * behind the command stops it after at most that many more reads (counted
 * here, not timed).  The fuzzer's input (issue 33): that mdp typed twice,
 * behind a more> search that finds nothing and bytes of noise, each with a
 * Ctrl-C; and virtual `md` scans the same way.
 */
#define ZERO_BYTES	(64ull << 20)	/* physical [0, 64 MiB) reads as zeroes */
static unsigned long zero_reads;

static long zero_phys_read(u64 paddr, void *buf, size_t len)
{
	zero_reads++;
	if (paddr >= ZERO_BYTES || len > ZERO_BYTES - paddr)
		return -1;
	memset(buf, 0, len);
	return (long)len;
}

static void test_ctrl_c_inside_zero_run(void **state)
{
	const char *o;

	F.sim.host.phys_read = zero_phys_read;
	kdb_setenv(&F.s, "LINES", "10000");
	/* without Ctrl-C: the whole run is read, folded into one line */
	zero_reads = 0;
	o = kdb_run("mdp 0 0x400000\r");
	assert_has(o, "\n0x0000000000000010-0x0000000003ffffef zero suppressed\nphys 0x0000000003fffff0 ");
	assert_true(zero_reads >= ZERO_BYTES / 8);
	/* Ctrl-C typed behind it: stopped within one poll's words, the next command runs */
	zero_reads = 0;
	o = kdb_run("mdp 0 0x400000\r\x03rd\r");
	assert_true(zero_reads <= 4096 + 16);
	assert_hasnt(o, "zero suppressed");
	assert_has(o, "ax: ");
	/* the fuzzer's input: twice between noise, each stopped by a Ctrl-C behind the
	 * noise (all the keys typed meanwhile are read at one poll; they run at the prompt) */
	zero_reads = 0;
	o = kdb_run("mdp 0 21020b0\r#!noise 9\r\x03mdp 0 21020b0\r&*zz\r\x03rd\r");
	assert_true(zero_reads <= 2 * (4096 + 16));
	assert_int_equal(count(o, "Unknown kdb command: '#!noise 9'"), 1);
	assert_int_equal(count(o, "Unknown kdb command: '&*zz'"), 1);
	assert_hasnt(o, "zero suppressed");
	assert_has(o, "ax: ");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, kdb_fix_setup)
	const struct CMUnitTest tests[] = {
		T(test_first_page_and_q), T(test_space_enter), T(test_other_key), T(test_search),
		T(test_search_bad), T(test_search_while_grep), T(test_wide_lines),
		T(test_lines_fallback), T(test_ctrl_c), T(test_ctrl_c_while_grep_hides_all),
		T(test_typeahead_then_ctrl_c), T(test_ctrl_c_while_search_finds_nothing_yet),
		T(test_typeahead_full_stops_output), T(test_ctrl_c_inside_zero_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
