/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kdb.h - the kdb shell (kdb/): public API for the debug core and for
 * kernel subsystems that add commands.
 *
 * A kdb_session is pure shell logic over a struct ekdb_target (the
 * stopped machine) and a struct ekdb_chan (a byte line: serial, or
 * keyboard+screen).  The session struct IS the storage: line, history,
 * environment, defcmd bodies all live inside it, so the caller places it
 * in static memory early (early/storage.c) and kdb never allocates.
 * Nothing blocks except reading the channel.
 */
#ifndef EKDB_KDB_H
#define EKDB_KDB_H

#include <ekdb/types.h>
#include <ekdb/target.h>
#include <ekdb/port.h>
#include <ekdb/transport.h>

#define KDB_LINE_MAX		256	/* longest command line */
#define KDB_HISTORY		32	/* remembered lines (up/down), as Linux */
#define KDB_HISTORY_EARLY	8	/* ... while the session lives in early storage */
#define KDB_MAXARGS		16	/* words per command, argv[0] included */
#define KDB_ENV_SLOTS		32	/* NAME=VALUE variables */
#define KDB_ENV_LEN		80	/* longest "NAME=VALUE" */
#define KDB_MAX_DEFCMD		16	/* defcmd macros */
#define KDB_DEFCMD_POOL		4096	/* bytes of all defcmd bodies */
#define KDB_MAX_LATE_CMDS	32	/* commands registered with kdb_register() */
#define KDB_SNIFF_DETECT	64	/* bytes looked at to recognise gdb */
#define KDB_SNIFF_MAX		256	/* bytes kept of its newest frame */
#define KDB_TYPEAHEAD		64	/* bytes read while checking for Ctrl-C */
#define KDB_STALE_MAX		256	/* input dropped at a stop's start, at most */

/*
 * Command classes for kdb.cmd_enable=MASK, with Linux's KDB_ENABLE_*
 * values.  The mask a user gives holds bits 0-8; a command is allowed
 * when (mask | ALWAYS_SAFE) shares a bit with its flags (ALL matches
 * every command).  The *_NO_ARGS forms (shifted by 10) apply when the
 * command is typed without arguments (e.g. `go` alone is safer than
 * `go addr`).
 */
#define KDB_ENABLE_ALL		(1u << 0)
#define KDB_ENABLE_MEM_READ	(1u << 1)
#define KDB_ENABLE_MEM_WRITE	(1u << 2)
#define KDB_ENABLE_REG_READ	(1u << 3)
#define KDB_ENABLE_REG_WRITE	(1u << 4)
#define KDB_ENABLE_INSPECT	(1u << 5)
#define KDB_ENABLE_FLOW_CTRL	(1u << 6)
#define KDB_ENABLE_SIGNAL	(1u << 7)
#define KDB_ENABLE_REBOOT	(1u << 8)
#define KDB_ENABLE_ALWAYS_SAFE	(1u << 9)
#define KDB_ENABLE_MASK		((1u << 10) - 1)
#define KDB_ENABLE_NO_ARGS_SHIFT 10
#define KDB_ENABLE_NO_ARGS(f)	((f) << KDB_ENABLE_NO_ARGS_SHIFT)
/* Enter on an empty line runs the command again (md continues, ss steps). */
#define KDB_REPEAT_NO_ARGS	(1u << 30)
/* ... with the same arguments. */
#define KDB_REPEAT_WITH_ARGS	(1u << 31)

/* Command results other than 0 / -KDB_* diagnostics (kdb_cmd_fn returns). */
#define KDB_CMD_GO		1	/* resume (resume.set_pc may be set) */
#define KDB_CMD_SS		2	/* single step */
#define KDB_CMD_KGDB		3	/* hand the line to gdb */

struct kdb_session;

/**
 * kdb_cmd_fn - a command.  @argv[0] is the name as typed, @argc counts
 * the arguments after it (Linux's convention).  Print with kdb_printf().
 * Returns 0, a KDB_CMD_* action, or a negative KDB_* diagnostic
 * (kdb prints "diag: -N: message").
 */
typedef int (*kdb_cmd_fn)(struct kdb_session *s, int argc, const char **argv);

struct kdb_cmd {
	const char *name;
	kdb_cmd_fn fn;
	const char *usage;	/* "<vaddr> [<lines>]" */
	const char *help;	/* one line */
	short minlen;		/* shortest accepted prefix; 0 = the full name */
	u32 flags;		/* KDB_ENABLE_* | KDB_REPEAT_* */
};

struct kdb_defcmd {
	bool used;
	char name[16];
	char usage[32];
	char help[64];
	u16 start, len;		/* body in defpool: lines ending in '\n' */
	u16 nlines;
};

