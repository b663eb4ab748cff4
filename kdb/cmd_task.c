/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_task.c - tasks and backtraces: ps, pid, bt [addr], btp <pid>,
 * btt <task>, bta [state], btc [cpu].  Tasks come from the target's
 * task_get op; before the kernel has tasks (early boot) each CPU counts
 * as one running task.  A running task is traced from its CPU's
 * registers, a sleeping one from its saved rip/rbp, by frame pointers.
 */
#include "kdb.h"

#define KDB_BT_MAX_FRAMES	64

static bool thread_task(struct kdb_session *s, int i, struct ekdb_task *t)
{
	const struct ekdb_target_ops *o = s->target->ops;
	struct ekdb_thread_info ti;

	if (i >= o->thread_count(s->target) || o->thread_get(s->target, i, &ti))
		return false;
	memset(t, 0, sizeof(*t));
	ekdb_snprintf(t->comm, sizeof(t->comm), "swapper/%d", ti.cpu);
	t->cpu = ti.cpu;
	t->state = 'R';
	t->running = true;
	t->is_idle = true;	/* before the scheduler: each CPU runs its boot context */
	return true;
}

/* Task @i: from task_get, or the CPUs when the kernel has no tasks yet. */
static bool get_task(struct kdb_session *s, int i, struct ekdb_task *t)
{
	struct ekdb_task first;

	if (kdb_host(s)->task_get && kdb_host(s)->task_get(0, &first) == 0)
		return kdb_host(s)->task_get(i, t) == 0;
	return thread_task(s, i, t);
}

/*
 * Linux's task list (for_each_process_thread()): an idle task is not on it
 * (ps and bta show a CPU's idle task only among the running ones), and a
 * task that has exited ('X') is gone from it once released, as Linux's
 * kthreads are at once: no pid finds it.  A zombie ('Z') stays listed.
 */
static bool task_listed(const struct ekdb_task *t)
{
	return !t->is_idle && t->state != 'X';
}

bool kdb_find_task_pid(struct kdb_session *s, int pid, struct ekdb_task *t)
{
	for (int i = 0; get_task(s, i, t); i++)
		if (t->pid == pid && (t->running || t->state != 'X'))
			return true;
	return false;
}

/** kdb_current_task - the task running on @cpu now. */
bool kdb_current_task(struct kdb_session *s, int cpu, struct ekdb_task *t)
{
	for (int i = 0; get_task(s, i, t); i++)
		if (t->running && t->cpu == cpu)
			return true;
	return false;
}

/* Linux's kdb_task_state_char(): idle tasks off the kdb CPU are '-', sleeping kthreads lower case. */
static char task_char(struct kdb_session *s, const struct ekdb_task *t)
{
	char c = t->state;

	if (t->is_idle) {
		if (t->cpu != s->cpu)
			c = '-';
		else if (c == 'I')
			c = 'R';
	} else if (!t->user && (c == 'I' || c == 'M' || c == 'S')) {
		c = (char)(c - 'A' + 'a');
	}
	return c;
}

/* kdb_task_state(): no mask hides idle tasks and sleeping daemons; A is everything. */
static bool state_matches(struct kdb_session *s, const struct ekdb_task *t, const char *mask)
{
	char c = task_char(s, t);

	if (!mask || !mask[0])
		return !strchr("-ims", c);
	return strchr(mask, 'A') || strchr(mask, c);
}

static const char *ps_mask(struct kdb_session *s, int argc, const char **argv)
{
	return argc ? argv[1] : kdb_getenv(s, "PS");
}

/* Linux's kdb_ps1(): one task; '*' marks the task of the CPU kdb runs on. */
static void ps_line(struct kdb_session *s, const struct ekdb_task *t)
{
	bool cur = t->running && t->cpu == s->cpu;

	kdb_printf(s, "0x%016llx %8d %8d  %d %4d   %c  0x%016llx %c%s\n",
		   (unsigned long long)t->addr, t->pid, t->ppid, t->running, t->cpu,
		   task_char(s, t), (unsigned long long)t->addr, cur ? '*' : ' ', t->comm);
}

/** kdb_ps_suppressed - how many idle tasks and sleeping daemons the default hides. */
void kdb_ps_suppressed(struct kdb_session *s)
{
	struct ekdb_task t;
	int idle = 0, daemon = 0;

	for (int cpu = 0; cpu < (int)kdb_cpu_count(s); cpu++)
		if (kdb_current_task(s, cpu, &t) && task_char(s, &t) == '-')
			idle++;
	for (int i = 0; get_task(s, i, &t); i++)
		if (task_listed(&t) && strchr("ims", task_char(s, &t)))
			daemon++;
	if (!idle && !daemon)
		return;
	if (idle)
		kdb_printf(s, "%d idle process%s (state -)%s\n", idle, idle == 1 ? "" : "es",
			   daemon ? " and " : "");
	if (daemon)
		kdb_printf(s, "%d sleeping system daemon (state [ims]) process%s", daemon,
			   daemon == 1 ? "" : "es");
	kdb_printf(s, " suppressed,\nuse 'ps A' to see all.\n");
}

