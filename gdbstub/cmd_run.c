/* SPDX-License-Identifier: GPL-2.0 */
/* cmd_run.c - run control (? c s C S vCont D k and $3 to kdb) and stop replies. */
#include "gdb_int.h"

#define GDB_SIGINT	2
#define GDB_SIGTRAP	5
#define GDB_SIGSEGV	11

static int stop_signal(const struct ekdb_stop *st)
{
	if (st->signal > 0 && st->signal < 256)
		return st->signal;
	switch (st->reason) {
	case EKDB_STOP_INTERRUPT:
		return GDB_SIGINT;
	case EKDB_STOP_FAULT:
		return GDB_SIGSEGV;
	default:
		return GDB_SIGTRAP;
	}
}

static bool has_threads(const struct gdb_session *s)
{
	return s->target->ops->thread_count && s->target->ops->thread_get;
}

/**
 * gdb_current_thread - the thread gdb should see as stopped: the one in
 * the stop record, else the target's idea, else 1.
 */
u64 gdb_current_thread(struct gdb_session *s)
{
	if (s->stop.thread)
		return s->stop.thread;
	if (s->target->ops->thread_current)
		return s->target->ops->thread_current(s->target);
	return 1;
}

static void tx_watch(struct gdb_session *s, const char *kind)
{
	tx_str(s, kind);
	tx_char(s, ':');
	tx_hex_u64(s, s->stop.watch_addr);
	tx_char(s, ';');
}

/**
 * gdb_tx_stop_reply - "T<sig>thread:<tid>;<reason>" for the current stop,
 * or "S<sig>" when the target has no threads and there is no reason to
 * report.  swbreak/hwbreak are only sent when gdb announced it knows them.
 */
void gdb_tx_stop_reply(struct gdb_session *s)
{
	const struct ekdb_stop *st = &s->stop;
	bool threads = has_threads(s) || st->thread;
	bool reason = st->reason == EKDB_STOP_WATCH || st->reason == EKDB_STOP_RWATCH ||
		      st->reason == EKDB_STOP_AWATCH ||
		      (st->reason == EKDB_STOP_SWBREAK && s->gdb_swbreak) ||
		      (st->reason == EKDB_STOP_HWBREAK && s->gdb_hwbreak);

	if (!threads && !reason) {
		tx_char(s, 'S');
		tx_hex_u8(s, (unsigned)stop_signal(st));
		return;
	}
	tx_char(s, 'T');
	tx_hex_u8(s, (unsigned)stop_signal(st));
	if (threads) {
		tx_str(s, "thread:");
		tx_hex_u64(s, gdb_current_thread(s));
		tx_char(s, ';');
	}
	switch (st->reason) {
	case EKDB_STOP_SWBREAK:
		if (s->gdb_swbreak)
			tx_str(s, "swbreak:;");
		break;
	case EKDB_STOP_HWBREAK:
		if (s->gdb_hwbreak)
			tx_str(s, "hwbreak:;");
		break;
	case EKDB_STOP_WATCH:
		tx_watch(s, "watch");
		break;
	case EKDB_STOP_RWATCH:
		tx_watch(s, "rwatch");
		break;
	case EKDB_STOP_AWATCH:
		tx_watch(s, "awatch");
		break;
	default:
		break;
	}
}

/** gdb_cmd_status - "?": why we stopped (asked again on every connect). */
void gdb_cmd_status(struct gdb_session *s, const char *a, size_t len)
{
	gdb_tx_stop_reply(s);
}

static void resume(struct gdb_session *s, enum ekdb_resume_action action, int sig)
{
	s->resume.action = action;
	s->resume.signal = sig;
	s->done = true;
	tx_none(s);
}

/* "[addr]" after c/s, or ";addr" after C/S: resume at a new pc. */
static int rx_resume_addr(struct gdb_session *s, const char *a)
{
	u64 pc;

	if (!*a)
		return 0;
	if (rx_hex(&a, &pc) || *a)
		return -EKDB_EINVAL;
	s->resume.set_pc = true;
	s->resume.pc = pc;
	return 0;
}

static void cont_or_step(struct gdb_session *s, const char *a, bool with_sig,
			 enum ekdb_resume_action action)
{
	u64 sig = 0;

