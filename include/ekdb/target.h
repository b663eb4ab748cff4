/* SPDX-License-Identifier: GPL-2.0 */
/*
 * target.h - the abstract machine that gdbstub/ and kdb/ operate on.
 *
 * gdbstub and kdb never touch hardware.  They see the stopped machine only
 * through a struct ekdb_target: fault-safe memory, registers by number, the
 * target description, the breakpoint table (one family, each entry with
 * its owners), threads and CPUs, symbols.  What the kernel knows beyond
 * the machine (tasks, its log, modules) is the host's: <ekdb/port.h>.  core/target.c implements it
 * for the live machine (early and late); tests/host/sim_target.c implements
 * it for host unit tests (memory with unmapped holes, a register file).
 *
 * All ops are called with the machine stopped, on the debugger's CPU, with
 * interrupts off.  They must not allocate and must not block.  Every
 * function returns 0 (or a byte count) on success and a negative EKDB_E*
 * code on failure (include/ekdb/errno.h).
 */
#ifndef EKDB_TARGET_H
#define EKDB_TARGET_H

#include <ekdb/types.h>
#include <ekdb/kallsyms.h>

/* Breakpoint kinds, numbered as in gdb's Z/z packets. */
enum ekdb_bp_type {
	EKDB_BP_SW = 0,		/* int3 patched into text */
	EKDB_BP_HW = 1,		/* hardware execute breakpoint (DR0-3) */
	EKDB_BP_WRITE = 2,	/* hardware write watchpoint */
	EKDB_BP_READ = 3,	/* hardware read watchpoint (x86: read/write) */
	EKDB_BP_ACCESS = 4,	/* hardware access watchpoint */
};

/* Who planted a breakpoint (gdb's Z packets, kdb's bp/bph); an entry may have both. */
enum ekdb_bp_owner {
	EKDB_BP_BY_GDB = 1,	/* a gdb's detach or a new gdb takes it out */
	EKDB_BP_BY_KDB = 2,	/* stays until kdb's bc */
};

/* Why the machine stopped; filled by the core, read by gdbstub and kdb. */
enum ekdb_stop_reason {
	EKDB_STOP_ENTRY = 0,	/* kgdbwait / explicit ekdb_breakpoint() call */
	EKDB_STOP_SWBREAK,	/* a software breakpoint (pc = its address) */
	EKDB_STOP_HWBREAK,	/* a hardware execute breakpoint */
	EKDB_STOP_WATCH,	/* write watchpoint: watch_addr set */
	EKDB_STOP_RWATCH,	/* read watchpoint: watch_addr set */
	EKDB_STOP_AWATCH,	/* access watchpoint: watch_addr set */
	EKDB_STOP_STEP,		/* single step completed */
	EKDB_STOP_INTERRUPT,	/* Ctrl-C / break-in from the transport */
	EKDB_STOP_FAULT,	/* an unexpected exception (oops, #GP, #PF, ...) */
	EKDB_STOP_PANIC,	/* panic() */
	EKDB_STOP_SYSRQ,	/* sysrq-g */
	EKDB_STOP_NMI,		/* an NMI nobody else claimed (QEMU inject-nmi, NMI button) */
};

struct ekdb_stop {
	enum ekdb_stop_reason reason;
	int signal;		/* gdb signal number: 5 SIGTRAP, 2 SIGINT, 11 SIGSEGV, ... */
	int vector;		/* x86 exception vector, -1 if none */
	u64 error_code;
	u64 watch_addr;		/* WATCH/RWATCH/AWATCH: the data address */
	u64 thread;		/* thread id that stopped (>= 1) */
	int bp_index;		/* breakpoint table index that fired, -1 if none */
	const char *message;	/* panic/oops text or NULL */
};

/* What gdbstub or kdb asks the core to do when its loop ends. */
enum ekdb_resume_action {
	EKDB_RESUME_CONTINUE = 0,
	EKDB_RESUME_STEP,	/* execute one instruction then stop again */
	EKDB_RESUME_DETACH,	/* remove gdb's breakpoints and continue */
	EKDB_RESUME_KILL,	/* gdb 'k': continue with breakpoints removed (the kernel lives on) */
	EKDB_RESUME_TO_KDB,	/* gdb asked to switch to kdb ($3#33) */
	EKDB_RESUME_TO_GDB,	/* kdb's `kgdb` command, or gdb traffic seen at the kdb prompt */
	EKDB_RESUME_EOF,	/* channel closed (host tests only) */
};

