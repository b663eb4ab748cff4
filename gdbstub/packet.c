/* SPDX-License-Identifier: GPL-2.0 */
/*
 * packet.c - gdb remote protocol framing: "$payload#cs", '+'/'-' acks,
 * bounded retransmission, no-ack mode, garbage skipping, oversize drain.
 */
#include "gdb_int.h"

/* One byte if one is waiting (the pushback area first), else EKDB_NO_CHAR: never waits. */
static int rx_try_byte(struct gdb_session *s)
{
	int c;

	if (s->pushback_len) {
		s->pushback_len--;
		return (u8)*s->pushback++;
	}
	c = s->chan->getc(s->chan->arg);
	if (c == EKDB_NO_CHAR)
		return c;
	if (c < 0)
		return EKDB_CHAN_EOF;
	return c & 0xff;
}

/* One byte from the pushback area or the channel; spins on EKDB_NO_CHAR. */
static int rx_byte(struct gdb_session *s)
{
	int c;

	do {
		c = rx_try_byte(s);
	} while (c == EKDB_NO_CHAR);
	return c;
}

static void tx_byte(struct gdb_session *s, u8 c)
{
	s->chan->putc(s->chan->arg, c);
}

/* @n bytes at once: one write() where the channel has one (a DMA transport fills a buffer per call). */
static void tx_span(struct gdb_session *s, const char *p, size_t n)
{
	if (!n)
		return;
	if (s->chan->write) {
		s->chan->write(s->chan->arg, (const u8 *)p, n);
		return;
	}
	while (n--)
		tx_byte(s, (u8)*p++);
}

static void tx_flush(struct gdb_session *s)
{
	if (s->chan->flush)
		s->chan->flush(s->chan->arg);
}

static void tx_ack(struct gdb_session *s, u8 c)
{
	tx_byte(s, c);
	tx_flush(s);
}

/*
 * Resend the stored reply when gdb NAKs it, at most GDB_MAX_RETRANSMIT
 * times in a row.  Only a reply gdb has not acknowledged: after its '+' a
 * '-' is about a request of gdb's that never arrived, and the old reply
 * would be taken for the answer to it.
 */
static void handle_nak(struct gdb_session *s)
{
	if (s->no_ack || !s->have_last || s->nak_count >= GDB_MAX_RETRANSMIT)
		return;
	s->nak_count++;
	s->tx_retransmits++;
	gdb_tx_packet(s);
}

/* '+' outside a frame: gdb has our last reply (or gave up on its request). */
static void handle_ack(struct gdb_session *s)
{
	if (!s->no_ack)
		s->have_last = false;
}

/*
 * A new connection starts with qSupported.  gdb expects acks until it
 * negotiates QStartNoAckMode again, so no-ack mode ends here, before this
 * very packet is acknowledged -- unless no-ack mode was negotiated by the
 * packet just before: lldb sends QStartNoAckMode first, then qSupported.
 */
static bool is_new_connection(const struct gdb_session *s)
{
	return !strncmp(s->inbuf, "qSupported", 10) &&
	       (s->inbuf[10] == '\0' || s->inbuf[10] == ':') && !s->no_ack_just_set;
}

/*
 * Read the rest of a packet after '$'.  Returns GDB_RX_PACKET, GDB_RX_EOF,
 * GDB_RX_DROPPED or -1 when a new '$' restarted the frame.
 */
static int rx_frame(struct gdb_session *s)
{
	bool overflow = false;
	u8 sum = 0;
	int c, hi, lo;

	s->inlen = 0;
	s->rx_id = GDB_ID_SEED;
	for (;;) {
		c = rx_byte(s);
		if (c == EKDB_CHAN_EOF)
			return GDB_RX_EOF;
		if (c == '$')
			return -1;	/* gdb gave up on that one: resync */
		if (c == '#')
			break;
		sum += (u8)c;
		s->rx_id = (s->rx_id ^ (u8)c) * GDB_ID_PRIME;
		if (s->inlen + 1 < s->bufsize)
			s->inbuf[s->inlen++] = (char)c;
		else
			overflow = true;
	}
	s->inbuf[s->inlen] = '\0';
	c = rx_byte(s);
	if (c == EKDB_CHAN_EOF)
		return GDB_RX_EOF;
	hi = hex_val(c);
	c = rx_byte(s);
	if (c == EKDB_CHAN_EOF)
		return GDB_RX_EOF;
	lo = hex_val(c);

	if (overflow) {
		s->rx_oversize++;
		if (s->no_ack) {
			/* gdb waits for a reply, not an ack: tell it the packet was too big. */
			s->outlen = 0;
			tx_err(s, -EKDB_E2BIG);
			gdb_tx_packet(s);
		} else {
			tx_ack(s, '-');
		}
		return GDB_RX_DROPPED;
	}
	if (hi < 0 || lo < 0 || (u8)(hi << 4 | lo) != sum) {
		s->rx_bad_checksum++;
		if (!s->no_ack)
			tx_ack(s, '-');
		return GDB_RX_DROPPED;
	}
	s->rx_id ^= s->inlen;
	if (is_new_connection(s))
		s->no_ack = false;
	return GDB_RX_PACKET;	/* acknowledged by rx_accept(), if it is taken */
}

