/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gdb_int.h - gdbstub internals: the reply cursor (tx_*), the request
 * cursor (rx_*), framing entry points and the command handlers.
 */
#ifndef GDBSTUB_GDB_INT_H
#define GDBSTUB_GDB_INT_H

#include <ekdb/gdbstub.h>
#include <ekdb/errno.h>
#include <ekdb/hex.h>
#include <ekdb/parse.h>
#include <ekdb/string.h>

/* A command handler: @args points just past the packet letter (or name),
 * NUL-terminated, @len bytes long.  It writes its reply with tx_*(). */
typedef void (*gdb_cmd_fn)(struct gdb_session *s, const char *args, size_t len);

/* ---- framing (packet.c) ---- */
#define GDB_RX_PACKET	0	/* a good packet is in inbuf */
#define GDB_RX_EOF	1	/* the channel closed */
#define GDB_RX_DROPPED	2	/* bad/oversize packet: already NAKed */
#define GDB_RX_TYPED	3	/* a person typed a line: gdb is not there (issue 21) */
int gdb_rx_packet(struct gdb_session *s);
/* A request's identity (gdb_session.rx_id): FNV-1a 64 of its payload, xor its length. */
#define GDB_ID_SEED	0xcbf29ce484222325ULL
#define GDB_ID_PRIME	0x100000001b3ULL
void gdb_tx_packet(struct gdb_session *s);
size_t gdb_rle_run(const char *p, size_t avail);	/* repeats to fold after p[0] */
/* Streamed packet, never stored (O console packets). */
struct gdb_stream {
	struct gdb_session *s;
	u8 csum;
};
void gdb_stream_begin(struct gdb_stream *st, struct gdb_session *s);
void gdb_stream_bytes(struct gdb_stream *st, const char *p, size_t n);
void gdb_stream_end(struct gdb_stream *st);
void gdb_stream_console(struct gdb_session *s, const char *text, size_t len);

/* ---- dispatch (dispatch.c) ---- */
void gdb_dispatch(struct gdb_session *s);

struct gdb_named_cmd {
	const char *name;	/* "qSupported", "qXfer:features:read:" ... */
	gdb_cmd_fn fn;
};
bool gdb_dispatch_named(struct gdb_session *s, const struct gdb_named_cmd *tab,
			size_t n);

/* ---- reply cursor: all bounded by bufsize, overflow sets out_overflow ---- */
static inline size_t tx_room(const struct gdb_session *s)
{
	return s->bufsize - s->outlen;
}

static inline void tx_char(struct gdb_session *s, char c)
{
	if (s->outlen < s->bufsize)
		s->outbuf[s->outlen++] = c;
	else
		s->out_overflow = true;
}

static inline void tx_str(struct gdb_session *s, const char *str)
{
	while (*str)
		tx_char(s, *str++);
}

void tx_hex(struct gdb_session *s, const void *buf, size_t n);
void tx_hex_str(struct gdb_session *s, const char *str);
void tx_hex_u64(struct gdb_session *s, u64 v);	/* no leading zeros */
void tx_hex_u8(struct gdb_session *s, unsigned v);	/* exactly two digits */
void tx_ok(struct gdb_session *s);
void tx_err(struct gdb_session *s, int err);	/* "Enn" from -EKDB_E* */
static inline void tx_none(struct gdb_session *s) { s->suppress_reply = true; }

/* ---- request cursor ---- */
static inline bool rx_char(const char **p, char c)
{
	if (**p != c)
		return false;
	(*p)++;
	return true;
}

static inline int rx_hex(const char **p, u64 *v)
{
	return hex_parse_u64(p, v);
}

int rx_thread_id(const char **p, u64 *tid);	/* hex, "0", "-1" (all), -<hex> (32-bit) */

