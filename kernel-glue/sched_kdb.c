/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_kdb.c - the `runq` kdb command, registered by sched_init() (kdb's
 * late registration): what each CPU runs and which tasks wait for a CPU.
 * Walks the append-only task list without its lock (see sched.h).
 */
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <ekdb/kdb.h>

static int kdb_runq(struct kdb_session *s, int argc, const char **argv)
{
	const struct task_struct *t;
	unsigned waiting = 0;

	if (argc)
		return kdb_printf(s, "usage: runq\n"), 0;
	for (unsigned cpu = 0; cpu < NR_CPUS; cpu++) {
		const struct percpu *pc = &percpu_area[cpu];

		if (!pc->online || !pc->curr_task)
			continue;
		kdb_printf(s, "cpu %u: running %-16s pid %d, %llu switches\n", cpu,
			   pc->curr_task->comm, pc->curr_task->pid,
			   (unsigned long long)pc->nr_switches);
	}
	for (t = task_list_head; t; t = t->next_task) {
		if (t->state != TASK_RUNNABLE)
			continue;
		kdb_printf(s, "  runnable: %-16s pid %d (last cpu %d)\n", t->comm, t->pid, t->cpu);
		waiting++;
	}
	kdb_printf(s, "%u task(s) waiting for a CPU\n", waiting);
	return 0;
}

static const struct kdb_cmd runq_cmd = {
	.name = "runq",
	.fn = kdb_runq,
	.usage = "",
	.help = "Show what each CPU runs and the run queue",
	.flags = KDB_ENABLE_INSPECT,
};

void sched_kdb_init(void)
{
	kdb_register(&runq_cmd);
}
