/* SPDX-License-Identifier: GPL-2.0 */
/* dispatch.c - packet letter (and q/Q/v name) to handler tables. */
#include "gdb_int.h"

static void gdb_cmd_query(struct gdb_session *s, const char *a, size_t len);
static void gdb_cmd_set(struct gdb_session *s, const char *a, size_t len);
static void gdb_cmd_v(struct gdb_session *s, const char *a, size_t len);

struct gdb_letter_cmd {
	char letter;
	gdb_cmd_fn fn;
};

static const struct gdb_letter_cmd gdb_letter_cmds[] = {
	{ '?', gdb_cmd_status },
	{ 'c', gdb_cmd_continue },
	{ 'C', gdb_cmd_continue_sig },
	{ 's', gdb_cmd_step },
	{ 'S', gdb_cmd_step_sig },
	{ 'D', gdb_cmd_detach },
	{ 'k', gdb_cmd_kill },
	{ '3', gdb_cmd_to_kdb },
	{ 'g', gdb_cmd_regs_read },
	{ 'G', gdb_cmd_regs_write },
	{ 'p', gdb_cmd_reg_read },
	{ 'P', gdb_cmd_reg_write },
	{ 'm', gdb_cmd_mem_read },
	{ 'M', gdb_cmd_mem_write },
	{ 'x', gdb_cmd_mem_read_bin },
	{ 'X', gdb_cmd_mem_write_bin },
	{ 'Z', gdb_cmd_bp_set },
	{ 'z', gdb_cmd_bp_remove },
	{ 'H', gdb_cmd_set_thread },
	{ 'T', gdb_cmd_thread_alive },
	{ 'q', gdb_cmd_query },
	{ 'Q', gdb_cmd_set },
	{ 'v', gdb_cmd_v },
};

/* Names include the leading letter; a trailing ':' or ',' means "arguments follow". */
static const struct gdb_named_cmd gdb_query_cmds[] = {
	{ "qSupported", gdb_cmd_supported },
	{ "qXfer:features:read:", gdb_cmd_xfer_features },
	{ "qXfer:libraries:read:", gdb_cmd_xfer_libraries },
	{ "qXfer:libraries-svr4:read:", gdb_cmd_xfer_libraries_svr4 },
	{ "qAttached", gdb_cmd_attached },
	{ "qOffsets", gdb_cmd_offsets },
	{ "qC", gdb_cmd_current_thread },
	{ "qfThreadInfo", gdb_cmd_thread_first },
	{ "qsThreadInfo", gdb_cmd_thread_next },
	{ "qThreadExtraInfo,", gdb_cmd_thread_extra },
	{ "qRcmd,", gdb_cmd_monitor },
};

static const struct gdb_named_cmd gdb_set_cmds[] = {
	{ "QStartNoAckMode", gdb_cmd_no_ack },
};

static const struct gdb_named_cmd gdb_v_cmds[] = {
	{ "vCont?", gdb_cmd_vcont_query },
	{ "vCont;", gdb_cmd_vcont },
};

/**
 * gdb_dispatch_named - run the handler whose name the payload starts with.
 * A name matches when the payload continues with NUL, ':' ',' or ';'
 * (so "qC" does not match "qCRC:..."), or when the name itself ends in a
 * separator.  Returns false when nothing matched (reply stays empty).
 */
bool gdb_dispatch_named(struct gdb_session *s, const struct gdb_named_cmd *tab, size_t n)
{
	size_t i, l;
	char next, last;

	for (i = 0; i < n; i++) {
		l = strlen(tab[i].name);
		if (strncmp(s->inbuf, tab[i].name, l))
			continue;
		next = s->inbuf[l];
		last = tab[i].name[l - 1];
		if (next && next != ':' && next != ',' && next != ';' &&
		    last != ':' && last != ',' && last != ';')
			continue;
		tab[i].fn(s, s->inbuf + l, s->inlen - l);
		return true;
	}
	return false;
}

static void gdb_cmd_query(struct gdb_session *s, const char *a, size_t len)
{
	gdb_dispatch_named(s, gdb_query_cmds, ARRAY_SIZE(gdb_query_cmds));
}

static void gdb_cmd_set(struct gdb_session *s, const char *a, size_t len)
{
	gdb_dispatch_named(s, gdb_set_cmds, ARRAY_SIZE(gdb_set_cmds));
}

static void gdb_cmd_v(struct gdb_session *s, const char *a, size_t len)
{
	gdb_dispatch_named(s, gdb_v_cmds, ARRAY_SIZE(gdb_v_cmds));
}

/**
 * gdb_dispatch - answer the packet in inbuf.  Unknown packets get the
 * empty reply ("not supported"), as the protocol requires.  A reply that
 * did not fit the buffer becomes E07 (E2BIG).
 */
void gdb_dispatch(struct gdb_session *s)
{
	size_t i;

	s->outlen = 0;
	s->out_overflow = false;
	s->suppress_reply = false;
	if (s->inlen) {
		for (i = 0; i < ARRAY_SIZE(gdb_letter_cmds); i++) {
			if (gdb_letter_cmds[i].letter == s->inbuf[0]) {
				gdb_letter_cmds[i].fn(s, s->inbuf + 1, s->inlen - 1);
				break;
			}
		}
	}
	if (s->suppress_reply) {
		s->have_last = false;	/* a '-' now must not resend an empty "$#00" */
		return;
	}
	if (s->out_overflow) {
		s->outlen = 0;
		s->out_overflow = false;
		tx_err(s, -EKDB_E2BIG);
	}
	gdb_tx_packet(s);
}

/* ---- reply helpers ---- */

void tx_hex(struct gdb_session *s, const void *buf, size_t n)
{
	if (2 * n > tx_room(s)) {
		s->out_overflow = true;
		return;
	}
	s->outlen += hex_encode(s->outbuf + s->outlen, buf, n);
}

void tx_hex_str(struct gdb_session *s, const char *str)
{
	tx_hex(s, str, strlen(str));
}

void tx_hex_u64(struct gdb_session *s, u64 v)
{
	int shift = 60;

	while (shift > 0 && !((v >> shift) & 0xf))
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		tx_char(s, hex_digit((unsigned)(v >> shift)));
}

void tx_hex_u8(struct gdb_session *s, unsigned v)
{
	tx_char(s, hex_digit(v >> 4));
	tx_char(s, hex_digit(v));
}

void tx_ok(struct gdb_session *s)
{
	tx_str(s, "OK");
}

void tx_err(struct gdb_session *s, int err)
{
	unsigned code = err < 0 ? (unsigned)-err : (unsigned)err;

	if (code == 0 || code > 0xff)
		code = EKDB_EINVAL;
	tx_char(s, 'E');
	tx_hex_u8(s, code);
}

int rx_thread_id(const char **p, u64 *tid)
{
	u64 n;

	if (**p != '-')
		return rx_hex(p, tid);
	(*p)++;
	if (rx_hex(p, &n) || n == 0 || n > 0x80000000ull)
		return -EKDB_EINVAL;
	/*
	 * -1: all threads.  gdb writes an id of 2^31 or more as a negative
	 * 32-bit number: -2 is Linux's shadowCPU0, fffffffe.
	 */
	*tid = n == 1 ? (u64)-1 : (u64)(u32)-(u32)n;
	return 0;
}
