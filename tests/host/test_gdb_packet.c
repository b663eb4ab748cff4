/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_gdb_packet.c - gdb framing (checksums, acks, retransmit, no-ack,
 * garbage, oversize, split input, reconnect, the backlog behind a request),
 * console output and the kdb sniffer.  The encodings of a reply: test_gdb_encode.c.
 */
#include "gdb_test_util.h"
#include <ekdb/hex.h>
#include <asm/regs_table.h>

#define Q_REPLY "$T05thread:1;core:0;#"

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

static void test_good_packet(void **state)
{
	struct gt *g = gt_new_plain(1);

	gt_add_raw(g, "$?#3f", 5);
	assert_int_equal(gt_run(g), 1);
	assert_int_equal(g->ch.out[0], '+');
	assert_string_equal(g->reply, "T05thread:1;core:0;");
	assert_int_equal(g->res.action, EKDB_RESUME_EOF);
	assert_int_equal(g->s.rx_packets, 1);
}

static void test_bad_checksum(void **state)
{
	struct gt *g = gt_new_plain(1);

	gt_add_raw(g, "$?#00", 5);
	assert_int_equal(gt_run(g), 0);
	assert_string_equal(g->ch.out, "-");
	gt_add_raw(g, "$?#zz", 5);
	assert_int_equal(gt_run(g), 0);
	assert_string_equal(g->ch.out, "-");
	gt_add_raw(g, "$?#3", 4);	/* EOF inside the checksum */
	assert_int_equal(gt_run(g), 0);
	gt_add_raw(g, "$?", 2);		/* EOF inside the payload */
	assert_int_equal(gt_run(g), 0);
	assert_int_equal(g->s.rx_bad_checksum, 2);
	/* after a NAK the same (now good) packet is answered */
	gt_add_raw(g, "$?#00$?#3f", 10);
	assert_int_equal(gt_run(g), 1);
	assert_int_equal(g->ch.out[0], '-');
	assert_int_equal(g->ch.out[1], '+');
}

static void test_garbage_and_ctrl_c(void **state)
{
	struct gt *g = gt_new_plain(1);

	gt_add_raw(g, "hello\x03\x03+++\r\n#00\xff\x00", 16);
	gt_add_packet(g, "?");
	gt_add_raw(g, "\x03", 1);
	gt_add_packet(g, "qC");
	assert_int_equal(gt_run(g), 2);
	assert_string_equal(g->reply, "QC1");
	assert_int_equal(gt_acks(g->ch.out), 2);
	/* Uppercase hex checksum is fine */
	gt_add_raw(g, "$qC#B4", 6);
	assert_int_equal(gt_run(g), 1);
	assert_string_equal(g->reply, "QC1");
}

/*
 * Issue 21: a line a person types at a line gdb owned (gdb killed without
 * a word) gives the line back to kdb, as "$3#33" does: no reply, gdb gone.
 * Noise does not: one byte before Enter, a Ctrl-C or '+' in the middle.
 */
static void test_typed_line_gives_kdb(void **state)
{
	static const char *const typed[] = { "ps\r", "help\n", "+md setup_arch 1\r", "bt\r\n" };
	static const char *const noise[] = { "x\r", "p\x03s\r", "p+s\r", "\r\n\r", " q\r", "a-b\r" };
	struct gt *g = gt_new_plain(1);

	for (size_t i = 0; i < sizeof(typed) / sizeof(typed[0]); i++) {
		assert_string_equal(gt_ask(g, "?"), "T05thread:1;core:0;");
		gt_add_raw(g, typed[i], strlen(typed[i]));
		assert_int_equal(gt_run(g), 0);			/* no reply */
		assert_int_equal(g->res.action, EKDB_RESUME_TO_KDB);
	}
	for (size_t i = 0; i < sizeof(noise) / sizeof(noise[0]); i++) {
		gt_add_raw(g, noise[i], strlen(noise[i]));
		gt_add_packet(g, "?");
		assert_int_equal(gt_run(g), 1);
		assert_string_equal(g->reply, "T05thread:1;core:0;");
		assert_int_equal(g->res.action, EKDB_RESUME_EOF);	/* the script ended: not to kdb */
	}
}

