/* SPDX-License-Identifier: GPL-2.0 */
/* cmd_thread.c - thread packets: H T qC qfThreadInfo qsThreadInfo qThreadExtraInfo. */
#include "gdb_int.h"
#include <ekdb/fmt.h>

/* Longest id in a thread list entry: 16 hex digits and a comma. */
#define GDB_TID_CHARS	17

static int thread_count(struct gdb_session *s)
{
	const struct ekdb_target_ops *ops = s->target->ops;

	if (!ops->thread_count || !ops->thread_get)
		return 1;
	return ops->thread_count(s->target);
}

/* The @index'th thread; without thread ops there is one: the stopped one. */
static int thread_get(struct gdb_session *s, int index, struct ekdb_thread_info *info)
{
	const struct ekdb_target_ops *ops = s->target->ops;

	if (!ops->thread_count || !ops->thread_get) {
		if (index)
			return -EKDB_ENOENT;
		memset(info, 0, sizeof(*info));
		info->id = gdb_current_thread(s);
		info->cpu = 0;
		memcpy(info->name, "CPU#0", 6);
		memcpy(info->state, "stopped", 8);
		return 0;
	}
	return ops->thread_get(s->target, index, info);
}

/*
 * Plain mode numbers threads as Linux's gdbstub does, so the handoff to it
 * leaves gdb on the same thread: a CPU's thread is the pid of the task it
 * runs, or for its idle task (pid 0), or with no task list, the CPU's
 * shadow id, -(cpu + 2) in 32 bits (CPU 0: fffffffe), named shadowCPU<n>.
 * Otherwise the target's ids go out as they are.
 */
static u64 wire_id(struct gdb_session *s, const struct ekdb_thread_info *info,
		   char comm[16])
{
	const struct ekdb_target_ops *ops = s->target->ops;
	int pid = -1;

	comm[0] = '\0';
	if (!gdb_plain() || info->cpu < 0)
		return info->id;
	if (ops->thread_task && ops->thread_task(s->target, info->id, &pid, comm) == 0 && pid > 0)
		return (u64)pid;
	ekdb_snprintf(comm, 16, "shadowCPU%d", info->cpu);
	return (u32)-(info->cpu + 2);
}

/* gdb_tid_in - the target's id of the thread gdb calls @wire (0, -1 kept; GDB_TID_NONE: none). */
u64 gdb_tid_in(struct gdb_session *s, u64 wire)
{
	struct ekdb_thread_info info;
	char comm[16];
	int i, n;

	if (!gdb_plain() || !wire || wire == (u64)-1)
		return wire;
	n = thread_count(s);
	for (i = 0; i < n; i++)
		if (thread_get(s, i, &info) == 0 && wire_id(s, &info, comm) == wire)
			return info.id;
	return GDB_TID_NONE;
}

/* tx_thread_id - thread @id as gdb calls it. */
void tx_thread_id(struct gdb_session *s, u64 id)
{
	struct ekdb_thread_info info;
	char comm[16];

	if (gdb_plain() && gdb_thread_find(s, id, &info) == 0)
		id = wire_id(s, &info, comm);
	tx_hex_u64(s, id);
}

/** gdb_thread_find - look thread @id up; 0 or -EKDB_ENOENT. */
int gdb_thread_find(struct gdb_session *s, u64 id, struct ekdb_thread_info *info)
{
	int i, n = thread_count(s);

	if (!id || id == (u64)-1)
		return -EKDB_ENOENT;
	for (i = 0; i < n; i++) {
		if (thread_get(s, i, info) == 0 && info->id == id)
			return 0;
	}
	return -EKDB_ENOENT;
}

/**
 * gdb_cmd_set_thread - "Hg<tid>" selects whose registers g/p/G/P see
 * (0 and -1 mean the stopped thread); "Hc<tid>" is recorded only: a
 * kernel resumes all CPUs together.
 */
