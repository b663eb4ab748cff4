/* SPDX-License-Identifier: GPL-2.0 */
/*
 * port.h - the porting interface: what a host (a kernel, the UEFI loader,
 * the host simulator of the unit tests) gives the debugger.
 *
 * The debugger's folders (lib/, early/, io/, core/, gdbstub/, kdb/)
 * include no header of the kernel that hosts them: every kernel service
 * they use is a member of struct ekdb_port_ops, which the host registers
 * with ekdb_set_port().  `make check-layers` (tools/check-layers.sh) fails
 * the build when a debugger folder includes a kernel-glue/ or boot/ header, and
 * those folders are compiled without -Ikernel-glue/include.
 *
 * Three hosts implement it: the reference kernel (kernel-glue/debug_glue.c),
 * the loader (boot/dbg/glue.c) and the host simulator (tests/host/sim_port.c).
 * docs/porting.md says how to put ekdb into another kernel.
 *
 * What else the host calls (the entry points: ekdb_early_init(),
 * ekdb_late_init(), ekdb_break_in() ...) is <ekdb/ekdb.h>; the trap vectors
 * and CPU round-up are the arch's (ekdb_set_cpu_id_fn(), ekdb_set_roundup_fn()
 * in <ekdb/ekdb.h>, arch/x86/ for the vectors).
 *
 * Lifetimes: the host may call ekdb_set_port() again as its services come
 * up (the reference kernel registers its log and consoles first, then the
 * rest once its task list exists); the debugger reads the current table at
 * each use.  The table and everything it points to must stay valid for
 * good (static storage).  Every member may be NULL: the debugger then does
 * without (kdb says "Not available", log lines are dropped, the handoff
 * keeps the early storage).
 */
#ifndef EKDB_PORT_H
#define EKDB_PORT_H

#include <ekdb/types.h>
#include <ekdb/arch.h>

EKDB_API_BEGIN

struct ekdb_framebuffer;
struct ksym;

/* One kernel task, for kdb's ps/pid/bt* (task_get). */
struct ekdb_task {
	u64 addr;		/* address of the kernel's task structure (btt, ps) */
	int pid;
	int ppid;		/* 0 when the kernel has no parent links */
	char comm[16];
	char state;		/* Linux's task_state_to_char(): 'R' running/runnable (idle tasks too),
				 * 'S' sleeping, 'D', 'T', 'Z', 'X' dead, 'I' idle kthread */
	bool user;		/* has a user address space (Linux p->mm); false: kernel thread */
	int cpu;		/* CPU it runs on or last ran on */
	bool running;		/* on a CPU now: its registers are that CPU's */
	bool is_idle;		/* a CPU's idle task (swapper/N) */
	/* saved context of a task that is not running (frame-pointer backtrace start) */
	u64 rip, rsp, rbp;
	/* its kernel stack [stack_base, stack_top); 0, 0 when unknown (bounds the stack scan) */
	u64 stack_base, stack_top;
};

/* One entry of lsmod (mod_get): a built-in subsystem or loaded module. */
struct ekdb_module {
	char name[32];
	u64 addr;		/* its descriptor / init function, 0 if none */
	u64 size;		/* bytes of code+data, 0 if unknown */
	char state[16];		/* "Live", "Initialising", ... */
};

/* What kdb's summary prints (sys_info); unknown strings are left empty. */
struct ekdb_sysinfo {
	char sysname[16];	/* "ekdb" */
	char release[32];
	char version[64];	/* build string */
	char machine[16];	/* "x86_64" */
	u64 uptime_ms;
	unsigned ncpus;		/* CPUs online */
	u64 mem_total_kb;
	u64 mem_free_kb;
	u64 mem_buffers_kb;	/* Linux's "Buffers:" (0 when the kernel has no buffer cache) */
	bool have_mem;		/* mem_* valid (false before the page allocator) */
	u64 realtime_s;		/* wall clock, seconds since 1970 UTC (0: unknown) */
	int tz_minuteswest;
	unsigned long loads[3];	/* 1, 5, 15 minute load, Linux's fixed point (FSHIFT 11) */
	char hw_name[64];	/* dump_stack's "Hardware name:" (empty: not printed) */
};


/*
 * A console the debugger's early drivers give the host's log (earlyprintk
 * on a 16550, the screen, the USB debug port): the host writes every
 * finished log line to it.  @replay: the host first writes the whole log so
 * far (Linux's CON_PRINTBUFFER).  @enabled is the host's: true while the
 * console is registered.  A host with its own console type wraps it.
 */
struct ekdb_console {
	const char *name;
	void (*write)(struct ekdb_console *con, const char *s, size_t len);
	void *priv;
	bool replay;		/* print the log buffer so far when registered */
	bool enabled;
};

