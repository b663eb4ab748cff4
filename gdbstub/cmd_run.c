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

/*
 * The stopped thread's expedited registers and "core:", read with that
 * thread selected (a "?" may come after an Hg that selected another).
 */
/* A stop gdb reports with the function's frame (and so its arguments). */
static bool at_break(const struct ekdb_stop *st)
{
	switch (st->reason) {
	case EKDB_STOP_SWBREAK:
	case EKDB_STOP_HWBREAK:
	case EKDB_STOP_WATCH:
	case EKDB_STOP_RWATCH:
	case EKDB_STOP_AWATCH:
		return true;
	default:
		return false;
	}
}

static void tx_stop_state(struct gdb_session *s)
{
	const struct ekdb_target_ops *ops = s->target->ops;
	struct ekdb_thread_info info;
	u64 tid = gdb_current_thread(s);
	bool other = s->g_thread && s->g_thread != (u64)-1;

	if (!ops->thread_select || ops->thread_select(s->target, tid) >= 0)
		gdb_tx_expedited(s, at_break(&s->stop));
	if (ops->thread_select && other)
		ops->thread_select(s->target, s->g_thread);
	if (has_threads(s) && !gdb_thread_find(s, tid, &info) && info.cpu >= 0) {
		tx_str(s, "core:");
		tx_hex_u64(s, (u64)info.cpu);
		tx_char(s, ';');
	}
}

/**
 * gdb_tx_stop_reply - "T<sig>[NN:value;...]thread:<tid>;core:<cpu>;<reason>"
 * for the current stop: the expedited registers let gdb show the stop
 * without a 'g'.  "S<sig>" only when the target has no threads, no
 * register to expedite and no reason to report.  swbreak/hwbreak are only
 * sent when gdb announced it knows them.
 */
