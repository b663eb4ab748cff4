/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched.c - kernel threads and a round-robin SMP scheduler: one global run
 * queue under one spinlock, a time slice enforced from the timer tick,
 * msleep() on jiffies, one idle task per CPU, and the task list.
 *
 * Locking: rq_lock (always taken with interrupts off) protects the run
 * queue, the sleep list and every task's state.  A switching CPU holds it
 * across __switch_to_asm(); the task switched to drops it (schedule_tail),
 * so no other CPU can pick the previous task before its registers are
 * saved.  tasklist_lock serialises additions to the task list.
 */
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/apic.h>
#include <asm/processor.h>
#include <ekdb/fmt.h>
#include <ekdb/string.h>
#include <ekdb/ekdb.h>

_Static_assert(offsetof(struct task_struct, thread.sp) == TASK_THREAD_SP, "switch.S offset");
_Static_assert(offsetof(struct task_struct, thread.bp) == TASK_THREAD_BP, "switch.S offset");
_Static_assert(offsetof(struct task_struct, thread.ip) == TASK_THREAD_IP, "switch.S offset");
_Static_assert(sizeof(struct inactive_task_frame) == 7 * 8, "switch.S pushes 6 registers");

#define BOOT_STACK_SIZE	16384	/* kernel-glue/head.S */

extern char boot_stack[];

struct task_struct init_task = {
	.pid = 0,
	.comm = "swapper/0",
	.state = TASK_RUNNING,
	.cpu = 0,
	.bound_cpu = 0,
	.is_idle = true,
	.stack = boot_stack,
	.stack_size = BOOT_STACK_SIZE,
};

struct task_struct *task_list_head = &init_task;
static struct task_struct *task_list_tail = &init_task;
DEFINE_SPINLOCK(tasklist_lock);

static DEFINE_SPINLOCK(rq_lock);
static struct task_struct *rq_head, *rq_tail;	/* TASK_RUNNABLE, FIFO */
static volatile unsigned int rq_len;
static struct task_struct *sleep_list;		/* TASK_SLEEPING in msleep() */
static int next_pid = 1;
static bool sched_up;

void schedule_tail(struct task_struct *prev);

bool sched_running(void)
{
	return READ_ONCE(sched_up);
}

/* ------------------------------------------------------------ task list */

