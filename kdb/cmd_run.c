/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_run.c - run control: go [addr], ss, ssb (step until the next
 * instruction is a branch), cpu [N], kgdb (hand the line to gdb), reboot,
 * sr <key> (sysrq).  These only record what the core must do: the
 * machine resumes after kdb_session_run() returns.
 */
#include "kdb.h"

/** kdb_cmd_go - go [vaddr]: continue, at vaddr if given. */
int kdb_cmd_go(struct kdb_session *s, int argc, const char **argv)
{
	int next = 1, r, entry = kdb_stop_cpu(s);
	u64 addr;

	if (s->cpu != entry) {
		/* Linux: only the CPU that entered kdb may resume the machine */
		kdb_printf(s, "go must execute on the entry cpu, "
			   "please use \"cpu %d\" and then execute go\n", entry);
		return -KDB_BADCPUNUM;
	}
	/* a panic cannot return: Linux's "catastrophic" rule */
	if (s->stop.reason == EKDB_STOP_PANIC) {
		kdb_printf(s, "Catastrophic error detected\n");
		kdb_printf(s, "kdb_continue_catastrophic=0, ");
		if (s->go_count++ == 0) {
			kdb_printf(s, "type go a second time if you really want to continue\n");
			return 0;
		}
		kdb_printf(s, "attempting to continue\n");
	}
	if (argc) {
		r = kdb_getaddrarg(s, argc, argv, &next, &addr);
		/* Linux takes one word: more that are not one expression (`go x y`) is -2 */
		if (argc > 1 && (r || next <= argc))
			return -KDB_ARGCOUNT;
		if (r)
			return r;
		s->resume.set_pc = true;
		s->resume.pc = addr;
	}
	s->resume.action = EKDB_RESUME_CONTINUE;
	return KDB_CMD_GO;
}

/* The thread id of CPU @cpu, 0 (the one that stopped) if none says so. */
static u64 cpu_thread(struct kdb_session *s, int cpu)
{
	const struct ekdb_target_ops *o = s->target->ops;
	struct ekdb_thread_info ti;

	if (!o->thread_count || !o->thread_get)
		return 0;
	for (int i = 0; i < o->thread_count(s->target); i++)
		if (o->thread_get(s->target, i, &ti) == 0 && ti.cpu == cpu)
			return ti.id;
	return 0;
}

/** kdb_cmd_ss - ss: one instruction; ssb: steps until a branch is next. */
int kdb_cmd_ss(struct kdb_session *s, int argc, const char **argv)
{
	if (argc)
		return -KDB_TOOMANYARGS;
	s->ssb = !strcmp(argv[0], "ssb");
	s->ssb_steps = 0;
	/* after `cpu N` the step is CPU N's (the others stay held) */
	s->resume.thread = cpu_thread(s, s->cpu);
	return KDB_CMD_SS;
}

/** kdb_cpu_count - CPUs the debugger knows (highest index + 1). */
unsigned kdb_cpu_count(struct kdb_session *s)
{
	const struct ekdb_target_ops *o = s->target->ops;
	struct ekdb_thread_info ti;
	unsigned n = 0;

	if (o->cpu_count)
		return o->cpu_count(s->target);
	for (int i = 0; i < o->thread_count(s->target); i++)
		if (o->thread_get(s->target, i, &ti) == 0 && ti.cpu >= 0 && (unsigned)ti.cpu + 1 > n)
			n = (unsigned)ti.cpu + 1;
	return n ? n : 1;
}

/**
 * kdb_select_cpu - make CPU @cpu's registers the ones rd/bt/%reg see:
 * 0 or -KDB_BADCPUNUM.
 */
int kdb_select_cpu(struct kdb_session *s, int cpu)
{
	const struct ekdb_target_ops *o = s->target->ops;
	struct ekdb_thread_info ti;

	if (cpu < 0 || (unsigned)cpu >= kdb_cpu_count(s))
		return -KDB_BADCPUNUM;
	if (o->cpu_select)
		return o->cpu_select(s->target, (unsigned)cpu) ? -KDB_BADCPUNUM : 0;
	for (int i = 0; i < o->thread_count(s->target); i++)
		if (o->thread_get(s->target, i, &ti) == 0 && ti.cpu == cpu)
			return o->thread_select(s->target, ti.id) ? -KDB_BADCPUNUM : 0;
	return -KDB_BADCPUNUM;
}

