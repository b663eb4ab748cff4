/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_gdb_encode.c - what the stub puts on the wire inside a frame:
 * run-length encoding of replies, console output in spans, hex and
 * binary escaping (split from test_gdb_packet.c, which tests the framing).
 */
#include "gdb_test_util.h"
#include <ekdb/hex.h>
#include <asm/regs_table.h>

void gdb_tx_packet(struct gdb_session *s);	/* gdbstub/gdb_int.h: frame outbuf */

/* The payload bytes of the first packet in @o (between '$' and '#'). */
static size_t wire_payload(const char *o, char *buf, size_t size)
{
	const char *b = strchr(o, '$'), *e = b ? strchr(b, '#') : NULL;
	size_t n;

	assert_non_null(e);
	n = (size_t)(e - b - 1);
	assert_true(n < size);
	memcpy(buf, b + 1, n);
	buf[n] = '\0';
	return n;
}

/*
 * Run-length encoding of replies: runs fold into "c*N" with gdb's count
 * (N - 29), never a count of '#' or '$' (runs of 7 and 8), at most 97
 * at a time (a 400-character run), short runs as they are; the checksum
 * covers what was sent; '-' resends the same bytes.
 */
static void test_rle(void **state)
{
	static const struct {
		const char *in;
		const char *out;
	} runs[] = {
		{ "ab", "ab" },
		{ "aaa", "aaa" },		/* 2 repeats: not worth it */
		{ "aaaa", "a* " },		/* 3 repeats: ' ' */
		{ "aaaaaaa", "a*\"a" },		/* 6 would be '#': 5 + 1 */
		{ "aaaaaaaa", "a*\"aa" },	/* 7 would be '$' */
		{ "aaaaaaaaa", "a*%" },		/* 8: '%' */
		{ "x0000000000000000y", "x0*,y" },	/* 15 repeats: ',' */
	};
	struct gt *g = gt_new_plain(1);
	char cmd[1024], wire[1024];
	char *first;
	size_t i, n;


	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		n = strlen(runs[i].in);
		memcpy(g->s.outbuf, runs[i].in, n);
		g->s.outlen = n;
		sim_chan_clear_output(&g->ch);
		gdb_tx_packet(&g->s);
		wire_payload(g->ch.out, wire, sizeof(wire));
		assert_string_equal(wire, runs[i].out);
		gt_parse_output(g);		/* checksum over the sent bytes */
		assert_string_equal(g->reply, runs[i].in);
	}
	/* 200 zero bytes written, read back: 400 '0's on the wire as 5 runs */
	n = (size_t)snprintf(cmd, sizeof(cmd), "M%llx,c8:", (unsigned long long)SIM_RAM0_BASE);
	memset(cmd + n, '0', 400);
	cmd[n + 400] = '\0';
	assert_string_equal(gt_ask(g, cmd), "OK");
	snprintf(cmd, sizeof(cmd), "m%llx,c8", (unsigned long long)SIM_RAM0_BASE);
	gt_add_packet(g, cmd);
	gt_add_raw(g, "-", 1);
	assert_int_equal(gt_run(g), 2);
	assert_int_equal(g->reply_len, 400);
	assert_int_equal(strspn(g->reply, "0"), 400);
	wire_payload(g->ch.out, wire, sizeof(wire));
	assert_string_equal(wire, "0*~0*~0*~0*~0*\"00");	/* 4 x 98, then 8: 6 + 2 */
	first = strchr(g->ch.out, '$');
	assert_non_null(strstr(first + 1, wire));	/* the resend: the same bytes */
}

/* A channel write() that records its spans (and passes the bytes on to the capture). */
static unsigned span_calls;
static size_t span_bytes;

static void span_write(void *arg, const u8 *buf, size_t n)
{
	struct sim_chan *c = arg;

	span_calls++;
	span_bytes += n;
	for (size_t i = 0; i < n; i++)
		c->chan.putc(arg, buf[i]);
}

/*
 * A channel with write(): the same bytes as byte by byte (run-length
 * encoding, checksum), all of them in spans: the stretches of outbuf
 * between runs, "*N" and the trailer.  A memory read at an odd address of
 * an odd length, one longer than a packet can carry (clamped to bufsize/2
 * bytes, as without write()), and a bad one (E22 for a range past 2^64).
 */