static void test_restart_on_dollar(void **state)
{
	struct gt *g = gt_new_plain(1);

	gt_add_raw(g, "$m10$m1000,1", 12);
	gt_add_raw(g, "$?#3f", 5);
	assert_int_equal(gt_run(g), 1);
	assert_string_equal(g->reply, "T05thread:1;core:0;");
}

static void test_split_reads(void **state)
{
	struct gt *g = gt_new_plain(1);

	g->ch.nochar_every = 2;		/* NO_CHAR before every other byte */
	gt_add_packet(g, "m1000,4");
	gt_add_packet(g, "?");
	assert_int_equal(gt_run(g), 2);
	assert_string_equal(g->reply, "T05thread:1;core:0;");
	assert_non_null(strstr(g->ch.out, "$00010203#"));
}

static void test_retransmit(void **state)
{
	struct gt *g = gt_new_plain(1);
	int i;

	gt_add_packet(g, "?");
	gt_add_raw(g, "-", 1);
	assert_int_equal(gt_run(g), 2);
	assert_int_equal(count(g->ch.out, Q_REPLY), 2);
	/* bounded: at most GDB_MAX_RETRANSMIT resends in a row */
	gt_add_packet(g, "?");
	for (i = 0; i < 50; i++)
		gt_add_raw(g, "-", 1);
	assert_int_equal(gt_run(g), 1 + GDB_MAX_RETRANSMIT);
	/* a good packet resets the count; '-' with nothing sent does nothing */
	gdb_session_disconnect(&g->s);
	gt_add_raw(g, "---", 3);
	assert_int_equal(gt_run(g), 0);
	assert_int_equal(g->ch.out_len, 0);
	/* a command without a reply (continue): a '-' after it resends nothing */
	gt_add_packet(g, "?");
	gt_add_packet(g, "c");
	gt_run(g);
	gt_add_raw(g, "-", 1);
	assert_int_equal(gt_run(g), 0);
	assert_null(strstr(g->ch.out, "$#00"));
}

static void test_no_ack_mode(void **state)
{
	struct gt *g = gt_new_plain(1);

	gt_add_packet(g, "QStartNoAckMode");
	gt_add_raw(g, "+", 1);
	gt_add_packet(g, "?");
	gt_add_raw(g, "-", 1);		/* ignored in no-ack mode */
	gt_add_raw(g, "$?#00", 5);	/* bad checksum: dropped silently */
	gt_add_packet(g, "qC");
	assert_int_equal(gt_run(g), 3);
	assert_int_equal(gt_acks(g->ch.out), 1);	/* only QStartNoAckMode was acked */
	assert_int_equal(count(g->ch.out, "-"), 0);
	assert_int_equal(strncmp(g->ch.out, "+$OK#9a$T05", 11), 0);
}

/* lldb negotiates no-ack mode before qSupported: it stays in force. */
static void test_no_ack_lldb_order(void **state)
{
	struct gt *g = gt_new_plain(1);

	gt_add_raw(g, "+", 1);
	gt_add_packet(g, "QStartNoAckMode");
	gt_add_raw(g, "+", 1);		/* lldb acks the OK, then stops acking */
	gt_add_packet(g, "qSupported:xmlRegisters=i386,arm,mips,arc;multiprocess+");
	gt_add_packet(g, "?");
	gt_add_packet(g, "qSupported:xmlRegisters=i386");	/* a later one: a new client */
	gt_add_packet(g, "qC");
	assert_int_equal(gt_run(g), 5);
	/* acked: QStartNoAckMode, then only the second qSupported and qC */
	assert_int_equal(strncmp(g->ch.out, "+$OK#9a$PacketSize=", 19), 0);
	assert_int_equal(gt_acks(g->ch.out), 3);
	assert_non_null(strstr(g->ch.out, Q_REPLY));
	assert_null(strstr(g->ch.out, "+$T05"));
}