/** kdb_stop_cpu - the CPU of the thread that stopped (0 if unknown). */
int kdb_stop_cpu(struct kdb_session *s)
{
	const struct ekdb_target_ops *o = s->target->ops;
	struct ekdb_thread_info ti;

	for (int i = 0; i < o->thread_count(s->target); i++)
		if (o->thread_get(s->target, i, &ti) == 0 && ti.id == s->stop.thread)
			return ti.cpu >= 0 ? ti.cpu : 0;
	return s->stop.thread ? (int)s->stop.thread - 1 : 0;
}

/*
 * Linux's kdb_cpu_status(): runs of CPUs with the same state, "(D)" for
 * one that did not stop for the debugger, "(-)" for one in its idle task.
 */
void kdb_cpu_status(struct kdb_session *s)
{
	unsigned n = kdb_cpu_count(s);
	char prev = '?', st;
	int start = -1;
	bool first = true;

	kdb_printf(s, "Currently on cpu %d\n", s->cpu);
	kdb_printf(s, "Available cpus: ");
	for (unsigned i = 0; i <= n; i++) {
		struct ekdb_task t;

		if (i == n)
			st = 'F';
		else if (kdb_select_cpu(s, (int)i))
			st = 'D';
		else if (kdb_current_task(s, (int)i, &t) && t.is_idle && (int)i != s->cpu)
			st = '-';
		else
			st = ' ';
		if (st == prev)
			continue;
		if (prev != '?' && prev != 'F') {
			kdb_printf(s, "%s%d", first ? "" : ", ", start);
			first = false;
			if (start < (int)i - 1)
				kdb_printf(s, "-%d", (int)i - 1);
			if (prev != ' ')
				kdb_printf(s, "(%c)", prev);
		}
		prev = st;
		start = (int)i;
	}
	kdb_select_cpu(s, s->cpu);
	kdb_printf(s, "\n");
}

/** kdb_cmd_cpu - cpu: show CPUs; cpu N: switch to CPU N (prompt [N]kdb>). */
int kdb_cmd_cpu(struct kdb_session *s, int argc, const char **argv)
{
	struct ekdb_task cur;
	u64 v;
	int r;

	if (argc == 0) {
		kdb_cpu_status(s);
		return 0;
	}
	if (argc != 1)
		return -KDB_ARGCOUNT;
	if (kdb_getularg(argv[1], &v))
		return -KDB_BADINT;
	if (v > 0x7fffffff)
		return -KDB_BADCPUNUM;
	r = kdb_select_cpu(s, (int)v);
	if (r)
		return r;
	s->cpu = (int)v;
	/* Linux's kdb_local() on the new CPU, reason KDB_REASON_SWITCH */
	if (!kdb_current_task(s, s->cpu, &cur))
		memset(&cur, 0, sizeof(cur));
	kdb_printf(s, "\nEntering kdb (current=0x%016llx, pid %d) on processor %d due to cpu switch\n",
		   (unsigned long long)cur.addr, cur.pid, s->cpu);
	return 0;
}

/** kdb_cmd_kgdb - kgdb: give the line to gdb (it returns with $3#33). */
int kdb_cmd_kgdb(struct kdb_session *s, int argc, const char **argv)
{
	(void)argc;	/* Linux ignores arguments */
	kdb_printf(s, "Entering please attach debugger or use $D#44+ or $3#33\n");
	return KDB_CMD_KGDB;
}

/** kdb_cmd_reboot - reboot: restart the machine at once. */
int kdb_cmd_reboot(struct kdb_session *s, int argc, const char **argv)
{
	int r;

	if (argc)
		return -KDB_TOOMANYARGS;
	if (!kdb_host(s)->reboot)
		return -KDB_NOTAVAIL;
	r = kdb_host(s)->reboot();
	(void)r;
	kdb_printf(s, "Hmm, kdb_reboot did not reboot\n");
	return 0;
}

/** kdb_cmd_sr - sr <key>: the sysrq action of <key> (e.g. sr h lists them). */
int kdb_cmd_sr(struct kdb_session *s, int argc, const char **argv)
{
	int r;

	if (argc != 1)
		return -KDB_ARGCOUNT;
	if (!kdb_host(s)->sysrq)
		return -KDB_NOTIMP;
	/* Linux hands the first character to __handle_sysrq(); an unknown key prints its help */
	r = kdb_host(s)->sysrq(argv[1][0]);
	if (r)
		kdb_host(s)->sysrq('h');
	return 0;
}