struct ekdb_resume {
	enum ekdb_resume_action action;
	int signal;		/* signal to deliver (ignored by a kernel target) */
	bool set_pc;		/* resume at pc instead of the current one */
	u64 pc;
	/*
	 * Which thread the action is for (0: the one that stopped), and
	 * whether only that thread runs (gdb's vCont;c:N with no default
	 * action).  A step always runs only its thread: the other CPUs stay
	 * held until it stops again, as in Linux.  set_pc applies to it.
	 */
	u64 thread;
	bool only;
};

/* Where a thread is; thread ids are >= 1 (gdb reserves 0 and -1). */
struct ekdb_thread_info {
	u64 id;
	int cpu;		/* CPU it runs on or last ran on, -1 if unknown */
	char name[32];		/* "CPU#0", "swapper/0", "kworker", ... */
	char state[16];		/* "running", "sleeping", "stopped", "parked" ... */
};


/*
 * One entry of the shared breakpoint table, as kdb's bl shows it
 * (bp_get).  The table is the core's (core/bp.c); gdb's Z packets and
 * kdb's bp/bph fill the same slots.
 */
struct ekdb_bp_info {
	enum ekdb_bp_type type;
	u64 addr;
	unsigned len;		/* 1 for execute kinds; 1/2/4/8 for watchpoints */
	bool enabled;		/* kdb be/bd; gdb's are always enabled */
	bool installed;		/* in memory / in a DR slot right now */
	bool by_gdb;		/* planted (also) by gdb */
	bool by_kdb;		/* planted (also) by kdb */
	int slot;		/* DR slot for hardware kinds, -1 for software */
	unsigned long hits;	/* times it fired (0 if not counted) */
};

/* Most registers a stop reply expedites (each list). */
#define EKDB_EXPEDITE_MAX	8

/*
 * What gdb needs at every stop, and what it may ask for one at a time.
 * 'g' carries registers [0, g_count): the ones a frame may need (gdb
 * fetches any register past the end of a short 'g' with 'p').  The stop
 * reply carries register values so that gdb can show the stop without a
 * 'g':
 *  - always the @expedite registers (pc, stack and frame pointers);
 *  - at a breakpoint or watchpoint also @expedite_break: where the
 *    arguments are at a function's entry, which gdb prints with the frame
 *    ("Breakpoint 1, func (a=1, b=2)");
 *  - on a stop in another function than the session's previous stop, or
 *    on a function's first instruction (register @pc_regno is a text
 *    symbol's address: a step into a call or out of one), registers
 *    [0, gprs) instead: gdb prints the new frame, and to show arguments
 *    and their values at entry ("a=a@entry=1") it unwinds the caller,
 *    which may need any of them.
 */
struct ekdb_reg_layout {
	unsigned g_count;		/* 0: every register */
	int pc_regno;			/* the program counter, -1: unknown */
	unsigned gprs;			/* 0: none sent when the function changes */
	unsigned n_expedite;		/* <= EKDB_EXPEDITE_MAX */
	unsigned expedite[EKDB_EXPEDITE_MAX];	/* register numbers */
	unsigned n_expedite_break;	/* <= EKDB_EXPEDITE_MAX */
	unsigned expedite_break[EKDB_EXPEDITE_MAX];
};

struct ekdb_target;

struct ekdb_target_ops {
	/**
	 * mem_read - read target memory without faulting.
	 * Returns the number of bytes read from the start (may be short when
	 * an unmapped page is hit), or -EKDB_EFAULT if not even one byte could
	 * be read.
	 */
	long (*mem_read)(struct ekdb_target *t, u64 addr, void *buf, size_t len);
	/** mem_write - like mem_read; also works on read-only kernel text. */
	long (*mem_write)(struct ekdb_target *t, u64 addr, const void *buf, size_t len);
	/**
	 * mem_store - write as a plain kernel store would (Linux's
	 * copy_to_kernel_nofault(), behind kdb's mm): a page mapped read-only
	 * (kernel text, rodata) is refused like an unmapped one.  Returns like
	 * mem_write.  May be NULL: kdb's mm then uses mem_write.
	 */
	long (*mem_store)(struct ekdb_target *t, u64 addr, const void *buf, size_t len);