/* Take the packet in inbuf: the '+' gdb waits for, and remember what it was. */
static void rx_accept(struct gdb_session *s)
{
	s->no_ack_just_set = !strcmp(s->inbuf, "QStartNoAckMode");
	if (!s->no_ack)
		tx_ack(s, '+');
	s->req_id = s->rx_id;
	s->req_valid = true;
	s->rx_packets++;
	s->nak_count = 0;
}

/*
 * With acks on, gdb sends a request again, byte for byte, when our '+'
 * did not reach it in time.  A packet identical to the last one whose
 * reply gdb has not acknowledged is such a copy: it is not run again and
 * not answered again (gdb already has, or will get, the one reply; if
 * that was lost, gdb's '-' has it sent again).  Two answers to one
 * request would make gdb take the second for the answer to its next one.
 */
static bool rx_is_retransmit(const struct gdb_session *s)
{
	return !s->no_ack && s->have_last && s->req_valid && s->rx_id == s->req_id;
}

/* Empty polls that end a backlog (a pause on this channel), and the few that show there is none. */
static unsigned long rx_pause(const struct gdb_session *s)
{
	return s->chan->quiet_polls ? s->chan->quiet_polls(s->chan->arg) : EKDB_QUIET_POLLS;
}

#define GDB_SETTLE_DIV	32	/* a backlog's next byte comes within 1/32 of a pause */

/*
 * Input right behind a request is a backlog, never a conversation: gdb
 * sends nothing between a request and our reply but copies of the request
 * (its '+' did not come: the copy is identical), '-' (its reply did not
 * come) and, when it gives up, '+' (gdb's "Ignoring packet error").  A
 * line that stalled (a halted endpoint, a cable out, a port reset, a
 * line held) delivers all of it at once, long after gdb went on.  So
 * before answering, read what is already there until the line is quiet:
 *  - a newer packet makes the older one obsolete (gdb went on without
 *    it); an identical one is a copy of the same request;
 *  - '+' after an unanswered request: gdb gave up on it, answer nothing;
 *    after an answered one: gdb has the reply;
 *  - '-': gdb still waits for a reply; for an answered request it is
 *    resent once at the end, not once per '-'.
 * @want: a request in inbuf waits for its answer.  Returns GDB_RX_PACKET
 * (answer inbuf), GDB_RX_DROPPED (nothing to answer) or GDB_RX_EOF.
 * Channels whose input is all there at once (scripts) have no backlog.
 */
static int rx_backlog(struct gdb_session *s, bool want)
{
	unsigned long pause = rx_pause(s), quiet = 0, limit = pause / GDB_SETTLE_DIV;
	bool nak = false;
	int c, r;

	/*
	 * Only a live line with acks on has a backlog of retries: in no-ack
	 * mode gdb (and lldb) never resend, so what follows a request is the
	 * user's (a Ctrl-C, line noise) and belongs to the running kernel's
	 * poll, not to this look-ahead (test_stop_path.py::test_wire_edges).
	 */
	if (!s->chan->drop_stale || s->no_ack)
		return want ? GDB_RX_PACKET : GDB_RX_DROPPED;
	if (limit < 2)
		limit = 2;
	while (quiet < limit) {
		c = rx_try_byte(s);
		if (c == EKDB_NO_CHAR) {
			quiet++;
			continue;
		}
		if (c == EKDB_CHAN_EOF)
			return GDB_RX_EOF;
		quiet = 0;
		limit = pause;		/* a backlog: read it to its end */
		if (c == '-') {
			nak = true;
		} else if (c == '+' && !s->no_ack) {
			if (want)
				s->rx_stale++;	/* gdb gave up on it */
			want = nak = false;
			handle_ack(s);
		} else if (c == '$') {
			do {
				r = rx_frame(s);
			} while (r < 0);
			if (r == GDB_RX_EOF)
				return r;
			if (r != GDB_RX_PACKET) {
				want = false;	/* damaged: NAKed, gdb sends it again */
				continue;
			}
			nak = false;
			if (rx_is_retransmit(s)) {
				s->rx_retransmits++;
				continue;
			}
			if (want)
				s->rx_stale++;	/* replaced by a copy or a newer request */
			want = true;
		}
	}
	if (want)
		return GDB_RX_PACKET;
	if (nak)
		handle_nak(s);
	return GDB_RX_DROPPED;
}