/*
 * Called with the machine stopped, on the debugger's CPU, interrupts off,
 * maybe with breakpoints armed: no locks, no allocation, no sleeping, and
 * every function these reach must be __ekdb_nobp (<ekdb/ekdb.h>; the set
 * tests/integration/test_stop_path.py computes from this table).
 */
struct ekdb_stopped_ops {
	/**
	 * task_get - the @index'th task of the task list (creation order):
	 * 0, or -EKDB_ENOENT past the end.  Before the scheduler exists the
	 * host may list nothing (kdb then shows CPUs).  kdb ps, pid, btt, bta.
	 */
	int (*task_get)(int index, struct ekdb_task *task);
	/**
	 * log_read - copy up to @len bytes of the log buffer starting @pos
	 * bytes after the oldest byte still held; returns the count (0 at the
	 * end).  kdb dmesg.
	 */
	long (*log_read)(u64 pos, char *buf, size_t len);
	/** phys_read - like mem_read on a physical address, fault-safe (kdb mdp). */
	long (*phys_read)(u64 paddr, void *buf, size_t len);
	/** mod_get - the @index'th lsmod entry: 0, or -EKDB_ENOENT past the end. */
	int (*mod_get)(int index, struct ekdb_module *mod);
	/** sys_info - fill @info for kdb summary: 0 or an error. */
	int (*sys_info)(struct ekdb_sysinfo *info);
	/** reboot - restart the machine now (kdb reboot); returns only on failure. */
	int (*reboot)(void);
	/** sysrq - run the sysrq handler for @key (kdb sr): 0 or -EKDB_EINVAL. */
	int (*sysrq)(char key);
	/**
	 * percpu_offset - distance of CPU @cpu's copy of a per-CPU variable
	 * from CPU 0's (Linux's __per_cpu_offset[cpu], kdb per_cpu): 0, or
	 * -EKDB_ENOENT for a CPU that is not online.
	 */
	int (*percpu_offset)(unsigned cpu, u64 *offset);
	/**
	 * task_signal - kdb kill: send signal @sig to task @pid: 0,
	 * -EKDB_ENOENT (no such task), -EKDB_EINVAL (a signal the host
	 * cannot deliver).
	 */
	int (*task_signal)(int pid, int sig);
	/*
	 * warn - one line (ending in a newline) for the host's log: a
	 * breakpoint that fired inside the debugger was removed.  panic - the
	 * debugger gave up (it is off, every CPU released): stop this CPU with
	 * @msg; must not return.
	 */
	void (*warn)(const char *msg);
	void (*panic)(const char *msg);
	/**
	 * alloc_pages_nowait - 2^@order pages of 4 KiB, or NULL at once when
	 * the allocator is busy (maybe a stopped CPU holds its lock): the
	 * breakpoint table grows while the machine is stopped.  The full
	 * lifetime only (see the allocation members of struct ekdb_port_ops).
	 */
	void *(*alloc_pages_nowait)(unsigned int order);
};

struct ekdb_port_ops {
	/* first member: the stop path's services (test_stop_path reads it at offset 0) */
	struct ekdb_stopped_ops stopped;

	/*
	 * ---- the log and consoles: from the host's own context (boot,
	 * process context); never on the stop path while breakpoints are in ----
	 */
	/** vprintk - append one formatted message to the host's log (levels as Linux's KERN_*). */
	int (*vprintk)(const char *fmt, va_list ap);
	/** log_hook - give every finished log line to @fn too (kgdbcon), NULL to stop. */
	void (*log_hook)(void (*fn)(const char *s, size_t len));
	/** console_register - add @con to the host's consoles (0 or an error); console_unregister. */
	int (*console_register)(struct ekdb_console *con);
	void (*console_unregister)(struct ekdb_console *con);

	/*
	 * ---- memory: any lifetime, static storage (early drivers use them).
	 * The screen console and the USB debug port call them while the
	 * machine is stopped too: no locks, no allocation, __ekdb_nobp ----
	 */
	/**
	 * map_phys - where the CPU reaches physical [@phys, @phys + @len)
	 * under the page tables in use now (cached memory: a framebuffer), or
	 * NULL when it cannot yet.  The answer may change when the host
	 * switches page tables: callers ask again before each use (the screen
	 * console does at each sync).
	 */
	void *(*map_phys)(u64 phys, u64 len);
	/** map_io - like map_phys for device registers (uncached); NULL when it cannot. */
	void *(*map_io)(u64 phys, u64 len);
	/** framebuffer - the screen the firmware left (the early screen console, <ekdb/framebuffer.h>), NULL: none. */
	const struct ekdb_framebuffer *(*framebuffer)(void);
	/**
	 * acpi_table - the firmware's ACPI table @sig ("SPCR": bare earlycon),
	 * checksum checked, where the CPU reaches it now, its length in *@len;
	 * NULL: no such table (or no ACPI).  May be NULL.
	 */
	const void *(*acpi_table)(const char *sig, u32 *len);