	/** reg_count - number of registers in the target description order. */
	unsigned (*reg_count)(struct ekdb_target *t);
	/**
	 * reg_read - register @regno of the selected thread into @buf
	 * (target byte order); returns its size in bytes, or -EKDB_ENOENT
	 * when the value is unavailable (gdb then gets "xx" bytes; the size
	 * is still needed, so *size is set even on -ENOENT), -EKDB_EINVAL for
	 * a register number out of range.
	 */
	int (*reg_read)(struct ekdb_target *t, unsigned regno, u8 *buf, size_t *size);
	/** reg_write - returns 0, -EKDB_EINVAL (bad regno/size) or -EKDB_EPERM. */
	int (*reg_write)(struct ekdb_target *t, unsigned regno, const u8 *buf, size_t size);
	/** reg_name - name of register @regno ("rax", "cr3", ...), NULL if out of range. */
	const char *(*reg_name)(struct ekdb_target *t, unsigned regno);
	/**
	 * reg_layout - optional: how the registers ride gdb's packets (see
	 * struct ekdb_reg_layout).  NULL: 'g' carries every register and the
	 * stop reply expedites none.
	 */
	void (*reg_layout)(struct ekdb_target *t, struct ekdb_reg_layout *layout);

	/**
	 * features_xml - the target description document called @annex
	 * ("target.xml" and whatever it includes); NULL if there is none.
	 */
	const char *(*features_xml)(struct ekdb_target *t, const char *annex, size_t *len);

	/*
	 * ---- breakpoints and watchpoints: one table, each entry with its
	 * owners (gdb, kdb).  Kernel: core/bp.c. ----
	 */
	/**
	 * bp_set - plant a breakpoint or watchpoint for @owner; returns its
	 * table index (>= 0).  Setting an existing (type, addr) again returns
	 * its index, adds @owner and enables it.  @len is gdb's "kind" (1 for
	 * int3; 1, 2, 4, 8 for watchpoints).  Errors: -EKDB_ENOSPC (no free
	 * slot), -EKDB_EINVAL (bad length/alignment), -EKDB_EPERM (address
	 * inside the debugger), -EKDB_EFAULT (cannot patch).
	 */
	int (*bp_set)(struct ekdb_target *t, enum ekdb_bp_owner owner, enum ekdb_bp_type type,
		      u64 addr, unsigned len);
	/** bp_remove - gdb's z: take out the entry at (@type, @addr), whoever planted it: 0 or -EKDB_ENOENT. */
	int (*bp_remove)(struct ekdb_target *t, enum ekdb_bp_type type, u64 addr, unsigned len);
	/**
	 * bp_get - entry @index of the table.  Returns 0, -EKDB_ENOENT for an
	 * unused slot, -EKDB_ERANGE for an index at or beyond the table size
	 * (kdb iterates until then; the kernel's table grows after the
	 * handoff).  May be NULL (kdb's bp/bl/bc then say "Not available").
	 */
	int (*bp_get)(struct ekdb_target *t, int index, struct ekdb_bp_info *info);
	/** bp_enable - kdb be/bd on entry @index: 0 or -EKDB_ENOENT. */
	int (*bp_enable)(struct ekdb_target *t, int index, bool enable);
	/** bp_clear - kdb bc: remove entry @index whoever planted it: 0 or -EKDB_ENOENT. */
	int (*bp_clear)(struct ekdb_target *t, int index);
	/**
	 * bp_drop_owner - take out every entry only @owner planted, and
	 * @owner's share of the others: a gdb (re)connected (qSupported) and
	 * the breakpoints an earlier gdb planted cannot be removed by it any
	 * more.  kdb's stay.  May be NULL.
	 */
	void (*bp_drop_owner)(struct ekdb_target *t, enum ekdb_bp_owner owner);

