/* SPDX-License-Identifier: GPL-2.0 */
/* session.c - gdb session lifetime and the serve-until-resume loop. */
#include "gdb_int.h"

int gdb_session_init(struct gdb_session *s, struct ekdb_target *target,
		     const struct ekdb_chan *chan, char *inbuf, char *outbuf,
		     size_t bufsize)
{
	if (!s || !target || !target->ops || !chan || !chan->getc || !chan->putc ||
	    !inbuf || !outbuf || bufsize < GDB_MIN_BUFSIZE)
		return -EKDB_EINVAL;
	memset(s, 0, sizeof(*s));
	s->target = target;
	s->chan = chan;
	s->inbuf = inbuf;
	s->outbuf = outbuf;
	s->bufsize = bufsize;
	s->inbuf[0] = '\0';
	return 0;
}

void gdb_session_set_monitor(struct gdb_session *s, gdb_monitor_fn fn, void *arg)
{
	s->monitor = fn;
	s->monitor_arg = arg;
}

int gdb_session_set_buffers(struct gdb_session *s, char *inbuf, char *outbuf,
			    size_t bufsize)
{
	if (!inbuf || !outbuf || bufsize < GDB_MIN_BUFSIZE || bufsize < s->outlen)
		return -EKDB_EINVAL;
	memmove(outbuf, s->outbuf, s->outlen);
	s->inbuf = inbuf;
	s->outbuf = outbuf;
	s->bufsize = bufsize;
	s->inbuf[0] = '\0';
	s->inlen = 0;
	return 0;
}

bool gdb_session_connected(const struct gdb_session *s)
{
	return s->connected;
}

void gdb_session_disconnect(struct gdb_session *s)
{
	s->connected = false;
	s->no_ack = false;
	s->no_ack_just_set = false;
	s->have_last = false;
	s->req_valid = false;
	s->g_thread = 0;
	s->c_thread = 0;
}

struct ekdb_resume gdb_session_run(struct gdb_session *s, const struct ekdb_stop *stop,
				   bool announce)
{
	int r;

	s->stop = *stop;
	s->done = false;
	memset(&s->resume, 0, sizeof(s->resume));
	s->resume.action = EKDB_RESUME_CONTINUE;
	/* Registers shown to gdb are those of the thread that stopped. */
	s->g_thread = 0;
	s->req_valid = false;	/* the stop reply answers no packet gdb could send again */

	if (announce && s->connected) {
		s->outlen = 0;
		s->out_overflow = false;
		gdb_tx_stop_reply(s);
		gdb_tx_packet(s);
	}
	while (!s->done) {
		r = gdb_rx_packet(s);
		if (r == GDB_RX_EOF) {
			gdb_session_disconnect(s);
			s->resume.action = EKDB_RESUME_EOF;
			break;
		}
		if (r == GDB_RX_TYPED) {
			/* gdb is gone and a person typed at its line: kdb, as "$3#33" */
			gdb_cmd_to_kdb(s, "", 0);
			break;
		}
		if (r != GDB_RX_PACKET)
			continue;
		s->connected = true;
		gdb_dispatch(s);
	}
	s->pushback_len = 0;
	return s->resume;
}
