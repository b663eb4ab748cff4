/* SPDX-License-Identifier: GPL-2.0 */
/* sched.h - kernel threads, the task list and a round-robin SMP scheduler with tick preemption. */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

/* Offsets of struct thread_ctx inside struct task_struct, for switch.S. */
#define TASK_THREAD_SP		0
#define TASK_THREAD_BP		8
#define TASK_THREAD_IP		16

#define THREAD_STACK_SIZE	16384	/* every kernel thread's stack */
#define TASK_COMM_LEN		16
#define SCHED_SLICE_TICKS	5	/* time slice: 5 ticks = 50 ms at HZ=100 */

#ifndef __ASSEMBLY__
#include <ekdb/types.h>
#include <kernel/percpu.h>
#include <kernel/spinlock.h>
#include <asm/regs.h>

enum task_state {
	TASK_RUNNING,		/* on a CPU now (percpu.curr_task) */
	TASK_RUNNABLE,		/* on the run queue, waiting for a CPU */
	TASK_SLEEPING,		/* in msleep() until wake_at, or not yet woken */
	TASK_DEAD,		/* returned from its function; stays in the task list */
};

/*
 * Saved context of a task that is not running.
 *
 * __switch_to_asm() (switch.S) pushes, on the task's own stack, in this
 * order: %rbp, %rbx, %r12, %r13, %r14, %r15, then stores %rsp in
 * thread.sp.  So at thread.sp lies a struct inactive_task_frame whose
 * ret_addr is where the task continues (inside schedule()).  For
 * convenience it also stores:
 *   thread.bp = %rbp of the function that called __switch_to_asm
 *               (__schedule's frame: a frame-pointer chain starts here)
 *   thread.ip = the same return address as frame->ret_addr
 * A debugger backtraces a sleeping task from (thread.ip, thread.bp) like
 * a stopped CPU with rip/rbp; the callee-saved registers are in the frame
 * at thread.sp, the caller-saved ones are dead (the switch is a call).
 * A task that was preempted by the timer also has preempt_regs: the
 * complete register frame of the interrupt (its rip/rsp/rbp show where it
 * really was), valid until it runs again.
 */
struct inactive_task_frame {
	u64 r15, r14, r13, r12, rbx, rbp;
	u64 ret_addr;
};

struct thread_ctx {
	u64 sp;		/* TASK_THREAD_SP: -> struct inactive_task_frame */
	u64 bp;		/* TASK_THREAD_BP */
	u64 ip;		/* TASK_THREAD_IP */
};

/*
 * struct task_struct - one kernel thread (or a CPU's idle task).
 *
 * Tasks are never freed: the task list only grows (a finished thread
 * stays as TASK_DEAD, its stack freed).  So a pointer to a task stays
 * valid forever and the list can be walked without the lock by a
 * debugger that has stopped all CPUs.
 */
struct task_struct {
	struct thread_ctx thread;	/* must stay first (switch.S offsets) */
	int pid;			/* 0 for idle tasks, like Linux */
	char comm[TASK_COMM_LEN];	/* "kheartbeat", "swapper/1", ... */
	volatile enum task_state state;
	volatile int cpu;		/* CPU it runs on / last ran on */
	int bound_cpu;			/* -1: any CPU; else only that one */
	bool is_idle;
	void *stack;			/* lowest address of the stack */
	size_t stack_size;
	u64 wake_at;			/* jiffies; while TASK_SLEEPING in msleep() */
	int (*fn)(void *arg);		/* thread function and its argument */
	void *arg;
	int exit_code;
	struct pt_regs *preempt_regs;	/* interrupted frame if preempted by the tick */
	u64 nr_switches;		/* times it was switched in */
	u64 ticks;			/* timer ticks it was running for */
	u64 sig_pending;		/* signals sent (bit sig-1); kernel threads ignore them, as Linux's */
	struct task_struct *next_task;	/* task list (append only) */
	struct task_struct *rq_next;	/* run queue or sleep list link */
};

/** current - the task running on this CPU (CPU 0's boot context is swapper/0). */
#define current (this_cpu()->curr_task)

