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
	strlcpy(t->comm, ti.name, sizeof(t->comm));
	t->cpu = ti.cpu;
	t->state = 'R';
	t->running = true;
	return true;
}

/* Task @i: from task_get, or the CPUs when the kernel has no tasks yet. */
static bool get_task(struct kdb_session *s, int i, struct ekdb_task *t)
{
	const struct ekdb_target_ops *o = s->target->ops;
	struct ekdb_task first;

	if (o->task_get && o->task_get(s->target, 0, &first) == 0)
		return o->task_get(s->target, i, t) == 0;
	return thread_task(s, i, t);
}

int kdb_task_count(struct kdb_session *s)
{
	struct ekdb_task t;
	int n = 0;

	while (n < 100000 && get_task(s, n, &t))
		n++;
	return n;
}

bool kdb_find_task_pid(struct kdb_session *s, int pid, struct ekdb_task *t)
{
	for (int i = 0; get_task(s, i, t); i++)
		if (t->pid == pid)
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

static bool state_matches(char state, const char *mask)
{
	if (!mask)
		return state != 'S' && state != 'I';	/* Linux's default hides sleepers */
	return strchr(mask, 'A') || strchr(mask, state);
}

static void ps_line(struct kdb_session *s, const struct ekdb_task *t)
{
	bool cur = t->running && t->cpu == s->cpu;

	kdb_printf(s, "0x%016llx %8d %8d  %d %4d   %c  0x%016llx %c%s\n",
		   (unsigned long long)t->addr, t->pid, t->ppid, cur, t->cpu, t->state,
		   (unsigned long long)t->addr, cur ? '*' : ' ', t->comm);
}

static void ps_header(struct kdb_session *s)
{
	kdb_printf(s, "%-18s      Pid   Parent [*] cpu State %-18s Command\n", "Task Addr", "Thread");
}

/** kdb_cmd_ps - ps [state_chars|A]: the task list (default: all but sleeping). */
int kdb_cmd_ps(struct kdb_session *s, int argc, const char **argv)
{
	struct ekdb_task t;
	unsigned hidden = 0;

	if (argc > 1)
		return -KDB_TOOMANYARGS;
	ps_header(s);
	for (int i = 0; get_task(s, i, &t) && !kdb_interrupted(s); i++) {
		if (state_matches(t.state, argc ? argv[1] : NULL))
			ps_line(s, &t);
		else
			hidden++;
	}
	if (hidden)
		kdb_printf(s, "%u sleeping system daemon (state [SI]) processes suppressed,\n"
			   "use 'ps A' to see all.\n", hidden);
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
				return -KDB_BADARG;
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

static void bt_line(struct kdb_session *s, u64 pc)
{
	char sym[96];

	if (kdb_sym_fmt(s, pc, sym, sizeof(sym)))
		kdb_printf(s, " [<%016llx>] %s\n", (unsigned long long)pc, sym);
	else
		kdb_printf(s, " [<%016llx>] 0x%llx\n", (unsigned long long)pc, (unsigned long long)pc);
}

/*
 * A return address: name it by the call before it (address - 1), as
 * Linux's %pB does, so a call to a function that never returns (the last
 * instruction of its caller) is not shown as the next function.
 */
static void bt_ret_line(struct kdb_session *s, u64 ret)
{
	struct ksym sym;

	if (!s->target->ops->sym_by_addr || s->target->ops->sym_by_addr(s->target, ret - 1, &sym)) {
		bt_line(s, ret);
		return;
	}
	kdb_printf(s, " [<%016llx>] %s+0x%llx/0x%llx\n", (unsigned long long)ret, sym.name,
		   (unsigned long long)(ret - sym.addr), (unsigned long long)sym.size);
}

/* Walk saved-rbp/return-address pairs from frame pointer @fp. */
static void bt_frames(struct kdb_session *s, u64 fp)
{
	u64 fr[2];

	for (int i = 0; i < KDB_BT_MAX_FRAMES && fp && !kdb_interrupted(s); i++) {
		if (s->target->ops->mem_read(s->target, fp, fr, sizeof(fr)) != (long)sizeof(fr)) {
			kdb_printf(s, " (frame at 0x%llx unreadable)\n", (unsigned long long)fp);
			return;
		}
		if (!fr[1])
			return;
		bt_ret_line(s, fr[1]);
		if (fr[0] <= fp)
			return;		/* frames must go up the stack */
		fp = fr[0];
	}
}

/*
 * Stopped in a function's first instruction(s), before `push %rbp; mov
 * %rsp,%rbp` has run: the frame chain skips the caller, whose return
 * address is still at the top of the stack.  Show it.
 */
static void bt_prologue(struct kdb_session *s, u64 pc, u64 sp)
{
	struct ksym sym;
	u64 ret, off, slot;
	u8 first;

	if (!s->target->ops->sym_by_addr || s->target->ops->sym_by_addr(s->target, pc, &sym))
		return;
	off = pc - sym.addr;
	if (off > 1 || s->target->ops->mem_read(s->target, sym.addr, &first, 1) != 1)
		return;
	/* 0x55 = push %rbp: one instruction in, the return address moved up a slot */
	slot = first == 0x55 ? off : 0;
	if (s->target->ops->mem_read(s->target, sp + slot * 8, &ret, 8) == 8 && ret)
		bt_ret_line(s, ret);
}

static void bt_task(struct kdb_session *s, const struct ekdb_task *t)
{
	u64 pc = t->rip, fp = t->rbp, sp = 0;

	kdb_printf(s, "Stack traceback for pid %d\n", t->pid);
	ps_line(s, t);
	if (t->running) {
		if (kdb_select_cpu(s, t->cpu) || kdb_reg_value(s, "rip", &pc) ||
		    kdb_reg_value(s, "rbp", &fp) || kdb_reg_value(s, "rsp", &sp)) {
			kdb_printf(s, "Cannot read the registers of cpu %d\n", t->cpu);
			kdb_select_cpu(s, s->cpu);
			return;
		}
		kdb_select_cpu(s, s->cpu);
	} else if (t->state == 'X') {
		kdb_printf(s, "(dead task: no stack)\n");
		return;
	}
	kdb_printf(s, "Call Trace:\n");
	if (pc)
		bt_line(s, pc);
	if (pc && sp)
		bt_prologue(s, pc, sp);
	bt_frames(s, fp);
}

/* BTAPROMPT: between tasks of bta, ask whether to go on; false = stop. */
static bool bta_continue(struct kdb_session *s)
{
	int c;

	if (s->monitor || !kdb_getenv_int(s, "BTAPROMPT", 1))
		return true;
	kdb_out_end(s);
	kdb_raw_str(s, "Enter <q> to end, <cr> or <space> to continue:");
	do {
		c = kdb_getc(s);
	} while (c == '\n' && s->skip_lf && !(s->skip_lf = false));
	s->skip_lf = c == '\r';
	kdb_raw_str(s, "\n");
	s->lines_out = 0;
	return c != 'q' && c != 'Q' && c != KDB_GETC_EOF;
}

/**
 * kdb_cmd_bt - bt [fp]: the current (or `pid`-selected) task, or from a
 * frame pointer; btp <pid>; btt <task address>; bta [state_chars|A] all
 * tasks; btc [cpu]: the task running on each (or one) CPU.
 */
int kdb_cmd_bt(struct kdb_session *s, int argc, const char **argv)
{
	const char *cmd = argv[0];
	struct ekdb_task t;
	int next = 1, r;
	u64 v;

	if (argc > 1)
		return -KDB_TOOMANYARGS;
	if (!strcmp(cmd, "bta")) {
		for (int i = 0; get_task(s, i, &t) && !kdb_interrupted(s); i++) {
			if (!state_matches(t.state, argc ? argv[1] : NULL))
				continue;
			bt_task(s, &t);
			if (!bta_continue(s))
				break;
		}
		return 0;
	}
	if (!strcmp(cmd, "btc")) {
		int n = 0, ncpu = 0;

		for (int i = 0; get_task(s, i, &t); i++)
			if (t.cpu + 1 > ncpu)
				ncpu = t.cpu + 1;
		if (argc) {
			if (kdb_getularg(argv[1], &v) || v >= (u64)ncpu)
				return -KDB_BADCPUNUM;
			n = (int)v;
			ncpu = n + 1;
		}
		for (; n < ncpu && !kdb_interrupted(s); n++) {
			if (!kdb_current_task(s, n, &t)) {
				/* no task marked running there: trace the CPU itself */
				memset(&t, 0, sizeof(t));
				ekdb_snprintf(t.comm, sizeof(t.comm), "CPU#%d", n);
				t.running = true;
				t.cpu = n;
				t.state = 'R';
			}
			bt_task(s, &t);
		}
		return 0;
	}
	if (argc == 0) {
		if (strcmp(cmd, "bt"))
			return -KDB_ARGCOUNT;
		if (s->pid >= 0 ? !kdb_find_task_pid(s, s->pid, &t) : !kdb_current_task(s, s->cpu, &t)) {
			/* no task list at all: trace the selected CPU */
			memset(&t, 0, sizeof(t));
			t.running = true;
			t.cpu = s->cpu;
			t.state = 'R';
		}
		bt_task(s, &t);
		return 0;
	}
	if (!strcmp(cmd, "btp")) {
		if (kdb_getularg(argv[1], &v) || v > 0x7fffffff)
			return -KDB_BADINT;
		if (!kdb_find_task_pid(s, (int)v, &t)) {
			kdb_printf(s, "No process with pid == %d found\n", (int)v);
			return 0;
		}
		bt_task(s, &t);
		return 0;
	}
	r = kdb_getaddrarg(s, argc, argv, &next, &v);
	if (r)
		return r;
	if (!strcmp(cmd, "btt")) {
		for (int i = 0; get_task(s, i, &t); i++)
			if (t.addr == v) {
				bt_task(s, &t);
				return 0;
			}
		kdb_printf(s, "0x%llx is not a task address\n", (unsigned long long)v);
		return -KDB_BADADDR;
	}
	/* bt <fp>: from a frame pointer */
	kdb_printf(s, "Call Trace:\n");
	bt_frames(s, v);
	return 0;
}
