/* SPDX-License-Identifier: GPL-2.0 */
/* gdb_test_util.h - fixture and packet helpers shared by the gdbstub host tests. */
#ifndef TESTS_GDB_TEST_UTIL_H
#define TESTS_GDB_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <ekdb/gdbstub.h>
#include <ekdb/errno.h>
#include "sim_target.h"
#include "sim_chan.h"

#define GT_BUF	GDB_MIN_BUFSIZE

struct gt {
	struct sim_target sim;
	struct sim_chan ch;
	struct gdb_session s;
	char in[GT_BUF], out[GT_BUF];
	char script[64 * 1024];
	size_t script_len;
	struct ekdb_resume res;
	char reply[SIM_CHAN_OUT_MAX + 1];	/* payload of the last packet sent */
	size_t reply_len;
	struct ekdb_stop stop;
};

/* One fixture at a time (static: a failing assert longjmps out, nothing leaks). */
static struct gt gt_fixture;

/* '+' acks the stub sent (outside packets). */
static inline int gt_acks(const char *o)
{
	int n = 0;
	bool in = false;

	for (; *o; o++) {
		if (*o == '$')
			in = true;
		else if (*o == '#' && in)
			in = false;
		else if (*o == '+' && !in)
			n++;
	}
	return n;
}

static inline struct gt *gt_new(int threads)
{
	struct gt *g = &gt_fixture;

	memset(g, 0, sizeof(*g));
	sim_target_init(&g->sim, threads);
	sim_chan_init(&g->ch);
	assert_int_equal(gdb_session_init(&g->s, &g->sim.t, &g->ch.chan, g->in, g->out, GT_BUF), 0);
	gdb_session_set_monitor(&g->s, sim_monitor, &g->sim);
	g->stop.reason = EKDB_STOP_ENTRY;
	g->stop.signal = 5;
	g->stop.thread = 1;
	g->stop.bp_index = -1;
	return g;
}

/*
 * A fixture whose target has no register layout: stop replies carry no
 * registers (for the framing tests, which are about bytes, not registers).
 */
static inline struct gt *gt_new_plain(int threads)
{
	struct gt *g = gt_new(threads);

	g->sim.ops.reg_layout = NULL;
	return g;
}

/* Append a framed packet "$payload#cs" (payload may hold any byte) to the script. */
static inline void gt_add_packet_n(struct gt *g, const char *p, size_t n)
{
	unsigned char sum = 0;
	size_t i;

	assert_true(g->script_len + n + 4 < sizeof(g->script));
	g->script[g->script_len++] = '$';
	for (i = 0; i < n; i++) {
		sum += (unsigned char)p[i];
		g->script[g->script_len++] = p[i];
	}
	g->script_len += (size_t)sprintf(g->script + g->script_len, "#%02x", sum);
}

static inline void gt_add_packet(struct gt *g, const char *p)
{
	gt_add_packet_n(g, p, strlen(p));
}

static inline void gt_add_raw(struct gt *g, const char *p, size_t n)
{
	assert_true(g->script_len + n < sizeof(g->script));
	memcpy(g->script + g->script_len, p, n);
	g->script_len += n;
}

/*
 * The payload as gdb reads it: "c*N" is c and N - 29 more copies of c
 * (N is never '#' or '$'; runs shorter than 4 are sent as they are).
 */
static inline void gt_expand_rle(struct gt *g, const char *p, size_t n)
{
	size_t i, k;

	g->reply_len = 0;
	for (i = 0; i < n; i++) {
		if (p[i] != '*') {
			assert_true(g->reply_len < sizeof(g->reply) - 1);
			g->reply[g->reply_len++] = p[i];
			continue;
		}
		assert_true(g->reply_len > 0 && i + 1 < n);
		k = (size_t)(unsigned char)p[++i] - 29;
		assert_true(k >= 3 && k <= 97 && p[i] != '#' && p[i] != '$');
		assert_true(g->reply_len + k < sizeof(g->reply));
		memset(g->reply + g->reply_len, g->reply[g->reply_len - 1], k);
		g->reply_len += k;
	}
	g->reply[g->reply_len] = '\0';
}

/*
 * Check every packet in the captured output has a correct checksum and
 * put the payload of the last one in g->reply.  Returns the number of
 * packets seen.
 */
static inline int gt_parse_output(struct gt *g)
{
	const char *o = g->ch.out;
	size_t i = 0, n = g->ch.out_len;
	int packets = 0;

	g->reply_len = 0;
	g->reply[0] = '\0';
	while (i < n) {
		unsigned char sum = 0;
		size_t start;
		unsigned cs;

		if (o[i] != '$') {
			assert_true(o[i] == '+' || o[i] == '-');
			i++;
			continue;
		}
		start = ++i;
		while (i < n && o[i] != '#') {
			assert_true(o[i] != '$');
			sum += (unsigned char)o[i++];
		}
		assert_true(i + 3 <= n);		/* '#' and two checksum digits */
		assert_int_equal(sscanf(o + i + 1, "%2x", &cs), 1);
		assert_int_equal(cs, sum);
		gt_expand_rle(g, o + start, i - start);
		i += 3;
		packets++;
	}
	return packets;
}

/* Run the session over the script once; parse the output. */
static inline int gt_run(struct gt *g)
{
	sim_chan_clear_output(&g->ch);
	sim_chan_feed(&g->ch, g->script, g->script_len);
	g->res = gdb_session_run(&g->s, &g->stop, false);
	g->script_len = 0;
	return gt_parse_output(g);
}

/* One request, one reply payload (NULL if no packet came back). */
static inline const char *gt_ask(struct gt *g, const char *req)
{
	gt_add_packet(g, req);
	return gt_run(g) ? g->reply : NULL;
}

#endif
