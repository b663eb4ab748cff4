/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gdbstub.h - the GDB remote serial protocol session (gdbstub/).
 *
 * A gdb_session is pure protocol logic over a struct ekdb_target (the
 * stopped machine) and a struct ekdb_chan (the bytes).  The caller
 * supplies every buffer: static arrays early (early/storage.c), allocated
 * ones later (core/late/init.c); the stub never allocates and keeps no
 * state outside the session.  Moving a live session to bigger buffers is
 * gdb_session_set_buffers().  Nothing here blocks except on the channel.
 */
#ifndef EKDB_GDBSTUB_H
#define EKDB_GDBSTUB_H

#include <ekdb/types.h>
#include <ekdb/target.h>
#include <ekdb/transport.h>

/*
 * Smallest buffer the stub accepts.  A 'G' of every register must fit: the
 * x86-64 description (656 bytes of registers) needs 1312 characters.
 */
#define GDB_MIN_BUFSIZE		2048
/* Bytes of register data reg_read may write into its buffer. */
#define GDB_REG_MAX_BYTES	64
/* Consecutive '-' NAKs answered by retransmitting before we give up. */
#define GDB_MAX_RETRANSMIT	8

/*
 * gdb_monitor_fn - a front-end's command interpreter for gdb's `monitor`
 * (qRcmd): run @cmd, output through @out(@oarg, ...).  0 or an error.
 * kdb's is kdb_monitor() with its session as @arg (core/frontend.c).
 */
typedef int (*gdb_monitor_fn)(void *arg, const char *cmd,
			      void (*out)(void *oarg, const char *s, size_t len), void *oarg);

struct gdb_session {
	struct ekdb_target *target;
	gdb_monitor_fn monitor;	/* NULL: `monitor` answers with a message */
	void *monitor_arg;
	const struct ekdb_chan *chan;
	char *inbuf;		/* received payload, NUL-terminated */
	char *outbuf;		/* reply payload being built / last reply sent */
	size_t bufsize;		/* size of each of inbuf and outbuf */
	size_t inlen;
	size_t outlen;
	bool out_overflow;	/* a tx helper ran out of room */
	bool have_last;		/* outbuf holds a reply gdb has not acked ('-' resends it) */
	unsigned nak_count;	/* consecutive retransmits of the last reply */
	u64 rx_id;		/* identity of the packet just framed (payload hash, length) */
	u64 req_id;		/* ... of the request the reply in outbuf answers */
	bool req_valid;		/* req_id names a request (not a stop reply's 'c') */

	const char *pushback;	/* bytes to consume before the channel */
	size_t pushback_len;

	bool connected;		/* gdb has sent a good packet since attach */
	bool no_ack;		/* QStartNoAckMode accepted */
	bool no_ack_just_set;	/* the last packet was QStartNoAckMode (lldb's order) */
	bool gdb_swbreak;	/* gdb announced swbreak+ / hwbreak+ */
	bool gdb_hwbreak;
	bool gdb_binary_upload;	/* gdb announced binary-upload+ ('x' with 'b') */
	u64 g_thread;		/* Hg selection (0 = the stopped thread) */
	u64 c_thread;		/* Hc selection, recorded only */
	int thread_iter;	/* qsThreadInfo cursor */
	u64 stop_func;		/* function of the last stop reply's pc, 0: none */

	struct ekdb_stop stop;	/* why we are stopped (copied from run()) */
	bool done;		/* a handler ended the loop */
	bool suppress_reply;	/* the handler sends no reply (c, s, k, 3) */
	struct ekdb_resume resume;

	/* counters for tests and `monitor` diagnostics */
	unsigned long rx_packets, rx_bad_checksum, rx_oversize, tx_retransmits;
	unsigned long rx_retransmits;	/* gdb's copies of an answered request, not answered again */
	unsigned long rx_stale;		/* requests gdb went on without: never answered */
};

/**
 * gdb_session_init - prepare @s to talk to gdb over @chan about @target.
 * @inbuf/@outbuf: caller-owned, @bufsize bytes each (>= GDB_MIN_BUFSIZE).
 * Context: any; no I/O is done.  Returns 0 or -EKDB_EINVAL.
 */
int gdb_session_init(struct gdb_session *s, struct ekdb_target *target,
		     const struct ekdb_chan *chan, char *inbuf, char *outbuf,
		     size_t bufsize);

/*
 * gdb_session_set_monitor - who runs gdb's `monitor` commands for @s
 * (@fn NULL: nobody).  The front end sets it after gdb_session_init().
 */
void gdb_session_set_monitor(struct gdb_session *s, gdb_monitor_fn fn, void *arg);

/**
 * gdb_session_set_buffers - move a live session to other buffers (e.g.
 * larger, allocated ones at the early→late handoff).  Connection state
 * (no-ack mode, thread selection) is kept; the last reply is copied.
 * Returns 0 or -EKDB_EINVAL (too small for the last reply).
 */
int gdb_session_set_buffers(struct gdb_session *s, char *inbuf, char *outbuf,
			    size_t bufsize);

/**
 * gdb_session_run - serve gdb while the machine is stopped.
 * @stop: why the machine stopped (copied; answered to '?').
 * @announce: send the stop reply for @stop first (gdb is waiting after
 * 'c'/'s').  Suppressed while gdb has never connected (kgdbwait before
 * gdb attaches): gdb asks with '?' when it connects.
 * Context: machine stopped, debugger CPU, interrupts off.
 * Returns what the core must do: continue/step (maybe at a new pc),
 * detach, kill, switch to kdb, or EOF (the channel closed; host only).
 */
struct ekdb_resume gdb_session_run(struct gdb_session *s, const struct ekdb_stop *stop,
				   bool announce);

/**
 * gdb_session_pushback - bytes already read from the channel by someone
 * else (kdb saw "$qSupported..." at its prompt) that run() must consume
 * before polling the channel.  @buf must stay valid until run() returns.
 */
void gdb_session_pushback(struct gdb_session *s, const char *buf, size_t len);

/**
 * gdb_session_output - send @text as gdb console output ("O" packets,
 * kgdbcon).  Does nothing unless gdb is connected.  Context: any time the
 * channel may be written (also while the kernel runs); does not wait
 * for gdb's ack.
 */
void gdb_session_output(struct gdb_session *s, const char *text, size_t len);

/*
 * gdb_set_plain - offer gdb only what a plainer stub that takes the session
 * over later has (ekdb_set_gdb_plain(), <ekdb/ekdb.h>): qSupported answers
 * PacketSize alone (no target.xml, no QStartNoAckMode, no swbreak+/hwbreak+
 * stop reasons).  gdb_plain - the setting.  For every session.
 */
void gdb_set_plain(bool on);
bool gdb_plain(void);

/** gdb_session_connected - true if gdb is attached to @s. */
bool gdb_session_connected(const struct gdb_session *s);

/** gdb_session_disconnect - forget gdb (e.g. kdb took the line over). */
void gdb_session_disconnect(struct gdb_session *s);

enum gdb_sniff {
	GDB_SNIFF_NO = 0,	/* not gdb: kdb keeps the input */
	GDB_SNIFF_MAYBE,	/* could be gdb: need more bytes */
	GDB_SNIFF_YES,		/* gdb traffic: hand it (pushback) to the stub */
};

/**
 * gdb_sniff - does input seen at the kdb prompt look like gdb talking?
 * Leading '+', '-' and 0x03 bytes are skipped; then "$qSupported",
 * "$?#3f" or any complete "$...#xx" with a correct checksum is gdb.
 * Pure function, no state.
 */
enum gdb_sniff gdb_sniff(const char *buf, size_t len);

#endif
