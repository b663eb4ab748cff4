/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debug_core.h - private interfaces of the debug core (core/), for its
 * files only (and the host unit tests).  What early/ and the self-test
 * reach of the core is core_early.h; a host reaches it through
 * <ekdb/ekdb.h> and <ekdb/port.h> (make check-layers).
 */
#ifndef CORE_DEBUG_CORE_H
#define CORE_DEBUG_CORE_H

#include <ekdb/target.h>
#include <ekdb/transport.h>
#include <asm/regs.h>
#include <asm/debug_trap.h>
#include <asm/hw_breakpoint.h>
#include <ekdb/arch.h>
#include <asm/sstep.h>
#include <ekdb/gdbstub.h>
#include <ekdb/kdb.h>
#include <ekdb/ekdb.h>
#include "core_early.h"

/* ---------------------------------------------------------------- bp.c */
/* Breakpoints the early table holds; the full core's table grows (>= 1000). */
#define EKDB_EARLY_BPS	32
#define EKDB_LATE_BPS	1024


enum dbg_bp_owner { DBG_OWNER_GDB = 1, DBG_OWNER_KDB = 2 };

struct dbg_bp {
	bool used;
	bool enabled;		/* kdb be/bd; gdb's are always enabled */
	bool installed;		/* break insn in memory / in the armed slot set right now */
	enum ekdb_bp_type type;
	u8 owner;
	u8 saved;		/* original byte under the break instruction */
	s8 slot;		/* hardware slot (0..ARCH_HW_BP_SLOTS-1), -1 for software */
	u8 planted;		/* enum ekdb_lifetime of the dbg_bp_set() that made it */
	unsigned len;
	u64 addr;
	unsigned long hits;
};

int dbg_bp_set(enum ekdb_bp_type type, u64 addr, unsigned len, enum dbg_bp_owner owner);
int dbg_bp_remove(enum ekdb_bp_type type, u64 addr, unsigned len);
int dbg_bp_clear_index(int index);
int dbg_bp_enable_index(int index, bool enable);
void dbg_bp_remove_owner(enum dbg_bp_owner owner);
const struct dbg_bp *dbg_bp_get(int index);
void dbg_bp_hit(int index);		/* count a hit of entry @index */
/*
 * Put every breakpoint in place except a software one at @skip (0: none),
 * publish the armed hardware set and load it on this CPU.  Other CPUs load
 * it with arch_hw_bp_load() (asm/hw_breakpoint.h) as they leave.
 */
void dbg_bp_install_all(u64 skip);
/* Take every breakpoint out: original text back, this CPU's slots off. */
void dbg_bp_uninstall_all(void);
/* Entry @index hit inside the debugger: removed, the armed set without it (core/reenter.c). */
int dbg_bp_drop_reentered(int index);
/* The debugger gives up: every breakpoint out, an empty armed set for every CPU. */
void dbg_bp_all_off(void);
/* The software breakpoint at @addr (installed or not), or -1. */
int dbg_bp_find_sw(u64 addr);
/* The breakpoint behind hardware slot @slot, or -1. */
int dbg_bp_find_slot(unsigned slot);
/* Does the range touch the debugger itself (no breakpoints, watchpoints or writes there)? */
bool dbg_addr_is_debugger(u64 addr, u64 len);
/* [start, end) of the debugger's bss was given to the kernel (the early storage). */
void dbg_addr_release(u64 start, u64 end);
int dbg_bp_capacity(void);
/* dbg_bp_set_lifetime - new entries are planted in @life from now on (default: early). */
void dbg_bp_set_lifetime(enum ekdb_lifetime life);
/*
 * dbg_bp_set_nobp_range - code of another image where no breakpoint may go
 * either (the loader: the kernel's own debugger, struct ekdb_kinfo):
 * refused as the debugger's own code (-EKDB_EPERM).
 */