/*
 * A line typed by a person, not gdb: gdb sends nothing outside a frame but
 * '+', '-' and Ctrl-C, and never ends anything with Enter.  So at least
 * this many printable bytes outside a frame, then CR or LF, mean that gdb
 * is gone (killed without a word) and someone wants kdb: the line goes
 * back to kdb as "$3#33" would give it (Linux has only "$3#33"; its kdb is
 * then out of reach until the person types a packet).  Two: every kdb
 * command has at least two letters, and one noise byte before a CR is not
 * enough to take the line from a live gdb.
 */
#define GDB_TYPED_MIN	2

/**
 * gdb_rx_packet - wait for the next packet from gdb.
 * Bytes outside a frame: '+' is an ack, '-' asks for the last reply
 * again, 0x03 (Ctrl-C while already stopped) and any other garbage is
 * ignored, except a typed line (GDB_TYPED_MIN).  A copy of a request
 * already answered is not answered again, and a backlog behind a request
 * is read first (rx_backlog): each request gets one reply, and only while
 * gdb still waits for it.  Returns GDB_RX_PACKET (payload in inbuf, '+'
 * sent), GDB_RX_EOF, GDB_RX_DROPPED (bad checksum or oversize; NAKed) or
 * GDB_RX_TYPED.
 */
int gdb_rx_packet(struct gdb_session *s)
{
	unsigned typed = 0;
	int c, r;

	for (;;) {
		c = rx_byte(s);
		if (c == EKDB_CHAN_EOF)
			return GDB_RX_EOF;
		if (c == '-' || c == '+') {
			if (c == '-')
				handle_nak(s);
			else
				handle_ack(s);
			typed = 0;
			continue;
		}
		if ((c == '\r' || c == '\n') && typed >= GDB_TYPED_MIN)
			return GDB_RX_TYPED;
		if (c != '$') {
			typed = c > ' ' && c < 0x7f && c != '+' ? typed + 1 :
				c == ' ' && typed ? typed : 0;
			continue;
		}
		do {
			r = rx_frame(s);
		} while (r < 0);
		if (r != GDB_RX_PACKET)
			return r;
		typed = 0;
		if (rx_is_retransmit(s)) {
			s->rx_retransmits++;
			r = rx_backlog(s, false);
		} else {
			r = rx_backlog(s, true);
		}
		if (r == GDB_RX_EOF)
			return r;
		if (r == GDB_RX_PACKET) {
			rx_accept(s);
			return r;
		}
	}
}

/*
 * Run-length encoding (the protocol's "c*N": N - 29 more copies of c):
 * how many of the @avail bytes after a run's first byte to fold into one
 * "*N", 0 for none.  gdb and lldb expand it in every packet; a count of
 * 6 or 7 would be '#' or '$' and is never sent; 97 is the largest ('~').
 */
#define GDB_RLE_MIN	3
#define GDB_RLE_MAX	97

size_t gdb_rle_run(const char *p, size_t avail)
{
	size_t n = 0;

	while (n < avail && n < GDB_RLE_MAX && p[n + 1] == p[0])
		n++;
	while (n + 29 == '#' || n + 29 == '$')
		n--;
	return n >= GDB_RLE_MIN ? n : 0;
}

static void tx_trailer(struct gdb_session *s, u8 sum)
{
	char t[3] = { '#', (char)hex_digit(sum >> 4), (char)hex_digit(sum) };

	tx_span(s, t, sizeof(t));
	tx_flush(s);
}