/** kdb_cmd_ps - ps [state_chars|A]: Linux's kdb_ps(): running tasks per CPU, then all tasks. */
int kdb_cmd_ps(struct kdb_session *s, int argc, const char **argv)
{
	const char *mask = ps_mask(s, argc, argv);
	struct ekdb_task t;

	if (argc == 0)
		kdb_ps_suppressed(s);
	kdb_printf(s, "%-18s      Pid   Parent [*] cpu State %-18s Command\n", "Task Addr", "Thread");
	for (int cpu = 0; cpu < (int)kdb_cpu_count(s); cpu++) {
		if (kdb_interrupted(s))
			return 0;
		if (kdb_current_task(s, cpu, &t) && state_matches(s, &t, mask))
			ps_line(s, &t);
	}
	kdb_printf(s, "\n");
	for (int i = 0; get_task(s, i, &t); i++) {
		if (kdb_interrupted(s))
			return 0;
		if (task_listed(&t) && state_matches(s, &t, mask))
			ps_line(s, &t);
	}
	return 0;
}

/** kdb_cmd_pid - pid: show the task bt looks at; pid N: pick task N; pid R: the running one. */
int kdb_cmd_pid(struct kdb_session *s, int argc, const char **argv)
{
	struct ekdb_task t;
	u64 v;

	if (argc > 1)
		return -KDB_TOOMANYARGS;
	if (argc == 1) {
		if (!strcmp(argv[1], "R") || !strcmp(argv[1], "r")) {
			s->pid = -1;
		} else {
			if (kdb_getularg(argv[1], &v) || v > 0x7fffffff)
				return -KDB_BADINT;
			if (!kdb_find_task_pid(s, (int)v, &t)) {
				kdb_printf(s, "No task with pid=%d\n", (int)v);
				return 0;	/* Linux: the message is the answer, no diag */
			}
			s->pid = (int)v;
		}
	}
	if (s->pid >= 0 ? kdb_find_task_pid(s, s->pid, &t) : kdb_current_task(s, s->cpu, &t))
		kdb_printf(s, "KDB current process is %s(pid=%d)\n", t.comm, t.pid);
	else
		kdb_printf(s, "KDB current process is unknown on cpu %d\n", s->cpu);
	return 0;
}

/* Linux's kdb_bt1(): the header, the ps line, the stack (dump_stack on its CPU if it runs). */
static void bt_task(struct kdb_session *s, const struct ekdb_task *t)
{
	struct kdb_frame f;

	kdb_printf(s, "Stack traceback for pid %d\n", t->pid);
	ps_line(s, t);
	if (t->running) {
		bool ok = kdb_select_cpu(s, t->cpu) == 0 && kdb_reg_frame(s, &f);

		if (ok && s->stop.reason == EKDB_STOP_FAULT && t->cpu == kdb_stop_cpu(s) &&
		    arch_dbg_vector_has_error((u64)s->stop.vector))
			f.orig_ax = s->stop.error_code;
		kdb_select_cpu(s, s->cpu);
		if (!ok) {
			kdb_printf(s, "WARNING: no task for cpu %d\n", t->cpu);
			return;
		}
		kdb_show_cpu_line(s, t->cpu);
		f.stack_base = t->stack_base;
		f.stack_top = t->stack_top;
		kdb_show_trace(s, &f, true, 0);
		return;
	}
	memset(&f, 0, sizeof(f));
	f.sp = t->rsp;
	f.bp = t->rbp;
	f.stack_base = t->stack_base;
	f.stack_top = t->stack_top;
	kdb_show_trace(s, &f, false, t->rip);
}

/* BTAPROMPT: between tasks of bta, ask whether to go on; false = stop. */
static bool bta_continue(struct kdb_session *s)
{
	int c;

	if (s->monitor || !kdb_getenv_int(s, "BTAPROMPT", 1))
		return true;
	kdb_printf(s, "Enter <q> to end, <cr> or <space> to continue:");
	kdb_out_end(s);
	do {
		c = kdb_getc(s);
	} while (c != KDB_GETC_EOF && !strchr("\r\n q", c));
	s->skip_lf = c == '\r';
	kdb_printf(s, "\n");
	s->lines_out = 0;
	return c != 'q' && c != KDB_GETC_EOF;
}

static void no_task(struct kdb_session *s, int cpu, struct ekdb_task *t)
{
	/* before the kernel has tasks: the CPU itself */
	memset(t, 0, sizeof(*t));
	ekdb_snprintf(t->comm, sizeof(t->comm), "swapper/%d", cpu);
	t->running = true;
	t->is_idle = true;
	t->cpu = cpu;
	t->state = 'R';
}