static void test_spans(void **state)
{
	static char big[4000];
	struct gt *g = gt_new_plain(1);
	char cmd[64], wire[8192];
	size_t i, half;

	g->ch.chan.write = span_write;
	memcpy(g->s.outbuf, "x0000000000000000y", 18);
	g->s.outlen = 18;
	span_calls = 0;
	span_bytes = 0;
	gdb_tx_packet(&g->s);
	wire_payload(g->ch.out, wire, sizeof(wire));
	assert_string_equal(wire, "x0*,y");
	gt_parse_output(g);
	assert_string_equal(g->reply, "x0000000000000000y");
	assert_int_equal(span_calls, 5);		/* "$" "x0" "*," "y" "#cs" */
	assert_int_equal(span_bytes, g->ch.out_len);	/* nothing byte by byte */

	for (i = 0; i < sizeof(big); i++)		/* no run of 4 anywhere */
		big[i] = "0123456789abcdef"[(i * 7) % 16];
	memcpy(g->s.outbuf, big, sizeof(big));
	g->s.outlen = sizeof(big);
	sim_chan_clear_output(&g->ch);
	span_calls = 0;
	gdb_tx_packet(&g->s);
	assert_int_equal(span_calls, 3);		/* "$", the payload, "#cs" */
	gt_parse_output(g);
	assert_int_equal(g->reply_len, sizeof(big));
	assert_memory_equal(g->reply, big, sizeof(big));

	for (i = 0; i < SIM_RAM0_SIZE; i++)
		g->sim.ram0[i] = (u8)(i * 13 + (i >> 5));
	half = GT_BUF / 2;
	sim_chan_clear_output(&g->ch);
	span_bytes = 0;
	snprintf(cmd, sizeof(cmd), "m%llx,%zx", (unsigned long long)SIM_RAM0_BASE + 3, half + 77);
	assert_non_null(gt_ask(g, cmd));
	assert_int_equal(g->reply_len, 2 * half);	/* clamped to what one reply carries */
	for (i = 0; i < half; i++) {
		char h[3];

		snprintf(h, sizeof(h), "%02x", g->sim.ram0[3 + i]);
		assert_memory_equal(g->reply + 2 * i, h, 2);
	}
	assert_int_equal(span_bytes + (size_t)gt_acks(g->ch.out), g->ch.out_len);	/* '+' goes alone */
	snprintf(cmd, sizeof(cmd), "m%llx,%x", (unsigned long long)SIM_RAM0_BASE + 5, 333);
	assert_non_null(gt_ask(g, cmd));
	assert_int_equal(g->reply_len, 666);
	assert_int_equal(g->reply[0], "0123456789abcdef"[g->sim.ram0[5] >> 4]);
	assert_string_equal(gt_ask(g, "mffffffffffffff80,100"), "E22");
}

static void test_hex(void **state)
{
	u8 bytes[256], back[256];
	char hex[513], esc[600];
	const char *p;
	size_t i, used, n;
	u64 v;
	long r;

	for (i = 0; i < 256; i++)
		bytes[i] = (u8)i;
	assert_int_equal(hex_encode(hex, bytes, 256), 512);
	assert_int_equal(hex_decode(back, hex, 512), 256);
	assert_memory_equal(back, bytes, 256);
	assert_int_equal(hex_decode(back, "abc", 3), -EKDB_EINVAL);
	assert_int_equal(hex_decode(back, "zz", 2), -EKDB_EINVAL);
	assert_int_equal(hex_decode(back, "0g", 2), -EKDB_EINVAL);
	assert_int_equal(hex_decode(back, "AbCd", 4), 2);
	assert_int_equal(back[0], 0xab);
	/* in place */
	memcpy(hex, "41424344", 9);
	assert_int_equal(hex_decode(hex, hex, 8), 4);
	assert_memory_equal(hex, "ABCD", 4);

	p = "ffffffffffffffff,";
	assert_int_equal(hex_parse_u64(&p, &v), 0);
	assert_true(v == ~0ull && *p == ',');
	p = "10000000000000000";
	assert_int_equal(hex_parse_u64(&p, &v), -EKDB_ERANGE);
	p = "";
	assert_int_equal(hex_parse_u64(&p, &v), -EKDB_EINVAL);
	p = "x1";
	assert_int_equal(hex_parse_u64(&p, &v), -EKDB_EINVAL);
	p = "0000000000000000000001";	/* leading zeros are not overflow */
	assert_int_equal(hex_parse_u64(&p, &v), 0);
	assert_int_equal(v, 1);

	n = bin_escape(esc, sizeof(esc), bytes, 256, &used);
	assert_int_equal(used, 256);
	assert_int_equal(n, 256 + 4);
	for (i = 0; i < n; i++)
		assert_true(esc[i] != '$' && esc[i] != '#' && esc[i] != '*');
	r = bin_unescape(back, esc, n);
	assert_int_equal(r, 256);
	assert_memory_equal(back, bytes, 256);
	/* never splits an escape pair at the end of the room */
	n = bin_escape(esc, 1, (const u8 *)"#", 1, &used);
	assert_int_equal(n, 0);
	assert_int_equal(used, 0);
	n = bin_escape(esc, 3, (const u8 *)"a##", 3, &used);
	assert_int_equal(n, 3);
	assert_int_equal(used, 2);
	assert_int_equal(bin_unescape(back, "ab}", 3), -EKDB_EINVAL);
	assert_int_equal(bin_unescape(back, "", 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rle),
		cmocka_unit_test(test_spans),
		cmocka_unit_test(test_hex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