void gdb_cmd_set_thread(struct gdb_session *s, const char *a, size_t len)
{
	struct ekdb_thread_info info;
	char op = *a++;
	u64 tid;
	int r;

	if ((op != 'g' && op != 'c') || rx_thread_id(&a, &tid) || *a)
		return tx_err(s, -EKDB_EINVAL);
	tid = gdb_tid_in(s, tid);
	if (tid && tid != (u64)-1 && gdb_thread_find(s, tid, &info))
		return tx_err(s, -EKDB_ENOENT);
	if (op == 'c') {
		s->c_thread = tid;
		return tx_ok(s);
	}
	if (s->target->ops->thread_select) {
		r = s->target->ops->thread_select(s->target,
				(!tid || tid == (u64)-1) ? gdb_current_thread(s) : tid);
		if (r < 0)
			return tx_err(s, r);
	}
	s->g_thread = tid;
	tx_ok(s);
}

/** gdb_cmd_thread_alive - "T<tid>": OK if the thread exists. */
void gdb_cmd_thread_alive(struct gdb_session *s, const char *a, size_t len)
{
	struct ekdb_thread_info info;
	u64 tid;

	if (rx_thread_id(&a, &tid) || *a)
		return tx_err(s, -EKDB_EINVAL);
	tid = gdb_tid_in(s, tid);
	if (gdb_thread_find(s, tid, &info))
		return tx_err(s, -EKDB_ENOENT);
	tx_ok(s);
}

/** gdb_cmd_current_thread - "qC": "QC<tid>" of the stopped thread. */
void gdb_cmd_current_thread(struct gdb_session *s, const char *a, size_t len)
{
	tx_str(s, "QC");
	tx_thread_id(s, gdb_current_thread(s));
}

/* Send "m<id>,<id>..." from thread_iter on, as many as fit; "l" at the end. */
static void thread_list(struct gdb_session *s)
{
	struct ekdb_thread_info info;
	int n = thread_count(s);
	bool first = true;

	if (s->thread_iter >= n)
		return tx_char(s, 'l');
	tx_char(s, 'm');
	while (s->thread_iter < n && tx_room(s) > GDB_TID_CHARS) {
		if (thread_get(s, s->thread_iter++, &info) < 0)
			continue;
		if (!first)
			tx_char(s, ',');
		tx_thread_id(s, info.id);
		first = false;
	}
}

/** gdb_cmd_thread_first - "qfThreadInfo": start the thread list. */
void gdb_cmd_thread_first(struct gdb_session *s, const char *a, size_t len)
{
	s->thread_iter = 0;
	thread_list(s);
}

/** gdb_cmd_thread_next - "qsThreadInfo": continue it. */
void gdb_cmd_thread_next(struct gdb_session *s, const char *a, size_t len)
{
	thread_list(s);
}

/* Append text @str hex-encoded, at most @max characters of it. */
static void tx_hex_strn(struct gdb_session *s, const char *str, size_t max)
{
	tx_hex(s, str, strnlen(str, max));
}

/** gdb_cmd_thread_extra - "qThreadExtraInfo,<tid>": "name [state] CPU#n" in hex
 * (no "CPU#n" when the name already says it). */
void gdb_cmd_thread_extra(struct gdb_session *s, const char *a, size_t len)
{
	struct ekdb_thread_info info;
	char cpu[16];
	int i = (int)sizeof(cpu) - 1, v;
	u64 tid;

	if (rx_thread_id(&a, &tid) || *a)
		return tx_err(s, -EKDB_EINVAL);
	tid = gdb_tid_in(s, tid);
	if (gdb_thread_find(s, tid, &info))
		return tx_err(s, -EKDB_ENOENT);
	if (gdb_plain()) {
		/* Linux's gdbstub: the task's name, or shadowCPU<n>, alone */
		char comm[16];

		wire_id(s, &info, comm);
		return tx_hex_strn(s, comm, sizeof(comm));
	}
	tx_hex_strn(s, info.name, sizeof(info.name));
	if (info.state[0]) {
		tx_hex_str(s, " [");
		tx_hex_strn(s, info.state, sizeof(info.state));
		tx_hex_str(s, "]");
	}
	/* the CPU, unless the name already is one ("CPU#0") */
	if (info.cpu >= 0 && strncmp(info.name, "CPU#", 4)) {
		cpu[i] = '\0';
		v = info.cpu;
		do {
			cpu[--i] = (char)('0' + v % 10);
			v /= 10;
		} while (v && i > 0);
		tx_hex_str(s, " CPU#");
		tx_hex_str(s, &cpu[i]);
	}
}