/**
 * gdb_tx_packet - send outbuf[0..outlen) as one packet, run-length
 * encoded, and keep it for '-'.  What needs no encoding goes to the
 * channel in spans straight from outbuf.
 */
void gdb_tx_packet(struct gdb_session *s)
{
	size_t i, run, from = 0;
	u8 sum = 0;

	tx_span(s, "$", 1);
	for (i = 0; i < s->outlen; i++) {
		const char *p = &s->outbuf[i];

		sum += (u8)*p;
		/* most bytes start no run: GDB_RLE_MIN more copies are needed for one */
		if (i + GDB_RLE_MIN >= s->outlen || p[1] != p[0] || p[2] != p[0] || p[3] != p[0])
			continue;
		run = gdb_rle_run(p, s->outlen - i - 1);
		if (run) {
			char rle[2] = { '*', (char)(run + 29) };

			tx_span(s, &s->outbuf[from], i + 1 - from);
			tx_span(s, rle, 2);
			sum += (u8)rle[0] + (u8)rle[1];
			i += run;
			from = i + 1;
		}
	}
	tx_span(s, &s->outbuf[from], s->outlen - from);
	tx_trailer(s, sum);
	s->have_last = true;
}

/** gdb_stream_begin - start a packet written straight to the channel. */
void gdb_stream_begin(struct gdb_stream *st, struct gdb_session *s)
{
	st->s = s;
	st->csum = 0;
	tx_span(s, "$", 1);
}

/** gdb_stream_bytes - append raw payload bytes (caller escapes them). */
void gdb_stream_bytes(struct gdb_stream *st, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		st->csum += (u8)p[i];
	tx_span(st->s, p, n);
}

/** gdb_stream_end - close the packet with its checksum and flush. */
void gdb_stream_end(struct gdb_stream *st)
{
	tx_trailer(st->s, st->csum);
}

/* Text bytes per O packet: keeps packets short on a slow serial line. */
#define GDB_CONSOLE_CHUNK	128

/** gdb_stream_console - send @text as "O<hex>" packets, chunked. */
void gdb_stream_console(struct gdb_session *s, const char *text, size_t len)
{
	struct gdb_stream st;
	char hex[2];
	size_t i, n;

	while (len) {
		n = MIN(len, (size_t)GDB_CONSOLE_CHUNK);
		gdb_stream_begin(&st, s);
		gdb_stream_bytes(&st, "O", 1);
		for (i = 0; i < n; i++) {
			hex_encode(hex, &text[i], 1);
			gdb_stream_bytes(&st, hex, 2);
		}
		gdb_stream_end(&st);
		text += n;
		len -= n;
	}
}

void gdb_session_output(struct gdb_session *s, const char *text, size_t len)
{
	if (!s->connected || !len)
		return;
	gdb_stream_console(s, text, len);
}

void gdb_session_pushback(struct gdb_session *s, const char *buf, size_t len)
{
	s->pushback = buf;
	s->pushback_len = len;
}

enum gdb_sniff gdb_sniff(const char *buf, size_t len)
{
	static const char *const starts[] = { "$qSupported", "$?#3f" };
	size_t i = 0, j, n;
	u8 sum = 0;

	while (i < len && (buf[i] == '+' || buf[i] == '-' || buf[i] == 0x03))
		i++;
	if (i == len)
		return i ? GDB_SNIFF_MAYBE : GDB_SNIFF_NO;
	if (buf[i] != '$')
		return GDB_SNIFF_NO;
	buf += i;
	len -= i;
	for (j = 0; j < ARRAY_SIZE(starts); j++) {
		n = strlen(starts[j]);
		if (!strncmp(buf, starts[j], MIN(len, n)))
			return len >= n ? GDB_SNIFF_YES : GDB_SNIFF_MAYBE;
	}
	/* any complete frame with a good checksum */
	for (j = 1; j < len && buf[j] != '#'; j++)
		sum += (u8)buf[j];
	if (j >= len || len - j < 3)
		return GDB_SNIFF_MAYBE;
	if (hex_val((u8)buf[j + 1]) < 0 || hex_val((u8)buf[j + 2]) < 0)
		return GDB_SNIFF_NO;
	return (u8)(hex_val((u8)buf[j + 1]) << 4 | hex_val((u8)buf[j + 2])) == sum ?
	       GDB_SNIFF_YES : GDB_SNIFF_NO;
}