	s->resume.set_pc = false;
	if (with_sig) {
		if (rx_hex(&a, &sig) || sig > 0xff)
			return tx_err(s, -EKDB_EINVAL);
		if (*a && !rx_char(&a, ';'))
			return tx_err(s, -EKDB_EINVAL);
		if (!*a && a[-1] == ';')
			return tx_err(s, -EKDB_EINVAL);
	}
	if (rx_resume_addr(s, a))
		return tx_err(s, -EKDB_EINVAL);
	resume(s, action, (int)sig);
}

/** gdb_cmd_continue - "c [addr]". */
void gdb_cmd_continue(struct gdb_session *s, const char *a, size_t len)
{
	cont_or_step(s, a, false, EKDB_RESUME_CONTINUE);
}

/** gdb_cmd_step - "s [addr]". */
void gdb_cmd_step(struct gdb_session *s, const char *a, size_t len)
{
	cont_or_step(s, a, false, EKDB_RESUME_STEP);
}

/** gdb_cmd_continue_sig - "C sig[;addr]" (the kernel ignores the signal). */
void gdb_cmd_continue_sig(struct gdb_session *s, const char *a, size_t len)
{
	cont_or_step(s, a, true, EKDB_RESUME_CONTINUE);
}

/** gdb_cmd_step_sig - "S sig[;addr]". */
void gdb_cmd_step_sig(struct gdb_session *s, const char *a, size_t len)
{
	cont_or_step(s, a, true, EKDB_RESUME_STEP);
}

/** gdb_cmd_vcont_query - "vCont?": the actions we understand. */
void gdb_cmd_vcont_query(struct gdb_session *s, const char *a, size_t len)
{
	tx_str(s, "vCont;c;C;s;S;t");
}

/**
 * gdb_cmd_vcont - "vCont;action[:tid];...".  All CPUs resume together in
 * a kernel, so a step anywhere in the list means "step the stopped CPU",
 * otherwise continue.  A list of only 't' (stop) resumes nothing: OK.
 */
void gdb_cmd_vcont(struct gdb_session *s, const char *a, size_t len)
{
	bool step = false, run = false;
	u64 sig = 0, v, tid;
	char act;

	for (;;) {
		act = *a++;
		switch (act) {
		case 'c':
		case 't':
			break;
		case 's':
			step = true;
			break;
		case 'C':
		case 'S':
			if (rx_hex(&a, &v) || v > 0xff)
				return tx_err(s, -EKDB_EINVAL);
			sig = v;
			step |= act == 'S';
			break;
		default:
			return tx_err(s, -EKDB_EINVAL);
		}
		run |= act != 't';
		if (rx_char(&a, ':') && rx_thread_id(&a, &tid))
			return tx_err(s, -EKDB_EINVAL);
		if (!*a)
			break;
		if (!rx_char(&a, ';'))
			return tx_err(s, -EKDB_EINVAL);
	}
	if (!run)
		return tx_ok(s);
	s->resume.set_pc = false;
	resume(s, step ? EKDB_RESUME_STEP : EKDB_RESUME_CONTINUE, (int)sig);
}

/** gdb_cmd_detach - "D" or "D;pid": OK, then the core removes gdb's breakpoints. */
void gdb_cmd_detach(struct gdb_session *s, const char *a, size_t len)
{
	u64 pid;

	if (*a && (!rx_char(&a, ';') || rx_hex(&a, &pid) || *a))
		return tx_err(s, -EKDB_EINVAL);
	s->resume.action = EKDB_RESUME_DETACH;
	s->resume.set_pc = false;
	s->done = true;
	tx_ok(s);
	gdb_session_disconnect(s);
}

/** gdb_cmd_kill - "k": no reply; the kernel lives on without gdb's breakpoints. */
void gdb_cmd_kill(struct gdb_session *s, const char *a, size_t len)
{
	s->resume.set_pc = false;
	resume(s, EKDB_RESUME_KILL, 0);
	gdb_session_disconnect(s);
}

/**
 * gdb_cmd_to_kdb - "$3#33" (gdb: maintenance packet 3): switch to kdb.
 * Like Linux kgdb, no reply is sent and gdb is considered gone.
 */
void gdb_cmd_to_kdb(struct gdb_session *s, const char *a, size_t len)
{
	if (*a)
		return;	/* not ours: empty reply */
	s->resume.set_pc = false;
	resume(s, EKDB_RESUME_TO_KDB, 0);
	gdb_session_disconnect(s);
}