/* The whole shell state; the caller provides it (static early). */
struct kdb_session {
	struct ekdb_target *target;
	/* the host's services (ps, dmesg, lsmod, summary, mdp, per_cpu, kill, reboot, sr) */
	const struct ekdb_stopped_ops *host;
	const struct ekdb_chan *chan;
	u32 cmd_enable;			/* kdb.cmd_enable (default KDB_ENABLE_ALL) */
	int cpu;			/* CPU whose registers rd/bt show (prompt) */
	int pid;			/* `pid N` selection, -1 = current */
	struct ekdb_stop stop;
	struct ekdb_resume resume;
	bool done;
	bool monitor;			/* running a gdb `monitor` command */
	bool in_cmdfile;		/* running kdb_cmds: no resuming commands */
	unsigned go_count;		/* `go` typed at this stop (panic: the second one goes) */

	/* line editor (lineedit.c) */
	char line[KDB_LINE_MAX];
	size_t len, pos;
	unsigned prompt_len;
	bool last_was_tab, skip_lf;
	char last_cmd[KDB_LINE_MAX];	/* repeated by an empty line */
	bool handed_to_gdb;
	/*
	 * Linux's !KDB_STATE(KGDB_TRANS): until the first key of this stop is
	 * typed, any gdb packet opens the line to gdb; after it (and when gdb
	 * just gave the line back: from_gdb), only gdb's greeting does.
	 */
	bool gdb_window;
	bool from_gdb;			/* set by the front end before a run after $3#33 */
	bool ack_window;		/* back from gdb, no line entered yet: a '+' is its ack */

	/* history (history.c) */
	char (*hist)[KDB_LINE_MAX];	/* ring of hist_cap lines: hist_small or larger */
	unsigned hist_cap;
	unsigned hist_next, hist_count;
	char hist_small[KDB_HISTORY_EARLY][KDB_LINE_MAX];
	int hist_pos;			/* -1: editing a new line */
	char hist_edit[KDB_LINE_MAX];	/* the new line while browsing */

	/* input not yet consumed, and gdb bytes seen at the prompt */
	u8 typeahead[KDB_TYPEAHEAD];
	unsigned ta_head, ta_len;
	char sniff[KDB_SNIFF_MAX];
	size_t sniff_len;
	size_t replay_pos, replay_len;	/* sniffed bytes that were not gdb after all */
	unsigned long stale_dropped;	/* bytes typed before a stop, dropped at its start */

	/* output (pager.c) */
	void (*mon_out)(void *arg, const char *s, size_t len);
	void *mon_arg;
	char obuf[KDB_LINE_MAX];
	size_t olen;
	unsigned lines_out;		/* lines since the last more> */
	bool aborted;			/* q at more>, or Ctrl-C: drop output */
	char grep[64];
	bool grep_on, grep_head, grep_tail;
	char search[64];		/* '/' at more>: skip output up to a line with it */
	bool search_on;
	unsigned long out_chars;	/* output of the current command */

	/* environment (env.c) */
	char env[KDB_ENV_SLOTS][KDB_ENV_LEN];

	/* defcmd (cmd_defcmd.c) */
	struct kdb_defcmd defs[KDB_MAX_DEFCMD];
	char defpool[KDB_DEFCMD_POOL];
	size_t defpool_used;
	int defining;			/* defs[] index being recorded, -1 */
	int depth;			/* nested defcmd execution */

	/* md and ss state (cmd_mem.c, cmd_run.c) */
	u64 md_next;			/* Linux's last_addr: 0 = no dump yet */
	int md_bpw, md_repeat, md_radix;	/* last_bytesperword, last_repeat, last_radix */
	int kill_prev;			/* kill: pid warned about (Linux's kdb_prev_t) */
	bool getarea_quiet;		/* Linux's KDB_STATE(SUPPRESS): one "Bad address" per run */
	bool ssb;			/* stepping until a branch */
	unsigned ssb_steps;
};

/**
 * kdb_session_init - prepare @s (caller storage) for @target over @chan.
 * Sets the default environment and cmd_enable = KDB_ENABLE_ALL.  Does no
 * I/O.
 * Returns 0 or -EKDB_EINVAL.
 */
int kdb_session_init(struct kdb_session *s, struct ekdb_target *target,
		     const struct ekdb_chan *chan);

/**
 * kdb_session_move - the live session @src continues in @dst (history,
 * environment, defcmd macros, settings: everything); @src is dead after.
 */
void kdb_session_move(struct kdb_session *dst, const struct kdb_session *src);

/*
 * The history ring, for the session handed over across the jump (core/handoff.c):
 * kdb_hist_get - the @back'th previous line (0 = newest), NULL past the oldest;
 * kdb_hist_add - remember a line (as if typed).
 */
const char *kdb_hist_get(const struct kdb_session *s, unsigned back);
void kdb_hist_add(struct kdb_session *s, const char *line);

/**
 * kdb_session_set_history - give @s a history ring of @cap lines in @buf
 * (caller storage, e.g. allocated at the handoff; @cap >= the lines held
 * now); the lines so far are kept, oldest first.  0 or -EKDB_EINVAL.
 */