/* The boot CPU's idle task: the boot stack, pid 0, "swapper/0". */
extern struct task_struct init_task;

/*
 * The task list: init_task first, then every task in creation order,
 * linked by next_task; tasklist_lock serialises writers.  Readers may
 * walk it without the lock (entries are published fully initialised and
 * never removed).
 */
extern struct task_struct *task_list_head;

/* Load average (Linux's avenrun[]: fixed point, FSHIFT 11), updated every 5 s. */
extern unsigned long avenrun[3];
void calc_global_load(u64 now);
extern spinlock_t tasklist_lock;

/**
 * for_each_task() - call @fn(task, @arg) for every task in creation order.
 * @fn: return non-zero to stop early
 * @arg: passed through
 * Return: the value that stopped the walk, or 0.
 */
int for_each_task(int (*fn)(struct task_struct *t, void *arg), void *arg);

/** find_task_by_pid() - the first task with @pid (pid 0: swapper/0), or NULL. */
struct task_struct *find_task_by_pid(int pid);

/** task_state_char() - 'R' running/runnable, 'S' sleeping, 'X' dead (for ps). */
char task_state_char(const struct task_struct *t);

/**
 * sched_init() - set up the scheduler (after mm_init).  Prints the policy.
 */
void sched_init(void);
void sched_kdb_init(void);	/* sched_kdb.c: registers `runq` */

/**
 * sched_create_idle() - make the idle task for CPU @cpu (an AP): its
 * stack is the one the AP starts on.
 * Return: the task, or NULL when out of memory.
 */
struct task_struct *sched_create_idle(unsigned int cpu);

/**
 * kthread_create() - a new kernel thread, not yet runnable.
 * @fn: thread function; the thread ends (TASK_DEAD) when it returns
 * @arg: its argument
 * @name: printf-style name, at most 15 characters kept
 * Return: the task, or NULL.  Start it with wake_up_process().
 */
struct task_struct *kthread_create(int (*fn)(void *), void *arg, const char *name, ...)
	__printf(3, 4);

/** kthread_bind() - let @t run only on CPU @cpu (before it is woken). */
void kthread_bind(struct task_struct *t, unsigned int cpu);

/**
 * wake_up_process() - make a created or sleeping task runnable.
 * Return: true if it was not already runnable/running.
 */
bool wake_up_process(struct task_struct *t);

/** kthread_run() - kthread_create() + wake_up_process(); NULL on failure. */
#define kthread_run(fn, arg, ...)					\
	({								\
		struct task_struct *__t = kthread_create(fn, arg, __VA_ARGS__); \
		if (__t)						\
			wake_up_process(__t);				\
		__t;							\
	})

/**
 * kthread_exit() - end the calling thread with @code.  Never returns.
 */
void __noreturn kthread_exit(int code);

/**
 * schedule() - give up the CPU to the next runnable task (the caller
 * stays runnable unless it set itself sleeping).  Task context only.
 */
void schedule(void);

/** yield() - schedule(), named for intent. */
void yield(void);

/**
 * schedule_timeout_until() - sleep until jiffies >= @wake_at.
 */
void schedule_timeout_until(u64 wake_at);

/**
 * scheduler_tick() - called by every CPU's timer interrupt with the
 * interrupted frame; may switch tasks (preemption) before returning.
 */
void scheduler_tick(struct pt_regs *regs);

/**
 * sched_wake_sleepers() - timekeeper's tick: wake tasks whose msleep()
 * ended by @now.
 */
void sched_wake_sleepers(u64 now);

/**
 * cpu_idle_loop() - become this CPU's idle task: run queued tasks, halt
 * with interrupts on otherwise.  Never returns.
 */
void __noreturn cpu_idle_loop(void);

/** sched_running() - true once tasks may be switched (after sched_init). */
bool sched_running(void);

/* switch.S */
struct task_struct *__switch_to_asm(struct task_struct *prev, struct task_struct *next);
void ret_from_kthread(void);

/* kthreads.c: the reference kernel's worker threads */
void kthreads_start(void);

#endif /* !__ASSEMBLY__ */
#endif /* KERNEL_SCHED_H */