/* kdb_bt_cpu(): the task running on @cpu. */
static void bt_cpu(struct kdb_session *s, u64 cpu)
{
	struct ekdb_task t;

	if (cpu >= kdb_cpu_count(s)) {
		kdb_printf(s, "WARNING: no process for cpu %lld\n", (long long)cpu);
		return;
	}
	if (!kdb_current_task(s, (int)cpu, &t))
		no_task(s, (int)cpu, &t);
	bt_task(s, &t);
}

/* bta [state]: every task the state mask selects, the running ones first. */
static int bt_all(struct kdb_session *s, int argc, const char **argv)
{
	const char *mask = ps_mask(s, argc, argv);
	struct ekdb_task t;

	if (argc == 0)
		kdb_ps_suppressed(s);
	for (int cpu = 0; cpu < (int)kdb_cpu_count(s); cpu++) {
		if (!kdb_current_task(s, cpu, &t) || !state_matches(s, &t, mask))
			continue;
		bt_task(s, &t);
		if (!bta_continue(s))
			return 0;
	}
	for (int i = 0; get_task(s, i, &t) && !kdb_interrupted(s); i++) {
		if (t.running || !task_listed(&t) || !state_matches(s, &t, mask))
			continue;
		bt_task(s, &t);
		if (!bta_continue(s))
			return 0;
	}
	return 0;
}

/* btp <pid> / btt <task address>: one task. */
static int bt_one(struct kdb_session *s, int argc, const char **argv)
{
	bool by_pid = argv[0][2] == 'p';
	struct ekdb_task t;
	u64 v;

	if (argc != 1)
		return -KDB_ARGCOUNT;
	if (kdb_getularg(argv[1], &v))
		return -KDB_BADINT;
	for (int i = 0; get_task(s, i, &t); i++)
		if (by_pid ? (u64)t.pid == v && (t.running || t.state != 'X') : t.addr == v) {
			bt_task(s, &t);
			return 0;
		}
	if (!by_pid)
		return -KDB_BADADDR;
	kdb_printf(s, "No process with pid == %lld found\n", (long long)v);
	return 0;
}

/* btc [cpu]: the task running on one CPU, or on each. */
static int bt_cpus(struct kdb_session *s, int argc, const char **argv)
{
	u64 v;

	if (argc > 1)
		return -KDB_ARGCOUNT;
	if (argc == 1) {
		if (kdb_getularg(argv[1], &v))
			return -KDB_BADINT;
		bt_cpu(s, v);
		return 0;
	}
	kdb_printf(s, "btc: cpu status: ");
	kdb_cpu_status(s);
	for (unsigned cpu = 0; cpu < kdb_cpu_count(s) && !kdb_interrupted(s); cpu++)
		bt_cpu(s, cpu);
	return 0;
}

/* bt <vaddr>: @t's stack from a stack address, against the task's frame chain. */
static void bt_from(struct kdb_session *s, const struct ekdb_task *t, u64 v)
{
	struct kdb_frame f;

	memset(&f, 0, sizeof(f));
	if (t->running && kdb_select_cpu(s, t->cpu) == 0 && kdb_reg_frame(s, &f)) {
		kdb_select_cpu(s, s->cpu);
	} else {
		kdb_select_cpu(s, s->cpu);
		f.bp = t->rbp;
	}
	while (f.bp && f.bp < v) {
		u64 up;

		if (s->target->ops->mem_read(s->target, f.bp, &up, 8) != 8 || up <= f.bp)
			f.bp = 0;
		else
			f.bp = up;
	}
	f.sp = v;
	kdb_show_trace(s, &f, false, 0);
}

static const struct {
	const char *name;
	int (*fn)(struct kdb_session *s, int argc, const char **argv);
} bt_variants[] = {
	{ "bta", bt_all }, { "btp", bt_one }, { "btt", bt_one }, { "btc", bt_cpus },
};

/**
 * kdb_cmd_bt - bt [vaddr]: the current (or `pid`-selected) task, or the
 * stack from a stack address; btp <pid>; btt <task address>; bta
 * [state_chars|A]: every task, running ones first; btc [cpu]: the task
 * running on each (or one) CPU.  Arguments and messages as Linux's kdb_bt().
 */
int kdb_cmd_bt(struct kdb_session *s, int argc, const char **argv)
{
	struct ekdb_task t;
	int next = 1, r;
	u64 v;

	for (unsigned i = 0; i < ARRAY_SIZE(bt_variants); i++)
		if (!strcmp(argv[0], bt_variants[i].name))
			return bt_variants[i].fn(s, argc, argv);
	/* bt [vaddr]: the current task (or the one pid selected) */
	if (s->pid >= 0 ? !kdb_find_task_pid(s, s->pid, &t) : !kdb_current_task(s, s->cpu, &t))
		no_task(s, s->cpu, &t);
	if (argc == 0) {
		bt_task(s, &t);
		return 0;
	}
	r = kdb_getaddrarg(s, argc, argv, &next, &v);
	if (r)
		return r;
	bt_from(s, &t, v);
	return 0;
}