void gdb_tx_stop_reply(struct gdb_session *s)
{
	const struct ekdb_stop *st = &s->stop;
	struct ekdb_reg_layout l;
	bool threads = has_threads(s) || st->thread;
	bool reason = st->reason == EKDB_STOP_WATCH || st->reason == EKDB_STOP_RWATCH ||
		      st->reason == EKDB_STOP_AWATCH ||
		      (st->reason == EKDB_STOP_SWBREAK && s->gdb_swbreak) ||
		      (st->reason == EKDB_STOP_HWBREAK && s->gdb_hwbreak);

	gdb_reg_layout(s, &l);
	if (!threads && !reason && !l.n_expedite &&
	    !(at_break(st) && l.n_expedite_break)) {
		tx_char(s, 'S');
		tx_hex_u8(s, (unsigned)stop_signal(st));
		return;
	}
	tx_char(s, 'T');
	tx_hex_u8(s, (unsigned)stop_signal(st));
	if (threads) {
		tx_str(s, "thread:");
		tx_thread_id(s, gdb_current_thread(s));
		tx_char(s, ';');
	}
	tx_stop_state(s);
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

/* How many threads gdb sees (one without thread ops). */
static unsigned thread_total(struct gdb_session *s)
{
	if (!has_threads(s))
		return 1;
	return (unsigned)s->target->ops->thread_count(s->target);
}

static void cont_or_step(struct gdb_session *s, const char *a, bool with_sig,
			 enum ekdb_resume_action action)
{
	u64 sig = 0;

	s->resume.set_pc = false;
	s->resume.thread = 0;
	s->resume.only = false;
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
	if (gdb_plain())
		return;		/* "": gdb resumes with c and s, as with Linux's stub */
	tx_str(s, "vCont;c;C;s;S;t");
}

/* May thread @tid be stepped or resumed on its own?  0 or -EKDB_E*. */
static int check_resumable(struct gdb_session *s, u64 tid)
{
	struct ekdb_thread_info info;

	if (gdb_thread_find(s, tid, &info))
		return -EKDB_ENOENT;
	if (s->target->ops->thread_resume_check)
		return s->target->ops->thread_resume_check(s->target, tid);
	return 0;
}

/**
 * gdb_cmd_vcont - "vCont;action[:tid];...".  For each thread the leftmost
 * action naming it (or the default, without a tid) applies.  In a kernel:
 *  - one thread steps (s:N, or s for the stopped thread); the others stay
 *    stopped until it stops again, whatever their action (Linux holds the
 *    other CPUs during a step), so gdb's step over a breakpoint is never
 *    overtaken by another thread's stop;
 *  - a default c continues every thread;
 *  - c:N alone, no default: only thread N runs, the others stay stopped;
 *  - t, or no action: stays stopped; only 't's: OK, nothing runs.
 * A thread id that does not exist, one that cannot run on its own (a CPU
 * the debugger does not hold), two threads stepping at once, or several
 * named continues that are not everyone get an error.
 */
/* What a vCont packet asks, gathered before anything resumes. */
struct vcont_plan {
	u64 sig, step_tid, run_tid;
	bool dflt_seen, dflt_run, dflt_step;	/* the action without a thread (or -1) */
	unsigned named_runs, named_steps;
};

/* One action ("c", "s:2", "C05:1", "t:3") into @p: 0 or -errno. */
static int vcont_action(struct gdb_session *s, const char **ap, struct vcont_plan *p)
{
	const char *a = *ap;
	bool named = false, step = false;
	char act = *a++;
	u64 v, tid;
	int r;

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
			return -EKDB_EINVAL;
		p->sig = v;
		step = act == 'S';
		break;
	default:
		return -EKDB_EINVAL;
	}
	if (rx_char(&a, ':')) {
		if (rx_thread_id(&a, &tid))
			return -EKDB_EINVAL;
		tid = gdb_tid_in(s, tid);
		named = tid != (u64)-1 && tid != 0;
	}
	*ap = a;
	if (!named) {
		if (!p->dflt_seen) {
			p->dflt_seen = true;
			p->dflt_run = act != 't';
			p->dflt_step = step;
		}
		return 0;
	}
	if (act == 't') {
		struct ekdb_thread_info info;

		return gdb_thread_find(s, tid, &info);
	}
	r = check_resumable(s, tid);
	if (r)
		return r;
	/* leftmost wins: a later action for the same thread is ignored */
	if (tid != p->step_tid && tid != p->run_tid) {
		if (step) {
			p->named_steps++;
			p->step_tid = tid;
		} else {
			p->named_runs++;
			p->run_tid = tid;
		}
	}
	return 0;
}

void gdb_cmd_vcont(struct gdb_session *s, const char *a, size_t len)
{
	struct vcont_plan p = { 0 };
	int r;

	for (;;) {
		r = vcont_action(s, &a, &p);
		if (r)
			return tx_err(s, r);
		if (!*a)
			break;
		if (!rx_char(&a, ';'))
			return tx_err(s, -EKDB_EINVAL);
	}
	s->resume.set_pc = false;
	s->resume.thread = 0;
	s->resume.only = false;
	if (p.named_steps > 1 || (p.named_steps && p.dflt_step))
		return tx_err(s, -EKDB_EINVAL);	/* one CPU steps at a time */
	if (p.named_steps || p.dflt_step) {
		if (p.named_steps) {
			s->resume.thread = p.step_tid;
		} else if ((r = check_resumable(s, gdb_current_thread(s)))) {
			return tx_err(s, r);
		}
		return resume(s, EKDB_RESUME_STEP, (int)p.sig);
	}
	if (p.dflt_run)
		return resume(s, EKDB_RESUME_CONTINUE, (int)p.sig);
	if (!p.named_runs)
		return tx_ok(s);	/* nothing resumes */
	if (p.named_runs == 1 && thread_total(s) > 1) {
		s->resume.thread = p.run_tid;
		s->resume.only = true;
		return resume(s, EKDB_RESUME_CONTINUE, (int)p.sig);
	}
	if (p.named_runs == thread_total(s))
		return resume(s, EKDB_RESUME_CONTINUE, (int)p.sig);
	tx_err(s, -EKDB_EINVAL);	/* some threads, not all: not in a kernel */
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
