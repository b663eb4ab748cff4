// SPDX-License-Identifier: GPL-2.0
/*
 * kdb's ps, pid, btp and bta on Linux (stopped.task_get): the idle tasks
 * (swapper/N: init_task and the other CPUs' idle_task()), then every
 * thread of Linux's task list, as Linux's kdb_ps() walks it: without
 * locks (the machine is stopped; the list is an RCU list, whose
 * insertions a stopped CPU cannot leave half made).  In setup_arch()
 * there is one task, swapper/0.  A task not on a CPU starts its
 * backtrace at the frame __switch_to_asm() left (thread.sp), read
 * fault-safe.
 */
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <asm/switch_to.h>

#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/port.h>

#include "glue.h"

/* a bound for a damaged list: no more threads than pids */
#define EKDB_TASKS_MAX	PID_MAX_LIMIT

static __ekdb_linux_nobp void ekdb_linux_task_fill(struct task_struct *p, struct ekdb_task *t)
{
	struct inactive_task_frame frame;
	unsigned int cpu = task_cpu(p);

	memset(t, 0, sizeof(*t));
	t->addr = (unsigned long)p;
	t->pid = p->pid;
	t->ppid = p->real_parent && p->real_parent != p ? p->real_parent->pid : 0;
	strscpy(t->comm, p->comm, sizeof(t->comm));
	t->state = task_state_to_char(p);
	t->user = p->mm != NULL;
	t->cpu = cpu;
	t->is_idle = p->pid == 0;
	t->running = cpu < nr_cpu_ids && per_cpu(current_task, cpu) == p;
	t->stack_base = (unsigned long)task_stack_page(p);
	t->stack_top = t->stack_base + THREAD_SIZE;
	if (!t->running && ekdb_mem_read(p->thread.sp, &frame, sizeof(frame)) == sizeof(frame)) {
		t->rsp = p->thread.sp;
		t->rbp = frame.bp;
		t->rip = frame.ret_addr;
	}
}
NOKPROBE_SYMBOL(ekdb_linux_task_fill);

/*
 * swapper/@cpu, or NULL: CPU 0's is init_task; another CPU's once
 * smp_init() made it (before Linux sets the CPU online: it runs
 * start_secondary() as that task).
 */
static __ekdb_linux_nobp struct task_struct *ekdb_linux_idle(unsigned int cpu)
{
	if (cpu == 0)
		return &init_task;
	return cpu_possible(cpu) ? idle_task(cpu) : NULL;
}
NOKPROBE_SYMBOL(ekdb_linux_idle);

__ekdb_linux_nobp int ekdb_linux_task_get(int index, struct ekdb_task *task)
{
	struct task_struct *g, *p;
	unsigned long seen = 0;
	unsigned int cpu;
	long n = 0;

	if (index < 0)
		return -EKDB_ENOENT;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		p = ekdb_linux_idle(cpu);
		if (p && n++ == index) {
			ekdb_linux_task_fill(p, task);
			return 0;
		}
	}
	for_each_process_thread(g, p) {
		if (++seen > EKDB_TASKS_MAX)
			break;
		if (n++ == index) {
			ekdb_linux_task_fill(p, task);
			return 0;
		}
	}
	return -EKDB_ENOENT;
}
NOKPROBE_SYMBOL(ekdb_linux_task_get);