static void task_list_add(struct task_struct *t)
{
	unsigned long flags;

	t->next_task = NULL;
	spin_lock_irqsave(&tasklist_lock, flags);
	/* release: a lockless reader sees the task only fully initialised */
	__atomic_store_n(&task_list_tail->next_task, t, __ATOMIC_RELEASE);
	task_list_tail = t;
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

int for_each_task(int (*fn)(struct task_struct *t, void *arg), void *arg)
{
	for (struct task_struct *t = task_list_head; t;
	     t = __atomic_load_n(&t->next_task, __ATOMIC_ACQUIRE)) {
		int ret = fn(t, arg);

		if (ret)
			return ret;
	}
	return 0;
}

struct task_struct *find_task_by_pid(int pid)
{
	for (struct task_struct *t = task_list_head; t;
	     t = __atomic_load_n(&t->next_task, __ATOMIC_ACQUIRE))
		if (t->pid == pid)
			return t;
	return NULL;
}

__ekdb_nobp char task_state_char(const struct task_struct *t)
{
	switch (t->state) {
	case TASK_RUNNING:
	case TASK_RUNNABLE:
		return 'R';
	case TASK_SLEEPING:
		return 'S';
	case TASK_DEAD:
		return 'X';
	}
	return '?';
}

/* ------------------------------------------------------------ run queue */

/* rq_lock held */
static void rq_enqueue(struct task_struct *t)
{
	t->state = TASK_RUNNABLE;
	t->rq_next = NULL;
	if (rq_tail)
		rq_tail->rq_next = t;
	else
		rq_head = t;
	rq_tail = t;
	rq_len++;
}

static bool may_run_on(const struct task_struct *t, unsigned int cpu)
{
	return t->bound_cpu < 0 || (unsigned int)t->bound_cpu == cpu;
}

/* rq_lock held: take the first task @cpu may run, or NULL. */
static struct task_struct *rq_pick(unsigned int cpu)
{
	struct task_struct *prev = NULL;

	for (struct task_struct *t = rq_head; t; prev = t, t = t->rq_next) {
		if (!may_run_on(t, cpu))
			continue;
		if (prev)
			prev->rq_next = t->rq_next;
		else
			rq_head = t->rq_next;
		if (rq_tail == t)
			rq_tail = prev;
		t->rq_next = NULL;
		rq_len--;
		return t;
	}
	return NULL;
}

/* rq_lock held */
static bool rq_has_work(unsigned int cpu)
{
	for (struct task_struct *t = rq_head; t; t = t->rq_next)
		if (may_run_on(t, cpu))
			return true;
	return false;
}

/* rq_lock held: remove @t from the sleep list if it is there. */
static void sleep_list_del(struct task_struct *t)
{
	for (struct task_struct **pp = &sleep_list; *pp; pp = &(*pp)->rq_next) {
		if (*pp == t) {
			*pp = t->rq_next;
			t->rq_next = NULL;
			return;
		}
	}
}

/* Wake an idle CPU that may run @t so it does not wait for its next tick. */
static __ekdb_nobp void kick_idle_cpu(const struct task_struct *t)
{
	unsigned int cpu, self = smp_processor_id();

	for_each_online_cpu(cpu) {
		struct percpu *pc = &percpu_area[cpu];
		struct task_struct *curr = READ_ONCE(pc->curr_task);

		if (cpu == self || !curr || !curr->is_idle || !may_run_on(t, cpu))
			continue;
		apic_send_ipi(pc->apic_id, RESCHEDULE_VECTOR);
		return;
	}
}

/* ------------------------------------------------------------ switching */

/**
 * schedule_tail() - the second half of a switch, run by the task switched
 * to: release rq_lock and free the stack of a task that just died.
 * @prev: the task this CPU was running before
 */
void schedule_tail(struct task_struct *prev)
{
	void *dead_stack = NULL;

	if (prev->state == TASK_DEAD) {
		dead_stack = prev->stack;
		prev->stack = NULL;
	}
	spin_unlock(&rq_lock);
	if (dead_stack)
		kfree(dead_stack);
}

/*
 * Entered with interrupts off (previous RFLAGS in @flags) and rq_lock
 * held; current's state says what happens to it: RUNNING goes back on
 * the run queue, SLEEPING/DEAD do not.  Returns (when current runs
 * again) with the lock dropped and @flags restored.
 */
static void __schedule_locked(u64 flags)
{
	struct percpu *pc = this_cpu();
	struct task_struct *prev = pc->curr_task, *next;

	if (prev->state == TASK_RUNNING && !prev->is_idle)
		rq_enqueue(prev);
	next = rq_pick(pc->cpu);
	if (!next)
		next = pc->idle_task;
	pc->need_resched = false;
	pc->slice = SCHED_SLICE_TICKS;
	if (next == prev) {
		prev->state = TASK_RUNNING;
		spin_unlock(&rq_lock);
		local_irq_restore(flags);
		return;
	}
	if (prev->is_idle)
		prev->state = TASK_RUNNABLE;
	next->state = TASK_RUNNING;
	next->cpu = (int)pc->cpu;
	next->nr_switches++;
	pc->nr_switches++;
	WRITE_ONCE(pc->curr_task, next);

	prev = __switch_to_asm(prev, next);
	/* Back in this task, possibly on another CPU. */
	schedule_tail(prev);
	local_irq_restore(flags);
}

void schedule(void)
{
	u64 flags = local_irq_save();

	spin_lock(&rq_lock);
	__schedule_locked(flags);
}

void yield(void)
{
	schedule();
}

void schedule_timeout_until(u64 wake_at)
{
	u64 flags = local_irq_save();
	struct task_struct *t;

	spin_lock(&rq_lock);
	t = current;
	if (time_after_eq(jiffies, wake_at) || t->is_idle) {
		spin_unlock(&rq_lock);
		local_irq_restore(flags);
		return;
	}
	t->wake_at = wake_at;
	t->state = TASK_SLEEPING;
	t->rq_next = sleep_list;
	sleep_list = t;
	__schedule_locked(flags);
}

void msleep(u64 ms)
{
	if (!sched_running() || !(read_rflags() & X86_EFLAGS_IF) || current->is_idle) {
		mdelay(ms);
		return;
	}
	/* +1: the current tick is already partly over */
	schedule_timeout_until(jiffies + msecs_to_jiffies(ms) + 1);
}

__ekdb_nobp bool wake_up_process(struct task_struct *t)
{
	unsigned long flags;
	bool woke = false;

	spin_lock_irqsave(&rq_lock, flags);
	if (t->state == TASK_SLEEPING) {
		sleep_list_del(t);
		rq_enqueue(t);
		woke = true;
	}
	spin_unlock_irqrestore(&rq_lock, flags);
	if (woke)
		kick_idle_cpu(t);
	return woke;
}

void sched_wake_sleepers(u64 now)
{
	struct task_struct **pp, *woken = NULL;
	unsigned long flags;

	if (!READ_ONCE(sleep_list))
		return;
	spin_lock_irqsave(&rq_lock, flags);
	for (pp = &sleep_list; *pp;) {
		struct task_struct *t = *pp;

		if (time_after_eq(now, t->wake_at)) {
			*pp = t->rq_next;
			rq_enqueue(t);
			woken = t;
		} else {
			pp = &t->rq_next;
		}
	}
	spin_unlock_irqrestore(&rq_lock, flags);
	if (woken)
		kick_idle_cpu(woken);
}

/*
 * Load average, as Linux's calc_global_load(): every LOAD_FREQ the number
 * of running and runnable tasks (idle tasks excluded) is folded into
 * three exponentially decaying averages, fixed point with FSHIFT bits.
 */
#define FSHIFT		11
#define FIXED_1		(1UL << FSHIFT)
#define LOAD_FREQ	(5 * HZ + 1)
#define EXP_1		1884UL	/* 1/exp(5sec/1min) */
#define EXP_5		2014UL	/* 1/exp(5sec/5min) */
#define EXP_15		2037UL	/* 1/exp(5sec/15min) */

unsigned long avenrun[3];

static unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	unsigned long newload = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		newload += FIXED_1 - 1;
	return newload / FIXED_1;
}