void dbg_bp_set_nobp_range(u64 start, u64 end);
/* dbg_bp_add_nobp_range - one more such range (ekdb_add_nobp_range): 0, -EKDB_EINVAL, -EKDB_ENOSPC */
int dbg_bp_add_nobp_range(u64 start, u64 end);
/* dbg_bp_restore - a handed-over entry back at its number (core/handoff.c). */
int dbg_bp_restore(int index, const struct dbg_bp *b);
/*
 * dbg_bp_set_code_check - where software breakpoints may go, for a lifetime
 * whose code is not the kernel's text (the loader: its own code and the
 * placed kernel image).  NULL (the default): the kernel's _text.._etext.
 */
void dbg_bp_set_code_check(bool (*fn)(u64 addr));
void dbg_bp_table_move(struct dbg_bp *tab, int cap,
		       struct dbg_bp *(*grow)(const struct dbg_bp *old, int old_cap, int *new_cap));
/* dbg_bp_table_fresh - start over with an empty table in @tab (the old one is not read). */
void dbg_bp_table_fresh(struct dbg_bp *tab, int cap,
			struct dbg_bp *(*grow)(const struct dbg_bp *old, int old_cap, int *new_cap));
int dbg_bp_table_grow(void);

/* ---------------------------------------------------------------- mem.c */
long dbg_mem_read(u64 addr, void *buf, size_t len);
long dbg_mem_write(u64 addr, const void *buf, size_t len);

/* ---------------------------------------------------------------- cpu.c */
struct dbg_cpu {
	bool online;		/* known to the debugger */
	bool stopped;		/* inside the debugger (state valid) */
	struct pt_regs *regs;	/* trap frame while stopped */
	struct arch_dbg_state state;
	struct arch_dbg_step step;
	bool user_step;		/* the user asked for this step */
	bool stepping_over;	/* re-insert breakpoints after this step */
	bool go;		/* held: the master handed this CPU a resume */
	bool nmi_pending;	/* sent a round-up NMI it has not taken yet */
	bool entering;		/* trapped, waiting for the master role */
	bool console_pkt;	/* sending a kgdbcon 'O' packet (dbg_console_begin) */
	bool park_deferred;	/* a round-up came mid-packet: park at its end */
	bool polling;		/* in the tick's break-in poll (ekdb_poll_break) */
};

extern struct dbg_cpu dbg_cpus[NR_CPUS];
unsigned dbg_this_cpu(void);
unsigned dbg_roundup_cpus(unsigned self);	/* returns CPUs that did not stop */
void dbg_release_cpus(unsigned self);
extern unsigned dbg_cpus_missing;	/* not stopped by the last round-up */
/*
 * dbg_cpu_hold - this CPU (state captured, stopped set) waits inside the
 * debugger until the machine resumes or the master hands it a resume
 * (->go); then it writes its state back, arms a step if asked, loads the
 * hardware breakpoints and leaves.  @trapped: it stopped on a trap of its
 * own (an execute breakpoint at pc must not fire again: arch_dbg_resume_no_rehit).
 */
void dbg_cpu_hold(unsigned self, struct pt_regs *regs, bool trapped);
/* Does a round-up by another CPU want @self stopped right now? */
bool dbg_roundup_wants(unsigned self);
/*
 * dbg_console_begin/_end - around one kgdbcon write of a running CPU
 * (the 'O' packets of a printk).  begin returns false when a CPU holds
 * the debugger (nothing may be sent: Linux's kgdb_active check).  A
 * round-up NMI that lands between them is deferred to the end, so the
 * master's stop reply never cuts a packet on the line (issue 19).
 */
bool dbg_console_begin(void);
void dbg_console_end(void);
/* cpu.c: the deferred park, through a trap of its own (arch_dbg_park_trap) */
void dbg_console_park_deferred(unsigned self);

/* ---------------------------------------------------------------- entry.c */
/* Arm the step (user step or step over a breakpoint) @c asked for on @regs. */
void dbg_arm_step(struct dbg_cpu *c, struct pt_regs *regs);
/* An NMI nobody asked for: 1 stopped there, 0 debugger off, -1 another CPU is entering. */
int dbg_nmi_stop(struct pt_regs *regs);

