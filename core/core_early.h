/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core_early.h - what the early debugger (early/: the takeover of the
 * loader's session, the early sessions' storage, ekgdboc= and kgdbwait)
 * and the ekdbts self-test reach of the debug core.  The rest of the
 * core's insides are core/debug_core.h, private to core/; hosts see
 * neither (<ekdb/ekdb.h>, <ekdb/port.h>; make check-layers).
 */
#ifndef CORE_CORE_EARLY_H
#define CORE_CORE_EARLY_H

#include <ekdb/types.h>
#include <ekdb/ekdb.h>
#include <ekdb/transport.h>
#include <ekdb/target.h>

/*
 * Storage of the early lifetime: gathered in one page-aligned region
 * (kernel.lds: __ekdb_early_start..__ekdb_early_end) that the handoff
 * releases to the page allocator.  Nothing may use it afterwards.
 */
#define __ekdb_early __attribute__((section(".bss.ekdb_early"), aligned(64)))
extern char __ekdb_early_start[], __ekdb_early_end[];

/*
 * The kernel's jump window (run-time addresses, [start, end)): code that
 * runs before the kernel has its debug vectors.  Breakpoints there are
 * refused (-EKDB_EJUMPWIN) in the loader's lifetime and in the kernel's.
 */
void dbg_bp_set_jump_window(u64 start, u64 end);
bool dbg_addr_in_jump_window(u64 addr, u64 len);

unsigned dbg_cpu_count(void);	/* highest online index + 1 */

/* The transports: registered in order; the @i'th, or NULL. */
int dbg_transport_register(struct ekdb_transport *t);
void dbg_transport_unregister(struct ekdb_transport *t);
struct ekdb_transport *dbg_transport_at(unsigned i);

/*
 * A front end: the gdbstub (and kdb later).  run() serves the user while
 * the machine is stopped and says how to resume.
 */
struct dbg_frontend {
	const char *name;
	struct ekdb_resume (*run)(const struct ekdb_stop *stop, bool announce);
	void (*console_write)(const char *s, size_t len);	/* kgdbcon; may be NULL */
};

/* dbg_frontend_init - sessions set up in @st (once); the kdb+gdb front end, or NULL. */
const struct dbg_frontend *dbg_frontend_init(const struct ekdb_sessions *st, u32 cmd_enable);
/* dbg_frontend_move - the live sessions continue in @st: 0 or -errno. */
int dbg_frontend_move(const struct ekdb_sessions *st);
bool dbg_frontend_gdb_attached(void);
/* The live sessions (NULL before dbg_frontend_init), and who owns the line (core/handoff.c). */
void dbg_frontend_sessions(struct gdb_session **gdb, struct kdb_session **kdb);
bool dbg_frontend_gdb_owns_line(void);
void dbg_frontend_set_gdb_owns_line(bool on);
/*
 * dbg_frontend_set_cmd_enable - the live kdb session's kdb.cmd_enable: the
 * kernel's own reading of its command line wins over a handed-over session's.
 */
void dbg_frontend_set_cmd_enable(u32 cmd_enable);

/* ---------------------------------------------------------- handoff.c */
struct ekdb_handoff;
/*
 * dbg_handoff_check - is @c a record this debugger can take over?  NULL if
 * so, else why not (one line for the log).  Pure.
 */
const char *dbg_handoff_check(const struct ekdb_handoff *c);
/*
 * dbg_handoff_export - the running debugger's breakpoints, line and
 * sessions into @c, as the last act before the jump: the hardware slots
 * are disarmed on this CPU (DR7 = 0: nothing fires in the window), the
 * int3s stay in the text.  0 or -errno (nothing to hand over, table too big).
 */
int dbg_handoff_export(struct ekdb_handoff *c);
/*
 * dbg_handoff_lend - the same for a successor that borrows the debugger's
 * transports (ekdb_io_getc()/ekdb_io_write()) instead of driving a 16550
 * itself: the line in @c where it is a 16550 at an I/O port, LINE_NONE
 * otherwise (a keyboard and screen, a USB debug port), not an error.
 */
int dbg_handoff_lend(struct ekdb_handoff *c);
/* dbg_handoff_describe - the breakpoints and sessions only, changing nothing (magic 0). */
int dbg_handoff_describe(struct ekdb_handoff *c);
/*
 * dbg_handoff_import - the breakpoints and sessions of a checked @c into
 * this lifetime's (freshly initialised) core; the line is the caller's
 * (early/handoff.c).  Software entries outside [text_start, text_end) are
 * kept disabled (the loader's code is gone).  0 or -errno.
 */
struct dbg_handoff_stats {
	unsigned sw, hw;	/* entries taken over */
	unsigned disabled;	/* software entries outside this image's text: kept, disabled */
	unsigned dropped;	/* software entries in the jump window: byte restored, dropped */
};
int dbg_handoff_import(const struct ekdb_handoff *c, u64 text_start, u64 text_end,
		     struct dbg_handoff_stats *st);
/* dbg_handoff_unplant - a refused record's int3s out of the text again; how many. */
unsigned dbg_handoff_unplant(const struct ekdb_handoff *c, u64 text_start, u64 text_end);

/* dbg_core_init - take the debug vectors (arch_dbg_traps_init); @fe serves the user. */
void dbg_core_init(const struct dbg_frontend *fe);

/* ---------------------------------------------------------------- kgdboc.c */
struct kgdboc_cfg {
	bool kms, kbd, serial;
	int line;		/* ttySn, or -1 for a 0xPORT line */
	u16 base;
	u32 baud;		/* the one given, else 115200 */
	bool baud_given;	/* ttyS1,9600: a run-time write sets it (Linux's uart_poll_init) */
};
/* kgdboc_parse - kgdboc=[kms][,kbd][,ttySn[,baud]]: 0 or -EKDB_EINVAL (unknown word, bad line/baud). */
int kgdboc_parse(const char *v, struct kgdboc_cfg *cfg);
bool kgdboc_names(const struct kgdboc_cfg *cfg, const char *name);

#endif