/** calc_global_load - the timekeeping CPU's tick: fold the active count in every LOAD_FREQ. */
void calc_global_load(u64 now)
{
	static u64 next_update = LOAD_FREQ;
	unsigned long active = 0;

	if (now < next_update)
		return;
	next_update = now + LOAD_FREQ;
	for (const struct task_struct *t = task_list_head; t; t = t->next_task)
		if (!t->is_idle && (t->state == TASK_RUNNING || t->state == TASK_RUNNABLE))
			active++;
	active *= FIXED_1;
	avenrun[0] = calc_load(avenrun[0], EXP_1, active);
	avenrun[1] = calc_load(avenrun[1], EXP_5, active);
	avenrun[2] = calc_load(avenrun[2], EXP_15, active);
}

void scheduler_tick(struct pt_regs *regs)
{
	struct percpu *pc = this_cpu();
	struct task_struct *t = pc->curr_task;
	bool resched = pc->need_resched;

	if (!sched_running() || !t)
		return;
	t->ticks++;
	if (!resched && !t->is_idle && pc->slice && --pc->slice)
		return;			/* slice not used up */
	if (!resched && READ_ONCE(rq_len)) {
		spin_lock(&rq_lock);	/* interrupts are off in the handler */
		resched = rq_has_work(pc->cpu);
		spin_unlock(&rq_lock);
	}
	if (!resched) {
		pc->slice = SCHED_SLICE_TICKS;
		return;
	}
	/* Preempt: switch on this (interrupted) stack; we continue here later. */
	t->preempt_regs = regs;
	schedule();
	t->preempt_regs = NULL;
}

