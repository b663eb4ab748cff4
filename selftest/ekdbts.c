/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ekdbts.c - the debugger's in-kernel self-test (Linux's kgdbts):
 * ekdbts=V1F100S100E.  A transport named "ekdbts" plays gdb: when the
 * stub reads, it feeds the next packet of a script; what the stub
 * writes is parsed as gdb would (frames, checksums, run-length encoding)
 * and checked against the script.  The tests stop the machine through
 * the real entry points (kgdb_breakpoint(), int3, DR0-3 hits, single
 * steps, the tick's Ctrl-C poll) and the real core + gdbstub serve them.
 *
 * Scripts are tables of { packet to send, reply expected }.  A reply
 * pattern is a first word (exact, or a prefix ending in '*') followed by
 * checks on the fields of a stop reply:
 *   pc=X       expedited rip (register 0x10) is the address of X
 *   pc~X       rip is in [X, X+256) and differs from the last pc seen
 *   watch=X awatch=X   the watchpoint field names the address of X
 *   swbreak hwbreak    the field is present
 *   core+      the core: field names a CPU not seen yet in this test
 * Addresses (in packets: @X; in checks: X) come from the kernel
 * (struct ekdbts_host): B brk(), S spin(), D *spin_done, W *watch,
 * H handoff_sw(), J handoff_hw().
 *
 * Never a hang: whenever the stub reads while the script waits for a
 * reply (so none is coming), or a reply does not match, the test fails
 * and the line answers with a detach ("D": gdb's breakpoints removed, the
 * machine goes on).  Nothing here prints while the machine is stopped
 * (a CPU held mid-printk may hold the log's lock): results are printed
 * by the test's own thread afterwards.
 */
#include "../core/core_early.h"
#include "ekdbts.h"
#include "../early/early.h"
#include <ekdb/cmdline.h>
#include <ekdb/ekdb.h>
#include <ekdb/ekdbts.h>
#include <ekdb/gdbstub.h>
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <ekdb/hex.h>
#include <ekdb/parse.h>
#include <ekdb/string.h>
#include <ekdb/log.h>

#define TS_RX_MAX	1024		/* a stop reply with its expedited registers fits */
#define TS_WAIT_MS	300000		/* a late test gives up after this (never a hang) */
#define TS_STEP_SPAN	256		/* pc~X: the single-step target's size, at most */

static struct ekdbts_opts opts;
static bool opts_given, opts_bad;
static const char *opts_why;
static char opts_text[32];

static int setup_ekdbts(const char *v)
{
	opts_given = true;
	strlcpy(opts_text, v ? v : "", sizeof(opts_text));
	opts_bad = ekdbts_parse(v, &opts, &opts_why) != 0;
	return dbg_opts_refuse("ekdbts", opts_bad ? -EKDB_EINVAL : 0);
}
EARLY_PARAM("ekdbts", setup_ekdbts, "[V1|V2][F<N>][S<N>][E][X], e.g. V1F100S100E");

struct ts_step {
	const char *send;	/* packet payload (with @X addresses); NULL: nothing */
	const char *expect;	/* reply pattern; NULL: no reply (c, s) */
	bool loop;		/* the last step of the repeated group */
};

enum ts_mode { TS_IDLE, TS_RUN, TS_ABORT, TS_DONE };

static const struct ekdbts_host *host;
static bool active;		/* the ekdbts line is the debugger's line */
static unsigned n_passed, n_failed;

static struct {
	volatile enum ts_mode mode;
	const struct ts_step *pre, *steps;
	unsigned npre, nsteps, idx;
	unsigned loop_from, loops_left;
	char tx[96];
	unsigned txlen, txpos, dpos;
	int rx_state;
	char rx[TS_RX_MAX], reply[TS_RX_MAX];
	size_t rxlen;
	bool rx_over;
	u8 rx_sum;
	int rx_cs_hi;
	volatile bool done, failed;
	char why[160];
	u64 last_pc;
	u64 cores;
	int ctrlc;
} ts;

/* ------------------------------------------------------------ addresses */

static u64 addr_of(char k)
{
	switch (k) {
	case 'B': return (u64)host->brk;
	case 'S': return (u64)host->spin;
	case 'D': return (u64)host->spin_done;
	case 'W': return (u64)host->watch;
	case 'H': return (u64)host->handoff_sw;
	case 'J': return (u64)host->handoff_hw;
	default: return 0;
	}
}

/* ------------------------------------------------------------ the script */

static const struct ts_step *cur(void)
{
	if (ts.idx < ts.npre)
		return &ts.pre[ts.idx];
	if (ts.idx - ts.npre < ts.nsteps)
		return &ts.steps[ts.idx - ts.npre];
	return NULL;
}

static void fail(const char *fmt, ...) __printf(1, 2);
static void fail(const char *fmt, ...)
{
	va_list ap;

	if (ts.failed)
		return;
	va_start(ap, fmt);
	ekdb_vsnprintf(ts.why, sizeof(ts.why), fmt, ap);
	va_end(ap);
	ts.failed = true;
	ts.mode = TS_ABORT;
}

/* "$payload#cs" of @tmpl with every @X replaced by X's address in hex */
static void build_tx(const char *tmpl)
{
	char *p = ts.tx, *end = ts.tx + sizeof(ts.tx) - 4;
	u8 sum = 0;

	*p++ = '$';
	for (const char *t = tmpl; *t && p < end; t++) {
		if (*t == '@' && t[1]) {
			int n = ekdb_snprintf(p, (size_t)(end - p), "%llx",
					      (unsigned long long)addr_of(*++t));

			for (int i = 0; i < n && p < end; i++)
				sum += (u8)*p++;
			continue;
		}
		sum += (u8)*t;
		*p++ = *t;
	}
	*p++ = '#';
	*p++ = hex_digit(sum >> 4);
	*p++ = hex_digit(sum & 15);
	ts.txlen = (unsigned)(p - ts.tx);
	ts.txpos = 0;
}

static void step_done(void)
{
	const struct ts_step *st = cur();

	ts.idx++;
	if (st && st->loop && ts.loops_left) {
		ts.loops_left--;
		ts.idx = ts.npre + ts.loop_from;
	}
	ts.txlen = ts.txpos = 0;
	st = cur();
	if (!st)
		ts.done = true;
	else if (st->send)
		build_tx(st->send);
}

static bool check_word(const char *w, size_t n, const char *reply)
{
	char key[16];
	u64 v, want;
	size_t len;

	if (n >= sizeof(key))
		return false;
	memcpy(key, w, n);
	key[n] = '\0';
	if (!strncmp(key, "pc=", 3) || !strncmp(key, "pc~", 3)) {
		if (ekdbts_stop_reg(reply, 0x10, &v))
			return false;
		want = addr_of(key[3]);
		if (key[2] == '=' ? v != want :
		    v < want || v >= want + TS_STEP_SPAN || v == ts.last_pc)
			return false;
		ts.last_pc = v;
		return true;
	}
	if (!strcmp(key, "core+")) {
		if (ekdbts_stop_hex(reply, "core", &v) || v >= 64 || (ts.cores & (1ull << v)))
			return false;
		ts.cores |= 1ull << v;
		return true;
	}
	if (strchr(key, '=')) {
		char *eq = strchr(key, '=');

		*eq = '\0';
		return !ekdbts_stop_hex(reply, key, &v) && v == addr_of(eq[1]);
	}
	return ekdbts_stop_field(reply, key, &len) != NULL;
}

static bool match(const char *pat, const char *reply)
{
	const char *sp = strchr(pat, ' ');
	size_t n = sp ? (size_t)(sp - pat) : strlen(pat);

	if (n && pat[n - 1] == '*') {
		if (strncmp(reply, pat, n - 1))
			return false;
	} else if (strlen(reply) != n || strncmp(reply, pat, n)) {
		return false;
	}
	while (sp) {
		const char *w = sp + 1;

		sp = strchr(w, ' ');
		n = sp ? (size_t)(sp - w) : strlen(w);
		if (!check_word(w, n, reply))
			return false;
	}
	return true;
}

static void on_reply(const char *r)
{
	const struct ts_step *st = cur();

	if (r[0] == 'O' && r[1] && strcmp(r, "OK")) {
		bool hex = true;

		for (const char *p = r + 1; *p; p++)
			hex = hex && isxdigit(*p);
		if (hex)
			return;		/* console output (kgdbcon): not a reply */
	}
	if (!st || !st->expect || (st->send && ts.txpos < ts.txlen)) {
		fail("unexpected reply '%.60s' at step %u", r, ts.idx);
		return;
	}
	if (!match(st->expect, r)) {
		fail("%s%s: want '%s', got '%.80s'", st->send ? "reply to " : "stop",
		     st->send ? st->send : "", st->expect, r);
		return;
	}
	step_done();
}

/* ------------------------------------------------------------ the line */

/* what the line says when no script wants the stop: detach, the machine goes on */
static const char detach_pkt[] = "$D#44";

static int feed_detach(void)
{
	int c = detach_pkt[ts.dpos++];

	if (ts.dpos == sizeof(detach_pkt) - 1) {
		ts.dpos = 0;
		if (ts.mode == TS_ABORT)
			ts.mode = TS_IDLE;
	}
	return c;
}

static int ts_getc(struct ekdb_transport *t)
{
	const struct ts_step *st;
	int c;

	if (ts.mode != TS_RUN)
		return feed_detach();
	st = cur();
	if (!st) {
		fail("the stub asked for more after the script's end");
		return feed_detach();
	}
	if (!st->send || ts.txpos >= ts.txlen) {
		/* the stub waits for input: the reply this step waits for is not coming */
		fail("no %s%s (expected '%s')", st->send ? "reply to " : "stop reply",
		     st->send ? st->send : "", st->expect);
		return feed_detach();
	}
	c = (u8)ts.tx[ts.txpos++];
	if (ts.txpos == ts.txlen && !st->expect)
		step_done();		/* c, s: the machine resumes */
	return c;
}

static void ts_putc(struct ekdb_transport *t, u8 c)
{
	switch (ts.rx_state) {
	case 0:				/* outside a frame: acks, kdb text */
		if (c == '$') {
			ts.rx_state = 1;
			ts.rxlen = 0;
			ts.rx_over = false;
			ts.rx_sum = 0;
		}
		return;
	case 1:
		if (c == '#') {
			ts.rx_state = 2;
			return;
		}
		ts.rx_sum += c;
		if (ts.rxlen + 1 < sizeof(ts.rx))
			ts.rx[ts.rxlen++] = (char)c;
		else
			ts.rx_over = true;
		return;
	case 2:
		ts.rx_cs_hi = hex_val(c);
		ts.rx_state = 3;
		return;
	default:
		ts.rx_state = 0;
		ts.rx[ts.rxlen] = '\0';
		if (ts.mode != TS_RUN)
			return;
		if (ts.rx_over || ts.rx_cs_hi < 0 || hex_val(c) < 0 ||
		    (u8)(ts.rx_cs_hi << 4 | hex_val(c)) != ts.rx_sum) {
			fail("a reply with a bad checksum or too long: '%.40s'", ts.rx);
			return;
		}
		if (ekdbts_rle_expand(ts.rx, ts.rxlen, ts.reply, sizeof(ts.reply)) < 0) {
			fail("bad run-length encoding in '%.60s'", ts.rx);
			return;
		}
		on_reply(ts.reply);
	}
}

/* The tick's break-in poll: a Ctrl-C only when the Ctrl-C test asks for one. */
static int ts_poll_break(struct ekdb_transport *t)
{
	return __atomic_exchange_n(&ts.ctrlc, 0, __ATOMIC_ACQ_REL) ? EKDB_BREAK_CTRLC :
								     EKDB_BREAK_NONE;
}

static struct ekdb_transport ts_transport = {
	.name = "ekdbts",
	.kind = EKDB_TRANSPORT_SERIAL,	/* a byte line (no driver takes it over) */
	.getc = ts_getc,
	.putc = ts_putc,
	.poll_break = ts_poll_break,
	.scripted = true,	/* a getc while a reply is due is the stub waiting: a failure */
};

/* ------------------------------------------------------------ running a test */

static const struct ts_step connect_steps[] = {
	{ "qSupported:swbreak+;hwbreak+", "PacketSize=*", false },
	{ "?", "T05*", false },
};
static const struct ts_step entry_step[] = {
	{ NULL, "T05*", false },	/* kgdb_breakpoint(): announced to a connected gdb */
};

/*
 * ts_start - arm @steps for test @name.  @entry: the test starts with a
 * kgdb_breakpoint() stop (gdb connects first if it is not connected).
 * The group [@loop_from .. the step marked loop] runs @loops more times.
 */
static void ts_start(const char *name, const struct ts_step *steps, unsigned n, bool entry,
		     unsigned loop_from, unsigned loops)
{
	struct gdb_session *g;
	struct kdb_session *k;
	bool connected;

	pr_info("ekdbts: RUN %s\n", name);
	dbg_frontend_sessions(&g, &k);
	connected = g && gdb_session_connected(g) && dbg_frontend_gdb_owns_line();
	dbg_frontend_set_gdb_owns_line(true);
	ts.pre = !entry ? NULL : connected ? entry_step : connect_steps;
	ts.npre = !entry ? 0 : connected ? 1 : 2;
	ts.steps = steps;
	ts.nsteps = n;
	ts.idx = 0;
	ts.loop_from = loop_from;
	ts.loops_left = loops;
	ts.done = ts.failed = false;
	ts.why[0] = '\0';
	ts.last_pc = 0;
	ts.cores = 0;
	ts.txlen = ts.txpos = ts.dpos = 0;
	ts.rx_state = 0;
	if (cur() && cur()->send)
		build_tx(cur()->send);
	ts.mode = TS_RUN;
}

/* Wait (late, bounded) until the script ends; false when it did not. */
static bool ts_wait(void)
{
	u64 t0;

	if (!host->now_ms)
		return ts.done || ts.failed;
	t0 = host->now_ms();
	while (!ts.done && !ts.failed && host->now_ms() - t0 < TS_WAIT_MS)
		host->relax();
	return ts.done || ts.failed;
}

/*
 * ts_finish - the verdict: the script ran to its end with every reply
 * as expected, and @why_not (the test's own check of the kernel's side)
 * is NULL.  A failed test leaves nothing behind: one more stop, answered
 * with a detach, removes every breakpoint gdb set.
 */
static bool ts_finish(const char *name, const char *why_not)
{
	const struct ts_step *st = cur();
	bool ok = ts.done && !ts.failed && !why_not;

	if (ok) {
		ts.mode = TS_IDLE;
		n_passed++;
		pr_info("ekdbts: PASS %s\n", name);
		return true;
	}
	n_failed++;
	if (ts.failed)
		pr_err("ekdbts: FAIL %s: %s\n", name, ts.why);
	else if (!ts.done)
		pr_err("ekdbts: FAIL %s: the script stopped at step %u (%s '%s')\n", name, ts.idx,
		       st && st->send ? "sending" : "waiting for", st && st->send ? st->send :
		       st && st->expect ? st->expect : "?");
	else
		pr_err("ekdbts: FAIL %s: %s\n", name, why_not);
	ts.mode = TS_ABORT;
	dbg_frontend_set_gdb_owns_line(true);	/* the stub, not kdb, takes the detach */
	kgdb_breakpoint();
	ts.mode = TS_IDLE;
	return false;
}

#define STEPS(a)	a, ARRAY_SIZE(a)

/* ------------------------------------------------------------ the tests */

/*
 * Script @s (@n steps) for a test that calls the host's brk() @times
 * times (where its breakpoints are): each call must run, once.
 */
static void brk_script(const char *name, const struct ts_step *s, unsigned n, unsigned times)
{
	unsigned long n0;

	ts_start(name, s, n, true, 0, 0);
	kgdb_breakpoint();
	n0 = *host->brk_calls;
	for (unsigned i = 0; i < times; i++)
		host->brk();
	ts_finish(name, *host->brk_calls == n0 + times ? NULL :
		  times == 1 ? "brk() did not run once" : "brk() did not run twice");
}

static void test_sw_break(const char *name)
{
	static const struct ts_step s[] = {
		{ "Z0,@B,1", "OK", false }, { "c", NULL, false },
		{ NULL, "T05* pc=B swbreak", false },
		{ "z0,@B,1", "OK", false }, { "c", NULL, false },
	};

	brk_script(name, STEPS(s), 1);
}

static void test_hw_break(const char *name)
{
	static const struct ts_step s[] = {
		{ "Z1,@B,1", "OK", false }, { "c", NULL, false },
		{ NULL, "T05* pc=B hwbreak", false },
		{ "z1,@B,1", "OK", false }, { "c", NULL, false },
	};

	brk_script(name, STEPS(s), 1);
}

static void test_write_watch(const char *name)
{
	static const struct ts_step s[] = {
		{ "Z2,@W,8", "OK", false }, { "c", NULL, false },
		{ NULL, "T05* watch=W", false },
		{ "z2,@W,8", "OK", false }, { "c", NULL, false },
	};
	const u64 v = 0x5a5a00000000a5a5ull + n_passed;

	ts_start(name, STEPS(s), true, 0, 0);
	kgdb_breakpoint();
	host->write(v);
	ts_finish(name, *host->watch == v ? NULL : "the write was lost");
}

static void test_access_watch(const char *name)
{
	static const struct ts_step s[] = {
		{ "Z4,@W,8", "OK", false }, { "c", NULL, false },
		{ NULL, "T05* awatch=W", false },
		{ "z4,@W,8", "OK", false }, { "c", NULL, false },
	};
	u64 v;

	*host->watch = 0x1234;
	ts_start(name, STEPS(s), true, 0, 0);
	kgdb_breakpoint();
	v = host->read();
	ts_finish(name, v == 0x1234 ? NULL : "the read gave another value");
}

static void test_mem(const char *name)
{
	static const struct ts_step s[] = {
		{ "m@W,8", "8877665544332211", false },
		{ "M@W,8:0102030405060708", "OK", false },
		{ "m0,1", "E*", false },		/* a bad address is an error reply */
		{ "c", NULL, false },
	};

	*host->watch = 0x1122334455667788ull;
	ts_start(name, STEPS(s), true, 0, 0);
	kgdb_breakpoint();
	ts_finish(name, *host->watch == 0x0807060504030201ull ? NULL : "M did not write");
}

static void test_single_step(const char *name)
{
	static const struct ts_step s[] = {
		{ "Z0,@B,1", "OK", false }, { "c", NULL, false },
		{ NULL, "T05* pc=B swbreak", false },
		{ "s", NULL, false },
		{ NULL, "T05* pc~B", false },	/* one instruction further into brk() */
		{ "z0,@B,1", "OK", false }, { "c", NULL, false },
	};

	brk_script(name, STEPS(s), 1);
}

/* continue from a breakpoint: the core steps over it and puts it back */
static void test_step_over(const char *name)
{
	static const struct ts_step s[] = {
		{ "Z0,@B,1", "OK", false }, { "c", NULL, false },
		{ NULL, "T05* pc=B swbreak", false }, { "c", NULL, false },
		{ NULL, "T05* pc=B swbreak", false },
		{ "z0,@B,1", "OK", false }, { "c", NULL, false },
	};

	brk_script(name, STEPS(s), 2);
}

/* planted (X): a test whose expectation is wrong must be reported as failed */
static void test_planted(const char *name)
{
	static const struct ts_step s[] = {
		{ "m@W,8", "0000000000000000", false },
		{ "c", NULL, false },
	};

	*host->watch = 0x1122334455667788ull;
	ts_start(name, STEPS(s), true, 0, 0);
	kgdb_breakpoint();
	ts_finish(name, NULL);
}

static void brk_once(unsigned idx, unsigned n)
{
	host->brk();
}

/* every CPU hits the same breakpoint at about the same moment: one stop each */
static void test_all_cpus(const char *name)
{
	static const struct ts_step s[] = {
		{ "Z0,@B,1", "OK", false }, { "c", NULL, false },
		{ NULL, "T05* pc=B swbreak core+", false }, { "c", NULL, true },
		{ NULL, "T05*", false },		/* the clean-up stop */
		{ "z0,@B,1", "OK", false }, { "c", NULL, false },
	};
	unsigned ncpus = dbg_cpu_count(), ran;
	unsigned long n0;

	ts_start(name, STEPS(s), true, 2, ncpus - 1);
	kgdb_breakpoint();
	n0 = *host->brk_calls;
	ran = host->on_all_cpus(brk_once);
	kgdb_breakpoint();
	ts_finish(name, ran != ncpus ? "not every CPU ran brk()" :
		  *host->brk_calls != n0 + ncpus ? "brk() did not run once per CPU" : NULL);
}

static void test_ctrl_c(const char *name)
{
	static const struct ts_step s[] = {
		{ "c", NULL, false },
		{ NULL, "T02*", false },		/* SIGINT: the break-in */
		{ "c", NULL, false },
	};

	ts_start(name, STEPS(s), true, 0, 0);
	kgdb_breakpoint();
	__atomic_store_n(&ts.ctrlc, 1, __ATOMIC_RELEASE);
	ts_wait();
	__atomic_store_n(&ts.ctrlc, 0, __ATOMIC_RELEASE);
	ts_finish(name, NULL);
}

static void brk_share(unsigned idx, unsigned n)
{
	unsigned mine = opts.fork_iters / n + (idx < opts.fork_iters % n);

	for (unsigned i = 0; i < mine; i++)
		host->brk();
}

/* F<N>: N breakpoint stops (shared by every CPU), each continued over the breakpoint */
static void test_break_stress(void)
{
	static const struct ts_step s[] = {
		{ "Z0,@B,1", "OK", false }, { "c", NULL, false },
		{ NULL, "T05* pc=B swbreak", false }, { "c", NULL, true },
		{ NULL, "T05*", false },
		{ "z0,@B,1", "OK", false }, { "c", NULL, false },
	};
	static char name[64];
	unsigned ncpus = dbg_cpu_count(), ran;
	u64 t0, ms;

	ekdb_snprintf(name, sizeof(name), "breakpoint stress (%u iterations, %u CPUs)",
		      opts.fork_iters, ncpus);
	ts_start(name, STEPS(s), true, 2, opts.fork_iters - 1);
	kgdb_breakpoint();
	t0 = host->now_ms();
	ran = host->on_all_cpus(brk_share);
	ms = host->now_ms() - t0;
	kgdb_breakpoint();
	if (ts_finish(name, ran != ncpus ? "not every CPU finished" : NULL))
		pr_info("ekdbts: breakpoint stress: %u iterations in %llu ms (%llu/s)\n",
			opts.fork_iters, (unsigned long long)ms,
			(unsigned long long)(ms ? opts.fork_iters * 1000ull / ms : 0));
}

/* S<N>: N single steps through spin(), then it is told to return (M) */
static void test_step_stress(void)
{
	static const struct ts_step s[] = {
		{ "Z0,@S,1", "OK", false }, { "c", NULL, false },
		{ NULL, "T05* pc=S swbreak", false },
		{ "z0,@S,1", "OK", false },
		{ "s", NULL, false }, { NULL, "T05* pc~S", true },
		{ "M@D,8:0100000000000000", "OK", false },
		{ "c", NULL, false },
	};
	static char name[64];
	u64 t0 = host->now_ms ? host->now_ms() : 0, ms;

	ekdb_snprintf(name, sizeof(name), "single-step stress (%u steps)", opts.step_iters);
	*host->spin_done = 0;
	ts_start(name, STEPS(s), true, 4, opts.step_iters - 1);
	kgdb_breakpoint();
	host->spin();
	ms = host->now_ms ? host->now_ms() - t0 : 0;
	if (ts_finish(name, *host->spin_done == 1 ? NULL : "spin() did not see the M write"))
		pr_info("ekdbts: single-step stress: %u steps in %llu ms (%llu/s)\n",
			opts.step_iters, (unsigned long long)ms,
			(unsigned long long)(ms ? opts.step_iters * 1000ull / ms : 0));
}

/* E: armed in setup_arch, before the handoff ... */
static bool handoff_armed;

static void arm_handoff(void)
{
	static const struct ts_step s[] = {
		{ "Z0,@H,1", "OK", false }, { "Z1,@J,1", "OK", false }, { "c", NULL, false },
	};

	ts_start("handoff (arming in setup_arch)", STEPS(s), true, 0, 0);
	kgdb_breakpoint();
	handoff_armed = ts.done && !ts.failed;
	if (!handoff_armed)
		ts_finish("handoff", NULL);	/* counted as the handoff test failing */
	ts.mode = TS_IDLE;
}

/* ... fires after it, in the full core with the moved session */
static void test_handoff(void)
{
	static const struct ts_step s[] = {
		{ NULL, "T05* pc=H swbreak", false }, { "z0,@H,1", "OK", false }, { "c", NULL, false },
		{ NULL, "T05* pc=J hwbreak", false }, { "z1,@J,1", "OK", false }, { "c", NULL, false },
	};

	if (!handoff_armed)
		return;
	ts_start("handoff", STEPS(s), false, 0, 0);
	host->handoff_sw();
	host->handoff_hw();
	ts_finish("handoff", NULL);
}

static void run_basic(const char *prefix, bool late)
{
	static const struct {
		const char *name;
		void (*fn)(const char *name);
		bool late_only;
	} tests[] = {
		{ "sw breakpoint", test_sw_break, false },
		{ "hw breakpoint", test_hw_break, false },
		{ "write watchpoint", test_write_watch, false },
		{ "access watchpoint", test_access_watch, false },
		{ "memory read/write", test_mem, false },
		{ "single step", test_single_step, false },
		{ "step over breakpoint", test_step_over, false },
		{ "breakpoint on every CPU", test_all_cpus, true },
		{ "Ctrl-C break-in", test_ctrl_c, true },
	};
	static char name[64];

	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		if (tests[i].late_only && !late)
			continue;
		ekdb_snprintf(name, sizeof(name), "%s%s", prefix, tests[i].name);
		tests[i].fn(name);
	}
}

/* ------------------------------------------------------------ entry points */

void ekdbts_init(const struct ekdbts_host *h)
{
	struct ekdb_start start = {
		.sessions = early_sessions(),
		.io = { &ts_transport },
		.cmd_enable = ekdb_opts.cmd_enable,
		.gdb_owns_line = true,	/* the stub, not kdb, takes the test's packets */
	};
	int err;

	if (!opts_given)
		return;
	if (opts_bad) {
		pr_err("ekdbts: malformed ekdbts=%s: %s: no tests run\n", opts_text, opts_why);
		return;
	}
	if (ekdb_enabled() || ekdb_opts.ekgdboc[0] || ekdb_opts.kgdboc[0] ||
	    ekdb_opts.kgdbdbgp || ekdb_opts.kgdbxdbc || ekdb_opts.bad) {
		pr_err("ekdbts: the tests need the debugger's line to themselves (no ekgdboc=, kgdboc=, kgdbdbgp=, kgdbxdbc=, or a malformed debugger option): no tests run\n");
		return;
	}
	host = h;
	err = ekdb_start(&start);
	if (err) {
		pr_err("ekdbts: cannot start the debugger: %s: no tests run\n", ekdb_strerror(err));
		return;
	}
	active = true;
	pr_info("kgdb: Registered I/O driver ekdbts (ekdbts=%s)\n", opts_text);
	if (opts.early) {
		run_basic("early ", false);
		arm_handoff();
	}
}

void ekdbts_run_late(void)
{
	if (!active)
		return;
	if (opts.early)
		test_handoff();
	if (opts.verbose)
		run_basic("", true);
	if (opts.fork_iters)
		test_break_stress();
	if (opts.step_iters)
		test_step_stress();
	if (opts.plant)
		test_planted("planted failure (must FAIL)");
	ts.mode = TS_DONE;	/* from now on every stop is answered with a detach */
	pr_info("ekdbts: %u passed, %u failed\n", n_passed, n_failed);
}