/* ---- helpers shared by handlers ---- */
void gdb_tx_stop_reply(struct gdb_session *s);
void gdb_reg_layout(struct gdb_session *s, struct ekdb_reg_layout *l);
void gdb_tx_expedited(struct gdb_session *s, bool at_break);
u64 gdb_current_thread(struct gdb_session *s);
int gdb_thread_find(struct gdb_session *s, u64 id, struct ekdb_thread_info *info);
/* Thread ids on the wire (plain mode: Linux's gdbstub's numbering; cmd_thread.c). */
#define GDB_TID_NONE	((u64)-2)	/* an id gdb named that no thread has */
u64 gdb_tid_in(struct gdb_session *s, u64 wire);
void tx_thread_id(struct gdb_session *s, u64 id);

/* ---- handlers, one family per file ---- */
void gdb_cmd_mem_read(struct gdb_session *s, const char *a, size_t len);	/* m */
void gdb_cmd_mem_write(struct gdb_session *s, const char *a, size_t len);	/* M */
void gdb_cmd_mem_write_bin(struct gdb_session *s, const char *a, size_t len);	/* X */
void gdb_cmd_mem_read_bin(struct gdb_session *s, const char *a, size_t len);	/* x */
void gdb_cmd_regs_read(struct gdb_session *s, const char *a, size_t len);	/* g */
void gdb_cmd_regs_write(struct gdb_session *s, const char *a, size_t len);	/* G */
void gdb_cmd_reg_read(struct gdb_session *s, const char *a, size_t len);	/* p */
void gdb_cmd_reg_write(struct gdb_session *s, const char *a, size_t len);	/* P */
void gdb_cmd_bp_set(struct gdb_session *s, const char *a, size_t len);	/* Z */
void gdb_cmd_bp_remove(struct gdb_session *s, const char *a, size_t len);	/* z */
void gdb_cmd_status(struct gdb_session *s, const char *a, size_t len);	/* ? */
void gdb_cmd_continue(struct gdb_session *s, const char *a, size_t len);	/* c */
void gdb_cmd_step(struct gdb_session *s, const char *a, size_t len);	/* s */
void gdb_cmd_continue_sig(struct gdb_session *s, const char *a, size_t len);	/* C */
void gdb_cmd_step_sig(struct gdb_session *s, const char *a, size_t len);	/* S */
void gdb_cmd_detach(struct gdb_session *s, const char *a, size_t len);	/* D */
void gdb_cmd_kill(struct gdb_session *s, const char *a, size_t len);	/* k */
void gdb_cmd_to_kdb(struct gdb_session *s, const char *a, size_t len);	/* 3 */
void gdb_cmd_vcont_query(struct gdb_session *s, const char *a, size_t len);
void gdb_cmd_vcont(struct gdb_session *s, const char *a, size_t len);
void gdb_cmd_supported(struct gdb_session *s, const char *a, size_t len);
void gdb_cmd_no_ack(struct gdb_session *s, const char *a, size_t len);
void gdb_cmd_xfer_features(struct gdb_session *s, const char *a, size_t len);
void gdb_cmd_xfer_libraries(struct gdb_session *s, const char *a, size_t len);
void gdb_cmd_xfer_libraries_svr4(struct gdb_session *s, const char *a, size_t len);
void gdb_cmd_attached(struct gdb_session *s, const char *a, size_t len);
void gdb_cmd_offsets(struct gdb_session *s, const char *a, size_t len);
void gdb_cmd_set_thread(struct gdb_session *s, const char *a, size_t len);	/* H */
void gdb_cmd_thread_alive(struct gdb_session *s, const char *a, size_t len);	/* T */
void gdb_cmd_current_thread(struct gdb_session *s, const char *a, size_t len);	/* qC */
void gdb_cmd_thread_first(struct gdb_session *s, const char *a, size_t len);
void gdb_cmd_thread_next(struct gdb_session *s, const char *a, size_t len);
void gdb_cmd_thread_extra(struct gdb_session *s, const char *a, size_t len);
void gdb_cmd_monitor(struct gdb_session *s, const char *a, size_t len);	/* qRcmd */

#endif