void __noreturn cpu_idle_loop(void)
{
	for (;;) {
		struct percpu *pc;
		bool work;

		local_irq_disable();
		pc = this_cpu();
		spin_lock(&rq_lock);
		work = rq_has_work(pc->cpu);
		spin_unlock(&rq_lock);
		if (work) {
			local_irq_enable();
			schedule();
			continue;
		}
		/* sti takes effect after hlt starts: no wake-up is lost */
		__asm__ __volatile__("sti; hlt" ::: "memory");
	}
}

/* ------------------------------------------------------------ threads */

static struct task_struct *task_alloc(const char *fmt, va_list ap)
{
	struct task_struct *t = kzalloc(sizeof(*t));

	if (!t)
		return NULL;
	t->stack = kmalloc(THREAD_STACK_SIZE);
	if (!t->stack) {
		kfree(t);
		return NULL;
	}
	t->stack_size = THREAD_STACK_SIZE;
	ekdb_vsnprintf(t->comm, sizeof(t->comm), fmt, ap);
	t->bound_cpu = -1;
	return t;
}

struct task_struct *kthread_create(int (*fn)(void *), void *arg, const char *name, ...)
{
	struct inactive_task_frame *frame;
	struct task_struct *t;
	va_list ap;
	u64 top;

	va_start(ap, name);
	t = task_alloc(name, ap);
	va_end(ap);
	if (!t) {
		pr_err("kthread_create: out of memory for '%s'\n", name);
		return NULL;
	}
	t->pid = __atomic_fetch_add(&next_pid, 1, __ATOMIC_RELAXED);
	t->fn = fn;
	t->arg = arg;
	t->state = TASK_SLEEPING;	/* not on any list until woken */
	t->wake_at = ~0ULL;
	t->cpu = (int)smp_processor_id();	/* its CPU until it runs elsewhere (Linux: the parent's) */

	/* Two zero words at the top: the thread function's "caller" is 0. */
	top = (u64)t->stack + THREAD_STACK_SIZE;
	((u64 *)top)[-1] = 0;
	((u64 *)top)[-2] = 0;
	frame = (struct inactive_task_frame *)(top - 16) - 1;
	memset(frame, 0, sizeof(*frame));
	frame->rbx = (u64)fn;
	frame->r12 = (u64)arg;
	frame->rbp = 0;
	frame->ret_addr = (u64)ret_from_kthread;
	t->thread.sp = (u64)frame;
	t->thread.bp = 0;
	t->thread.ip = (u64)ret_from_kthread;
	task_list_add(t);
	return t;
}

void kthread_bind(struct task_struct *t, unsigned int cpu)
{
	t->bound_cpu = (int)cpu;
	t->cpu = (int)cpu;	/* as Linux's kthread_bind: task_cpu() is that CPU from now */
}

void __noreturn kthread_exit(int code)
{
	u64 flags = local_irq_save();
	struct task_struct *t;

	spin_lock(&rq_lock);
	t = current;
	t->exit_code = code;
	t->state = TASK_DEAD;
	__schedule_locked(flags);
	panic("kthread_exit: dead task %d (%s) was scheduled again", t->pid, t->comm);
}

struct task_struct *sched_create_idle(unsigned int cpu)
{
	struct task_struct *t = kzalloc(sizeof(*t));

	if (!t || !(t->stack = kmalloc(THREAD_STACK_SIZE))) {
		kfree(t);
		return NULL;
	}
	t->stack_size = THREAD_STACK_SIZE;
	ekdb_snprintf(t->comm, sizeof(t->comm), "swapper/%u", cpu);
	t->pid = 0;
	t->state = TASK_RUNNING;
	t->cpu = (int)cpu;
	t->bound_cpu = (int)cpu;
	t->is_idle = true;
	task_list_add(t);
	return t;
}

void sched_init(void)
{
	WRITE_ONCE(sched_up, true);
	pr_info("sched: round-robin, one run queue, HZ=%d, time slice %d ms, %lu KiB stacks, NR_CPUS=%d\n",
		HZ, SCHED_SLICE_TICKS * 1000 / HZ, (unsigned long)THREAD_STACK_SIZE / 1024, NR_CPUS);
	sched_kdb_init();	/* kdb `runq` */
}