int kdb_session_set_history(struct kdb_session *s, char (*buf)[KDB_LINE_MAX], unsigned cap);

/**
 * kdb_session_run - serve the kdb prompt while the machine is stopped.
 * @announce: print "Entering kdb (current=..., pid N) on processor C due
 * to ..." for @stop first; false when coming back from gdb ($3#33).
 * Context: machine stopped, debugger CPU, interrupts off.
 * Returns how to resume: CONTINUE (go, maybe with set_pc), STEP (ss,
 * ssb), TO_GDB (`kgdb`, or gdb traffic seen at the prompt: fetch the
 * bytes with kdb_session_pushback() and hand them to
 * gdb_session_pushback()), EOF (channel closed; host only).
 */
struct ekdb_resume kdb_session_run(struct kdb_session *s, const struct ekdb_stop *stop,
				   bool announce);

/**
 * kdb_session_from_gdb - the next kdb_session_run() takes the line back
 * from gdb ($3#33): gdb traffic there is recognised only by gdb's greeting
 * ($qSupported, $?#3f), so what the departing gdb still sends (its `D` or
 * `k` on exit) or a person types is not a packet that resumes the kernel.
 */
static inline void kdb_session_from_gdb(struct kdb_session *s)
{
	s->from_gdb = true;
}

/**
 * kdb_session_pushback - gdb bytes read at the prompt (valid until the
 * next kdb_session_run()); *@len is 0 when there are none.
 */
void kdb_session_pushback(const struct kdb_session *s, const char **buf, size_t *len);

/**
 * kdb_run_cmds - run a command file (kdb_cmds: one command per line, '#'
 * comments, defcmd blocks) in @s; output goes to the channel.  Commands
 * that resume are refused.  Returns 0 or the first error.
 */
/*
 * kdb_session_set_host - the host's services kdb's commands use
 * (<ekdb/port.h>; the live debugger passes core/port.c's, which reach the
 * host's registered table).  NULL, the default: none (those commands say
 * so).  Set after kdb_session_init().
 */
void kdb_session_set_host(struct kdb_session *s, const struct ekdb_stopped_ops *host);

int kdb_run_cmds(struct kdb_session *s, const char *text);

/* The initial command file kdb/kdb_cmds, compiled in by kdb/kdb.mk. */
extern const char kdb_builtin_cmds[];

/**
 * kdb_monitor - gdb's `monitor CMD` (a gdb_monitor_fn, <ekdb/gdbstub.h>;
 * the front end passes it with the kdb session as @session): runs CMD in
 * that session, output through @out, no pager, `| grep` allowed.
 * Commands that resume or switch (go, ss, ssb, kgdb) are refused.
 * Returns 0, or -EKDB_ENODEV without a session.
 */
int kdb_monitor(void *session, const char *cmd,
		void (*out)(void *arg, const char *s, size_t len), void *arg);

/**
 * kdb_parse_cmd_enable - parse kdb.cmd_enable=MASK (decimal or 0x hex,
 * Linux's values) into *@mask.  Returns 0 or -EKDB_EINVAL.
 */
int kdb_parse_cmd_enable(const char *val, u32 *mask);
/*
 * kdb_parse_cmd_enable_int - the run-time value written to
 * /sys/module/kdb/parameters/cmd_enable: Linux's kstrtoint(val, 0) (sign,
 * 0x hex, 0 octal, decimal, one trailing newline).  0, -EKDB_EINVAL or
 * -EKDB_ERANGE (does not fit an int).
 */
int kdb_parse_cmd_enable_int(const char *val, int *out);

/**
 * kdb_register - add a command after boot (late registration, e.g. from
 * the memory or scheduler code).  @cmd must stay valid (static).
 * Returns 0, -EKDB_EEXIST (name taken), -EKDB_ENOSPC (raise
 * KDB_MAX_LATE_CMDS) or -EKDB_EINVAL.  Context: not while stopped.
 */
int kdb_register(const struct kdb_cmd *cmd);
/** kdb_unregister - remove a late command by name: 0 or -EKDB_ENOENT. */
int kdb_unregister(const char *name);

/** kdb_printf - formatted output of a command (paged, grep-filtered). */
int kdb_printf(struct kdb_session *s, const char *fmt, ...) __printf(2, 3);

/**
 * kdb_getaddrarg - evaluate the address expression starting at
 * argv[*@nextarg]: symbol, symbol+0x10, hex, decimal, %reg, $VAR, joined
 * by + and - (also as separate words: "sym + 8").  Advances *@nextarg.
 * Returns 0 or a negative KDB_* diagnostic.
 */
int kdb_getaddrarg(struct kdb_session *s, int argc, const char **argv, int *nextarg,
		   u64 *value);
/** kdb_getularg - a number: decimal, 0x hex, or bare hex ("ffff"). 0 or -KDB_BADINT. */
int kdb_getularg(const char *arg, u64 *value);

#endif