	/*
	 * ---- symbols: any lifetime, the stop path included (kdb's bt, md,
	 * bp by name, tab completion; gdb's qSymbol): no locks, no
	 * allocation, __ekdb_nobp.  A host with Linux's kallsyms answers from
	 * it; the reference kernel from its __ksym_* table (<ekdb/kallsyms.h>).
	 * NULL: kdb shows bare addresses and takes none by name ----
	 */
	/**
	 * sym_lookup - the symbol holding @addr (or the nearest one below it
	 * when sizes are unknown) and @addr's offset in it (@offset may be
	 * NULL): 0, or -EKDB_ENOENT when nothing is close.
	 */
	int (*sym_lookup)(u64 addr, struct ksym *sym, u64 *offset);
	/** sym_by_name - exact name match: 0 or -EKDB_ENOENT. */
	int (*sym_by_name)(const char *name, struct ksym *sym);
	/** sym_get - the @index'th symbol, in an order that does not change: 0 or -EKDB_ENOENT past the end. */
	int (*sym_get)(unsigned long index, struct ksym *sym);
	/**
	 * text_addr - does @addr hold the kernel's code now, where a software
	 * breakpoint may go (Linux: .text, and .init.text until it is freed)?
	 * NULL: the kernel's _text.._etext.  The stop path: no locks, __ekdb_nobp.
	 */
	bool (*text_addr)(u64 addr);

	/*
	 * ---- allocation: the full lifetime only (ekdb_late_init() and
	 * after; tools/check-early.sh keeps early code away from it) ----
	 */
	void *(*kmalloc)(size_t size);
	void *(*kzalloc)(size_t size);
	void (*kfree)(const void *p);
	/* 2^order pages of 4 KiB, order < page_max_order (stopped.alloc_pages_nowait: the same, no wait) */
	void *(*alloc_pages)(unsigned int order);
	void (*free_pages)(void *addr, unsigned int order);
	unsigned int page_max_order;
	/**
	 * release_range - the debugger's early storage [@start, @end) (kernel
	 * virtual addresses, page aligned) is no longer used: give it to the
	 * page allocator, or unmap it when @unmap (a test knob).
	 */
	void (*release_range)(u64 start, u64 end, bool unmap);
};

/* ekdb_set_port - install (or replace) the host's services; see the lifetimes above. */
void ekdb_set_port(const struct ekdb_port_ops *ops);
/* ekdb_port - the table in force (never NULL: an empty one before any ekdb_set_port()). */
const struct ekdb_port_ops *ekdb_port(void);

/*
 * The debugger's side (core/port.c): each forwards to the table in force
 * and does without when the member is NULL.  ekdb_console_register():
 * -EKDB_ENOSYS when the host takes no consoles; the maps and
 * ekdb_framebuffer(): NULL.  Allocation goes through core/late/alloc.c
 * only (so tools/check-early.sh sees early code that would reach it).
 */
int ekdb_console_register(struct ekdb_console *con);
void ekdb_console_unregister(struct ekdb_console *con);
void ekdb_log_hook(void (*fn)(const char *s, size_t len));
void *ekdb_map_phys(u64 phys, u64 len);
void *ekdb_map_io(u64 phys, u64 len);

/*
 * struct ekdb_io_map - a device's registers for an early driver, which
 * runs under each lifetime's page tables in turn: ekdb_io_map_get() maps
 * @phys..+@len (ekdb_map_io) where the CPU's page tables are now, and
 * again once they changed (arch_dbg_mm_generation(), <ekdb/arch.h>).
 * NULL: not reachable.  A new range: set @phys and @len, @virt NULL.
 */
struct ekdb_io_map {
	u64 phys;
	u64 len;
	u64 gen;		/* arch_dbg_mm_generation() when @virt was mapped */
	volatile u8 *virt;
};

static inline volatile u8 *ekdb_io_map_get(struct ekdb_io_map *m)
{
	u64 gen = arch_dbg_mm_generation();

	if (!m->virt || gen != m->gen) {
		m->virt = ekdb_map_io(m->phys, m->len);
		m->gen = gen;
	}
	return m->virt;
}
const struct ekdb_framebuffer *ekdb_framebuffer(void);
const void *ekdb_acpi_table(const char *sig, u32 *len);
/* The host's symbols (the port's sym_* members): -EKDB_ENOENT without them. */
int ekdb_sym_lookup(u64 addr, struct ksym *sym, u64 *offset);
int ekdb_sym_by_name(const char *name, struct ksym *sym);
int ekdb_sym_get(unsigned long index, struct ksym *sym);

EKDB_API_END

#endif