static void test_reconnect(void **state)
{
	struct gt *g = gt_new_plain(2);
	struct ekdb_resume r;

	/* first gdb: no-ack mode, selects thread 2, then vanishes (no D) */
	gt_add_raw(g, "+", 1);
	gt_add_packet(g, "qSupported:swbreak+");
	gt_add_packet(g, "QStartNoAckMode");
	gt_add_packet(g, "Hg2");
	gt_add_packet(g, "qSupported:multiprocess+;swbreak+;hwbreak+");
	gt_add_packet(g, "?");
	gt_add_packet(g, "QStartNoAckMode");
	gt_add_packet(g, "qC");
	sim_chan_clear_output(&g->ch);
	sim_chan_feed(&g->ch, g->script, g->script_len);
	r = gdb_session_run(&g->s, &g->stop, false);
	assert_int_equal(r.action, EKDB_RESUME_EOF);
	gt_parse_output(g);
	/* acks: qSupported, QStartNoAckMode; then the new qSupported, ?, QStartNoAckMode */
	assert_int_equal(gt_acks(g->ch.out), 5);
	assert_string_equal(g->reply, "QC1");
	assert_non_null(strstr(g->ch.out, "+" Q_REPLY));
}

static void test_oversize(void **state)
{
	struct gt *g = gt_new_plain(1);
	static char big[3 * GT_BUF];

	memset(big, 'm', sizeof(big));
	gt_add_packet_n(g, big, sizeof(big));
	gt_add_packet(g, "?");
	assert_int_equal(gt_run(g), 1);
	assert_int_equal(g->ch.out[0], '-');
	assert_string_equal(g->reply, "T05thread:1;core:0;");
	assert_int_equal(g->s.rx_oversize, 1);
	/* exactly the advertised PacketSize (bufsize - 1) fits */
	memset(big, 'q', GT_BUF - 1);
	gt_add_packet_n(g, big, GT_BUF - 1);
	assert_int_equal(gt_run(g), 1);
	assert_string_equal(g->reply, "");
	memset(big, 'q', GT_BUF);
	gt_add_packet_n(g, big, GT_BUF);
	assert_int_equal(gt_run(g), 0);
	/* no-ack mode: an error reply instead of a NAK */
	gt_add_packet(g, "QStartNoAckMode");
	gt_add_packet_n(g, big, sizeof(big));
	assert_int_equal(gt_run(g), 2);
	assert_string_equal(g->reply, "E07");
}

static void test_announce(void **state)
{
	struct gt *g = gt_new_plain(1);
	struct ekdb_resume r;

	/* kgdbwait before gdb connected: nothing is sent */
	sim_chan_feed(&g->ch, "", 0);
	r = gdb_session_run(&g->s, &g->stop, true);
	assert_int_equal(r.action, EKDB_RESUME_EOF);
	assert_int_equal(g->ch.out_len, 0);
	/* connected gdb after 'c': the stop reply is sent first */
	gt_add_packet(g, "c");
	gt_run(g);
	assert_int_equal(g->res.action, EKDB_RESUME_CONTINUE);
	assert_true(gdb_session_connected(&g->s));
	g->stop.reason = EKDB_STOP_WATCH;
	g->stop.watch_addr = 0x1008;
	sim_chan_clear_output(&g->ch);
	sim_chan_feed(&g->ch, "+", 1);
	gdb_session_run(&g->s, &g->stop, true);
	gt_parse_output(g);
	assert_string_equal(g->reply, "T05thread:1;core:0;watch:1008;");
	/* gdb NAKs the stop reply: it is sent again */
	gt_add_packet(g, "c");
	gt_run(g);
	sim_chan_clear_output(&g->ch);
	sim_chan_feed(&g->ch, "-+", 2);
	gdb_session_run(&g->s, &g->stop, true);
	assert_int_equal(count(g->ch.out, "$T05"), 2);
}

static void test_console_output(void **state)
{
	struct gt *g = gt_new_plain(1);
	char big[300];

	gdb_session_output(&g->s, "hi", 2);
	assert_int_equal(g->ch.out_len, 0);	/* not connected: nothing */
	gt_add_packet(g, "c");
	gt_run(g);
	sim_chan_clear_output(&g->ch);
	gdb_session_output(&g->s, "hi\n", 3);
	assert_string_equal(g->ch.out, "$O68690a#bd");
	gdb_session_output(&g->s, "", 0);
	assert_string_equal(g->ch.out, "$O68690a#bd");
	/* long text is chunked */
	sim_chan_clear_output(&g->ch);
	memset(big, 'a', sizeof(big));
	gdb_session_output(&g->s, big, sizeof(big));
	assert_int_equal(gt_parse_output(g), 3);
	assert_int_equal(g->ch.out_len, 3 * 5 + 2 * sizeof(big));
}