	/** thread_count - number of threads; thread_get - the @index'th one. */
	int (*thread_count)(struct ekdb_target *t);
	int (*thread_get)(struct ekdb_target *t, int index, struct ekdb_thread_info *info);
	/** thread_select - make @id the thread whose registers reg_* access (gdb Hg). */
	int (*thread_select)(struct ekdb_target *t, u64 id);
	/** thread_current - the thread that stopped (gdb qC). */
	u64 (*thread_current)(struct ekdb_target *t);
	/**
	 * thread_resume_check - may thread @id be stepped or run on its own
	 * while the others stay stopped (gdb vCont;s:N)?  0, -EKDB_ENOENT (no
	 * such thread) or -EKDB_EBUSY (it is not stopped: a CPU the round-up
	 * missed or one not started).  May be NULL: every listed thread may.
	 */
	int (*thread_resume_check)(struct ekdb_target *t, u64 id);
	/**
	 * thread_task - the kernel task thread @id (a CPU) runs now: its pid
	 * (0: the CPU's idle task) and name, from the host's task list.  0,
	 * or -EKDB_ENOENT (no such thread, or the host lists no tasks).  May
	 * be NULL.  gdb's plain mode numbers threads by it, as Linux's
	 * gdbstub does.
	 */
	int (*thread_task)(struct ekdb_target *t, u64 id, int *pid, char comm[16]);

	/*
	 * ---- optional ops used by kdb (NULL = not available; kdb says so).
	 * The kernel's services (tasks, log, modules ...) are not the
	 * machine's: they are the host's, <ekdb/port.h> ----
	 */

	/**
	 * sym_by_name - exact symbol lookup: 0 and *@sym, or -EKDB_ENOENT.
	 * sym_by_addr - the symbol containing @addr (or nearest below it):
	 * 0 or -EKDB_ENOENT.  sym_get - the @index'th symbol (any order) for
	 * tab completion: 0, or -EKDB_ENOENT past the end.  sym->name must
	 * stay valid while the machine is stopped.
	 * The live debugger (core/target.c): the host's, the port's sym_* members.
	 */
	int (*sym_by_name)(struct ekdb_target *t, const char *name, struct ksym *sym);
	int (*sym_by_addr)(struct ekdb_target *t, u64 addr, struct ksym *sym);
	int (*sym_get)(struct ekdb_target *t, unsigned long index, struct ksym *sym);

	/**
	 * cpu_select - make CPU @cpu's registers the ones reg_* access (kdb
	 * `cpu N`, btc): 0, -EKDB_ENOENT (no such CPU) or -EKDB_EBUSY (it
	 * did not stop).  When NULL kdb selects the thread whose info.cpu is
	 * @cpu.  Kernel: dbg_target_select_cpu() after checking dbg_cpus[].
	 */
	int (*cpu_select)(struct ekdb_target *t, unsigned cpu);
	/** cpu_count - CPUs the debugger knows (highest index + 1).  Kernel: dbg_cpu_count(). */
	unsigned (*cpu_count)(struct ekdb_target *t);

	/**
	 * libraries_xml - gdb's library list (qXfer:libraries:read): the
	 * images with their own symbol files and the addresses they really
	 * run at (<library-list>...), and its length; NULL when this
	 * lifetime has none (then qSupported does not offer it).  May be NULL.
	 */
	const char *(*libraries_xml)(struct ekdb_target *t, size_t *len);
	/**
	 * libraries_svr4_xml - the same images as qXfer:libraries-svr4:read's
	 * <library-list-svr4> (lldb asks for it first; gdb on a bare-metal
	 * target uses libraries_xml).  NULL when none.  May be NULL.
	 */
	const char *(*libraries_svr4_xml)(struct ekdb_target *t, size_t *len);
};

struct ekdb_target {
	const struct ekdb_target_ops *ops;
	void *priv;
	u64 text_offset;	/* qOffsets: 0 when the kernel runs at its link address */
	u64 text_base;		/* qOffsets: run-time address of the first segment; 0: unknown */
};

#endif