/* ---------------------------------------------------------------- reenter.c */
/*
 * dbg_reenter_recover - @stop happened in the debugger's own code path
 * (Linux's kgdb_reenter_check): on the CPU that holds the debugger (a stop
 * or its leaving), or, @running, on a CPU that ran the debugger while the
 * kernel runs (the tick's break-in poll, a kgdbcon packet) and has taken
 * the master role for the recovery.  When it is a breakpoint or watchpoint
 * of ours (software or hardware), take it out, warn naming it, and return
 * true (execution goes on at @regs).  @running: the warning waits in a
 * small queue for dbg_reenter_flush() (a driver may be half-way through a
 * transaction on the line the log goes to).  False: not recoverable (not
 * ours, a fault, or a trap while recovering); the caller gives the
 * debugger up.
 */
bool dbg_reenter_recover(const struct pt_regs *regs, const struct ekdb_stop *stop, bool running);
/* The queued warnings of recoveries made while the kernel ran, to the kernel's log. */
void dbg_reenter_flush(void);
/* "a breakpoint", "a fault", ...: what @stop is, for a message. */
const char *dbg_stop_what(const struct ekdb_stop *stop);

/* ---------------------------------------------------------------- transport.c */
unsigned dbg_transport_count(void);
bool dbg_transports_scripted(void);	/* a lock-step peer (ekdbts): no backlog to read */
extern const struct ekdb_chan dbg_chan;		/* all transports as one channel */
int dbg_chan_poll(void);			/* a byte, EKDB_CHAR_SYSRQ(k) or EKDB_NO_CHAR */
void dbg_chan_putc_lines(u8 c);			/* output to non-console transports only */
void dbg_chan_write_lines(const u8 *buf, size_t n);	/* the same, @n bytes */
unsigned dbg_chan_write_consoles(const u8 *buf, size_t n);	/* screens only; how many */
void dbg_transports_pre(void);
struct ekdb_transport *dbg_transport_find(const char *name);
/* The registered transport of the device @dev (struct ekdb_transport's dev), or NULL. */
struct ekdb_transport *dbg_transport_find_dev(const char *dev);
int dbg_transport_takeover(struct ekdb_transport *old, struct ekdb_transport *new);
/* The tick's poll: lock (only tried), poll (EKDB_BREAK_*), dispatch, unlock. */
bool dbg_transports_poll_lock(void);
int dbg_transports_poll_break(void);
void dbg_transports_poll_unlock(void);


/* ---------------------------------------------------------------- display.c */
void dbg_display_enter(void);
void dbg_display_leave(void);
void dbg_transports_post(void);

/* ---------------------------------------------------------------- target.c */
extern struct ekdb_target dbg_target;
/* port.c: the host's services as kdb's commands have them (kdb_session_set_host()). */
extern const struct ekdb_stopped_ops dbg_host_ops;
/* A line for the kernel's log (the port's stopped warn); dropped without one. */
void dbg_kernel_warn(const char *msg);
/* The kernel's panic (the port's stopped panic) with @msg; returns only without one. */
void dbg_kernel_panic(const char *msg);
void dbg_target_select_cpu(unsigned cpu);
/*
 * dbg_target_set_libraries - the images gdb should load symbols for, as
 * qXfer:libraries:read's document (the loader: its own ELF at its real
 * base).  @fn returns the XML and its length, or NULL; NULL: no list.
 */
void dbg_target_set_libraries(const char *(*fn)(size_t *len));
/* The same list as <library-list-svr4> (qXfer:libraries-svr4:read, which lldb reads). */
void dbg_target_set_libraries_svr4(const char *(*fn)(size_t *len));

/* ---------------------------------------------------------------- entry.c */

/* ---------------------------------------------------------------- frontend.c */
struct gdb_session;
struct kdb_session;



/* dbg_core_exit - the debugger off (ekdb_shutdown): no trap is taken as its own any more. */
void dbg_core_exit(void);

#endif