static void test_pushback(void **state)
{
	struct gt *g = gt_new_plain(1);
	static const char seen[] = "+$qSupported:swbreak+#";
	unsigned char sum = 0;
	char cs[3];
	size_t i;

	/* kdb read "$qSupported...#" then handed over; the rest is on the wire */
	for (i = 2; i < sizeof(seen) - 2; i++)
		sum += (unsigned char)seen[i];
	snprintf(cs, sizeof(cs), "%02x", sum);
	gdb_session_pushback(&g->s, seen, sizeof(seen) - 1);
	gt_add_raw(g, cs, 2);
	gt_add_packet(g, "?");
	assert_int_equal(gt_run(g), 2);
	assert_non_null(strstr(g->ch.out, "PacketSize="));
	assert_string_equal(g->reply, "T05thread:1;core:0;");
	assert_int_equal(g->s.rx_bad_checksum, 0);
}

static void test_sniff(void **state)
{
	static const struct {
		const char *in;
		enum gdb_sniff want;
	} tab[] = {
		{ "", GDB_SNIFF_NO },
		{ "md 0x1000", GDB_SNIFF_NO },
		{ "go", GDB_SNIFF_NO },
		{ "+", GDB_SNIFF_MAYBE },
		{ "+$", GDB_SNIFF_MAYBE },
		{ "$q", GDB_SNIFF_MAYBE },
		{ "$qSupp", GDB_SNIFF_MAYBE },
		{ "$qSupported", GDB_SNIFF_YES },
		{ "+$qSupported:multiprocess+", GDB_SNIFF_YES },
		{ "$?#3f", GDB_SNIFF_YES },
		{ "$?#3", GDB_SNIFF_MAYBE },
		{ "\x03$?#3f", GDB_SNIFF_YES },
		{ "$g#67", GDB_SNIFF_YES },
		{ "$g#00", GDB_SNIFF_NO },
		{ "$g#zz", GDB_SNIFF_NO },
		{ "$qX", GDB_SNIFF_MAYBE },
		{ "x$?#3f", GDB_SNIFF_NO },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (gdb_sniff(tab[i].in, strlen(tab[i].in)) != tab[i].want)
			fail_msg("sniff \"%s\": want %d", tab[i].in, tab[i].want);
}

static void test_init_errors(void **state)
{
	struct gt *g = gt_new_plain(1);
	static char small_in[GDB_MIN_BUFSIZE - 1], small_out[GDB_MIN_BUFSIZE - 1];
	static char in2[8192], out2[8192];
	struct ekdb_chan nochan = { 0 };

	assert_int_equal(gdb_session_init(&g->s, &g->sim.t, &g->ch.chan, small_in, small_out,
					  sizeof(small_in)), -EKDB_EINVAL);
	assert_int_equal(gdb_session_init(&g->s, &g->sim.t, &nochan, g->in, g->out, GT_BUF),
			 -EKDB_EINVAL);
	assert_int_equal(gdb_session_init(&g->s, NULL, &g->ch.chan, g->in, g->out, GT_BUF),
			 -EKDB_EINVAL);
	assert_int_equal(gdb_session_init(&g->s, &g->sim.t, &g->ch.chan, g->in, g->out, GT_BUF), 0);
	/* move a live session to bigger buffers: the last reply survives */
	gt_add_packet(g, "QStartNoAckMode");
	gt_add_packet(g, "?");
	gt_run(g);
	assert_int_equal(gdb_session_set_buffers(&g->s, in2, out2, sizeof(in2)), 0);
	assert_int_equal(gdb_session_set_buffers(&g->s, in2, out2, 16), -EKDB_EINVAL);
	assert_string_equal(gt_ask(g, "qSupported"), "PacketSize=1fff;qXfer:features:read+;vContSupported+;QStartNoAckMode+;swbreak+;hwbreak+");
}

/*
 * gdb_session_set_buffers on a live session.  The move happens in the
 * middle of one gdb_session_run (when the channel has delivered move_at
 * script bytes), where everything is at stake: a reply was just sent,
 * gdb negotiated features, chose a thread and maybe no-ack mode.  The old
 * buffers are overwritten right after the move.
 */
static struct {
	int (*getc)(void *arg);
	size_t move_at;
	bool moved;
	int err;
	char in2[8192], out2[8192];
} mv;

static int move_getc(void *arg)
{
	struct gt *g = &gt_fixture;

	if (!mv.moved && g->ch.in_pos == mv.move_at) {
		mv.moved = true;
		memset(mv.out2, 'Q', sizeof(mv.out2));
		mv.err = gdb_session_set_buffers(&g->s, mv.in2, mv.out2, sizeof(mv.in2));
		memset(g->out, 'X', sizeof(g->out));
		memset(g->in, 'X', sizeof(g->in));
	}
	return mv.getc(arg);
}

static struct gt *gt_new_moving(int threads)
{
	struct gt *g = gt_new_plain(threads);

	memset(&mv, 0, sizeof(mv));
	mv.getc = g->ch.chan.getc;
	g->ch.chan.getc = move_getc;
	return g;
}

/* Split the captured output into packet payloads (checksums checked by gt_parse_output). */
static int payloads(struct gt *g, char out[][512], int max)
{
	const char *o = g->ch.out;
	int n = 0;

	assert_true(gt_parse_output(g) > 0);
	while ((o = strchr(o, '$')) && n < max) {
		const char *e = strchr(o, '#');

		assert_non_null(e);
		assert_true(e - o - 1 < 512);
		memcpy(out[n], o + 1, (size_t)(e - o - 1));
		out[n][e - o - 1] = '\0';
		n++;
		o = e;
	}
	return n;
}

static void test_set_buffers_keeps_last_reply_thread_features(void **state)
{
	struct gt *g = gt_new_moving(2);
	char p[8][512];

	g->stop.reason = EKDB_STOP_SWBREAK;
	gt_add_packet(g, "qSupported:swbreak+;hwbreak+");
	gt_add_packet(g, "Hg2");
	gt_add_packet(g, "p10");			/* rip of thread 2 */
	gt_add_packet(g, "?");
	mv.move_at = g->script_len;
	gt_add_raw(g, "-", 1);				/* gdb NAKs the '?' reply */
	gt_add_packet(g, "p10");
	gt_add_packet(g, "?");
	assert_int_equal(gt_run(g), 7);
	assert_true(mv.moved);
	assert_int_equal(mv.err, 0);
	assert_int_equal(payloads(g, p, 8), 7);
	assert_string_equal(p[4], p[3]);		/* resent from the new buffer */
	assert_int_equal(g->s.tx_retransmits, 1);
	assert_string_equal(p[5], p[2]);		/* still thread 2 */
	assert_non_null(strstr(p[6], "swbreak:;"));	/* swbreak+ still known */
	assert_ptr_equal(g->s.outbuf, mv.out2);
	assert_ptr_equal(g->s.inbuf, mv.in2);
	/* thread 1's rip differs, so p[5] really is thread 2's */
	memset(&mv, 0, sizeof(mv));
	g = gt_new_plain(2);
	assert_string_not_equal(gt_ask(g, "p10"), p[5]);
}

/* No-ack mode survives the move: no '+' after it, and a '-' is not a NAK. */

/*
 * A live line (drop_stale): the script's end is a quiet line for LIVE_IDLE
 * polls before it closes, and LIVE_PAUSE in the script is a pause longer
 * than the channel's (gdb waiting for a reply, or for its timeout).
 */
#define LIVE_PAUSE	'\x01'
#define LIVE_QUIET	16		/* quiet_polls: the settle is 2 of them */
#define LIVE_IDLE	64

static struct live {
	struct sim_chan *c;
	unsigned quiet;
} live;

static int live_getc(void *arg)
{
	struct sim_chan *c = live.c;
	int ch;

	if (live.quiet) {
		live.quiet--;
		return EKDB_NO_CHAR;
	}
	if (c->in_pos >= c->in_len) {
		if (c->idle_calls++ < LIVE_IDLE)
			return EKDB_NO_CHAR;
		return EKDB_CHAN_EOF;
	}
	ch = c->in[c->in_pos++];
	if (ch == LIVE_PAUSE) {
		live.quiet = 4 * LIVE_QUIET;
		return EKDB_NO_CHAR;
	}
	c->idle_calls = 0;
	return ch;
}

static unsigned long live_quiet_polls(void *arg)
{
	return LIVE_QUIET;
}

static struct gt *gt_new_live(void)
{
	struct gt *g = gt_new_plain(1);

	live.c = &g->ch;
	live.quiet = 0;
	g->ch.chan.getc = live_getc;
	g->ch.chan.quiet_polls = live_quiet_polls;
	g->ch.chan.drop_stale = true;
	return g;
}

/* "mADDR,4" for one of the sim's RAM bytes, and the hex gdb must get back */
#define REQ_A	"m1010,4"
#define ANS_A	"10111213"
#define REQ_B	"m1020,4"
#define ANS_B	"20212223"

/*
 * Issue 33: the line stalled with gdb's request on it.  gdb sent it 4
 * times (no '+' came), NAKed 3 times (no reply came), gave up ('+'), and
 * when the line lets go the stub gets all of it at once, then (later)
 * gdb's next request.  Answering the old one -- once per copy and once
 * per '-', as before -- gave gdb a '+' and the old reply for its next
 * request.  Only the next request is answered, once.
 */
static void test_backlog_after_a_stall(void **state)
{
	struct gt *g = gt_new_live();
	int i;

	for (i = 0; i < 4; i++)
		gt_add_packet(g, REQ_A);
	gt_add_raw(g, "---+", 4);
	gt_add_raw(g, "\x01", 1);
	gt_add_packet(g, REQ_B);
	assert_int_equal(gt_run(g), 1);
	assert_int_equal(gt_acks(g->ch.out), 1);
	assert_int_equal(g->ch.out[0], '+');
	assert_string_equal(g->reply, ANS_B);
	assert_int_equal(g->s.rx_stale, 4);	/* 3 copies replaced, the last given up */
	assert_int_equal(g->s.rx_packets, 1);

	/* the stall let go before gdb gave up: it waits (its '-'), one answer */
	for (i = 0; i < 3; i++)
		gt_add_packet(g, REQ_A);
	gt_add_raw(g, "--", 2);
	assert_int_equal(gt_run(g), 1);
	assert_int_equal(gt_acks(g->ch.out), 1);
	assert_string_equal(g->reply, ANS_A);

	/* gdb went on to another request behind the old one: only that one */
	gt_add_raw(g, "+", 1);
	gt_add_packet(g, REQ_A);
	gt_add_packet(g, REQ_B);
	assert_int_equal(gt_run(g), 1);
	assert_int_equal(gt_acks(g->ch.out), 1);
	assert_string_equal(g->reply, ANS_B);
}

/*
 * A copy of a request already answered (gdb's '+' came late, or our '+'
 * was lost): not run and not answered again; gdb's '-' gets the one reply
 * again; after gdb's '+' the same packet is a new request (gdb reads the
 * same memory twice) and a '-' resends nothing (the '-' is about a request
 * that never arrived: the old reply would be taken for its answer).
 */
static void test_copy_of_an_answered_request(void **state)
{
	struct gt *g = gt_new_live();

	gt_add_packet(g, REQ_A);
	gt_add_raw(g, "\x01", 1);
	gt_add_packet(g, REQ_A);		/* copy: silence */
	gt_add_raw(g, "\x01", 1);
	gt_add_packet(g, REQ_A);
	gt_add_raw(g, "\x01-\x01", 3);	/* gdb's timeout: the reply once more */
	assert_int_equal(gt_run(g), 2);
	assert_int_equal(gt_acks(g->ch.out), 1);
	assert_int_equal(count(g->ch.out, "$" ANS_A "#"), 2);
	assert_int_equal(g->s.rx_retransmits, 2);

	/* acked: the same packet again is a new request; a '-' then resends nothing */
	gt_add_raw(g, "+\x01", 2);
	gt_add_packet(g, REQ_A);
	gt_add_raw(g, "\x01+\x01-\x01", 5);
	assert_int_equal(gt_run(g), 1);
	assert_int_equal(gt_acks(g->ch.out), 1);
	assert_string_equal(g->reply, ANS_A);
	assert_int_equal(g->s.tx_retransmits, 1);

	/* a copy is not run again: a monitor command runs once */
	gt_add_packet(g, "qRcmd,6274");	/* "bt" */
	gt_add_raw(g, "\x01", 1);
	gt_add_packet(g, "qRcmd,6274");
	gt_add_raw(g, "\x01", 1);
	gt_run(g);
	assert_int_equal(g->sim.monitor_calls, 1);
	assert_int_equal(gt_acks(g->ch.out), 1);
}

/* No-ack mode has no copies and no '+', but a newer request behind an old one still wins. */
static void test_backlog_no_ack(void **state)
{
	struct gt *g = gt_new_live();

	gt_add_packet(g, "QStartNoAckMode");
	gt_add_raw(g, "\x01", 1);
	gt_add_packet(g, REQ_A);
	gt_add_packet(g, REQ_B);
	/* the same request twice, each after its reply: both answered */
	gt_add_raw(g, "\x01", 1);
	gt_add_packet(g, REQ_A);
	gt_add_raw(g, "\x01", 1);
	gt_add_packet(g, REQ_A);
	/*
	 * No look-ahead in no-ack mode: gdb never resends there, so what
	 * follows a request is answered in turn (A then B, not B alone) and
	 * a Ctrl-C behind a 'c' is left to the running kernel's poll.
	 */
	assert_int_equal(gt_run(g), 5);
	assert_int_equal(count(g->ch.out, "$" ANS_B "#"), 1);
	assert_int_equal(count(g->ch.out, "$" ANS_A "#"), 3);
	assert_int_equal(gt_acks(g->ch.out), 1);	/* QStartNoAckMode's only */
}

/* A scripted channel (all input there at once, not drop_stale) has no backlog: each packet is answered. */
static void test_scripted_channel_has_no_backlog(void **state)
{
	struct gt *g = gt_new_plain(1);

	gt_add_packet(g, REQ_A);
	gt_add_packet(g, REQ_B);
	gt_add_raw(g, "+", 1);
	assert_int_equal(gt_run(g), 2);
	assert_int_equal(gt_acks(g->ch.out), 2);
}

static void test_set_buffers_keeps_no_ack(void **state)
{
	struct gt *g = gt_new_moving(1);
	const char *q;

	gt_add_packet(g, "QStartNoAckMode");
	gt_add_packet(g, "?");
	mv.move_at = g->script_len;
	gt_add_raw(g, "-", 1);
	gt_add_packet(g, "qC");
	assert_int_equal(gt_run(g), 3);			/* OK, stop reply, QC1: no resend */
	assert_true(mv.moved);
	assert_int_equal(mv.err, 0);
	assert_string_equal(g->reply, "QC1");
	q = strstr(g->ch.out, "$QC1#");
	assert_non_null(q);
	assert_true(q - g->ch.out >= 3 && q[-3] == '#');	/* right after a packet: no '+' */
	assert_int_equal(g->s.tx_retransmits, 0);

	/* too small for the last reply (or below the minimum), or no buffer: refused */
	g = gt_new_plain(1);
	assert_non_null(gt_ask(g, "?"));
	assert_int_equal(gdb_session_set_buffers(&g->s, g->in, g->out, 16), -EKDB_EINVAL);
	assert_int_equal(gdb_session_set_buffers(&g->s, NULL, g->out, GT_BUF), -EKDB_EINVAL);
	assert_int_equal(gdb_session_set_buffers(&g->s, g->in, NULL, GT_BUF), -EKDB_EINVAL);
	assert_ptr_equal(g->s.outbuf, g->out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_packet),
		cmocka_unit_test(test_bad_checksum),
		cmocka_unit_test(test_garbage_and_ctrl_c),
		cmocka_unit_test(test_typed_line_gives_kdb),
		cmocka_unit_test(test_restart_on_dollar),
		cmocka_unit_test(test_split_reads),
		cmocka_unit_test(test_retransmit),
		cmocka_unit_test(test_no_ack_mode),
		cmocka_unit_test(test_no_ack_lldb_order),
		cmocka_unit_test(test_reconnect),
		cmocka_unit_test(test_oversize),
		cmocka_unit_test(test_announce),
		cmocka_unit_test(test_console_output),
		cmocka_unit_test(test_pushback),
		cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_init_errors),
		cmocka_unit_test(test_set_buffers_keeps_last_reply_thread_features),
		cmocka_unit_test(test_set_buffers_keeps_no_ack),
		cmocka_unit_test(test_backlog_after_a_stall),
		cmocka_unit_test(test_copy_of_an_answered_request),
		cmocka_unit_test(test_backlog_no_ack),
		cmocka_unit_test(test_scripted_channel_has_no_backlog),
	};

	return cmocka_run_group_tests_name("gdb_packet", tests, NULL, NULL);
}
