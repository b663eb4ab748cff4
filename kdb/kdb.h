/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kdb.h - kdb internals shared by the files of kdb/: diagnostics, the
 * command table, output, line editing, environment and expressions.
 */
#ifndef KDB_KDB_H
#define KDB_KDB_H

#include <ekdb/kdb.h>
#include <ekdb/arch.h>
#include <ekdb/errno.h>
#include <ekdb/fmt.h>
#include <ekdb/range.h>
#include <ekdb/string.h>

/* Diagnostics (negative returns of commands), Linux's KDB_* numbering. */
enum kdb_diag {
	KDB_NOTFOUND = 1,	/* "Command Not Found" */
	KDB_ARGCOUNT,		/* "Improper argument count, see usage." */
	KDB_BADWIDTH,
	KDB_BADRADIX,
	KDB_NOTENV,
	KDB_NOENVVALUE,
	KDB_NOTIMP,
	KDB_ENVFULL,
	KDB_ENVBUFFULL,
	KDB_TOOMANYBPT,
	KDB_TOOMANYDBREGS,
	KDB_DUPBPT,
	KDB_BPTNOTFOUND,
	KDB_BADMODE,
	KDB_BADINT,
	KDB_INVADDRFMT,
	KDB_BADREG,
	KDB_BADCPUNUM,
	KDB_BADLENGTH,
	KDB_NOBP,
	KDB_BADADDR,
	KDB_NOPERM,
	KDB_DIAG_MAX,
};

/*
 * Linux has exactly the 22 diagnostics above (include/linux/kdb.h), and a
 * user compares "diag: -N: text" with what Linux prints.  The situations
 * below are named apart in ekdb's code but reported with the number Linux
 * reports for them.
 */
#define KDB_TOOMANYARGS	KDB_ARGCOUNT	/* Linux: "Improper argument count" */
#define KDB_NOSYM	KDB_BADINT	/* Linux: an unknown symbol is parsed as a number */
#define KDB_BADARG	KDB_BADINT	/* a malformed argument */
#define KDB_NOTAVAIL	KDB_NOTIMP	/* the target lacks the op: "Command not implemented" */
#define KDB_NOTHERE	KDB_NOTIMP	/* not from gdb's monitor / kdb_cmds */

/* diag.c */
const char *kdb_diag_msg(int diag);
/* kdb_err_to_diag - a -EKDB_E* code from a target op as a -KDB_* diagnostic. */
int kdb_err_to_diag(int err);
void kdb_print_diag(struct kdb_session *s, int diag);

/* argv.c: split @line (modified in place) into @argv; returns argc or -KDB_*. */
int kdb_tokenize(char *line, const char **argv, int max);

/* cmdtab.c */
const struct kdb_cmd *kdb_lookup(const char *name);
bool kdb_cmd_allowed(u32 mask, u32 flags, bool no_args);
/* kdb_for_each_cmd - built-in then late commands, in order; stops when fn returns non-zero. */
int kdb_for_each_cmd(int (*fn)(const struct kdb_cmd *c, void *arg), void *arg);

/* main.c: run one command line (with | grep); returns 0, KDB_CMD_*, or -KDB_*. */
int kdb_exec_line(struct kdb_session *s, const char *line);

/* pager.c: output */
void kdb_write(struct kdb_session *s, const char *p, size_t n);
void kdb_out_begin(struct kdb_session *s);	/* a new command: pager, grep reset */
void kdb_out_end(struct kdb_session *s);	/* flush a partial line */
/* kdb_raw - straight to the line (prompt, echo): no pager, no grep. */
void kdb_raw(struct kdb_session *s, const char *p, size_t n);
void kdb_raw_str(struct kdb_session *s, const char *str);
bool kdb_grep_set(struct kdb_session *s, const char *pattern);
bool kdb_grep_match(const struct kdb_session *s, const char *line);
/* kdb_interrupted - output was aborted (q at more>, Ctrl-C): stop producing it. */
static inline bool kdb_interrupted(const struct kdb_session *s)
{
	return s->aborted;
}
/* kdb_poll_interrupt - a long stretch without output reads the line as a printed line does. */
bool kdb_poll_interrupt(struct kdb_session *s);

/* lineedit.c: input */
#define KDB_GETC_EOF	(-2)
int kdb_getc(struct kdb_session *s);		/* byte or KDB_GETC_EOF; spins on no-char */
int kdb_poll_char(struct kdb_session *s);	/* byte, EKDB_NO_CHAR or KDB_GETC_EOF */
int kdb_poll_chan(struct kdb_session *s);	/* the same, the channel only */
/* kdb_readline - edit one line after @prompt; 0 line ready, 1 gdb seen, -1 EOF. */
int kdb_readline(struct kdb_session *s, const char *prompt);
void kdb_typeahead_push(struct kdb_session *s, u8 c);
void kdb_drop_stale_input(struct kdb_session *s);

/* history.c */
void kdb_hist_add(struct kdb_session *s, const char *line);
void kdb_hist_init(struct kdb_session *s);	/* the small ring inside the session */
/* kdb_hist_get - the @back'th previous line (0 = newest), NULL past the oldest. */
const char *kdb_hist_get(const struct kdb_session *s, unsigned back);

/* env.c */
void kdb_env_defaults(struct kdb_session *s);
const char *kdb_getenv(const struct kdb_session *s, const char *name);
int kdb_setenv(struct kdb_session *s, const char *name, const char *value);
/* kdb_getenv_int - numeric variable or @dflt when unset/not a number. */
long kdb_getenv_int(const struct kdb_session *s, const char *name, long dflt);

/* expr.c: symbols */
bool kdb_sym_by_addr(struct kdb_session *s, u64 addr, struct ksym *sym, u64 *off);
/* kdb_symbol_print - "0xADDR (sym+0xoff)" or "0xADDR" when unknown. */
void kdb_symbol_print(struct kdb_session *s, u64 addr);
/* kdb_sym_fmt - "sym+0xoff/0xsize" into @buf; returns false when unknown. */
bool kdb_sym_fmt(struct kdb_session *s, u64 addr, char *buf, size_t size);
int kdb_reg_value(struct kdb_session *s, const char *name, u64 *value);

/* cmd_task.c: the task whose context rd/bt show; helpers for other files */
bool kdb_find_task_pid(struct kdb_session *s, int pid, struct ekdb_task *t);
bool kdb_current_task(struct kdb_session *s, int cpu, struct ekdb_task *t);
int kdb_select_cpu(struct kdb_session *s, int cpu);
int kdb_stop_cpu(struct kdb_session *s);

/* A register set for the Linux show_regs() layouts (showregs.c). */
struct kdb_frame {
	u64 ax, bx, cx, dx, si, di, bp, sp, r8, r9, r10, r11, r12, r13, r14, r15;
	u64 ip, flags, cs, ss, ds, es, fs, gs, orig_ax;	/* orig_ax ~0: none */
	u64 fs_base, gs_base, k_gs_base, cr0, cr2, cr3, cr4, dr[6];	/* dr0-3, dr6, dr7 */
	bool have_sys;
	u64 stack_base, stack_top;	/* the task's stack when known (0, 0: scan a fixed window) */
};

/* showregs.c */
bool kdb_is_text(struct kdb_session *s, u64 addr, struct ksym *sym);
void kdb_show_cpu_line(struct kdb_session *s, int cpu);
void kdb_show_regs(struct kdb_session *s, const struct kdb_frame *f, bool all);
void kdb_show_trace(struct kdb_session *s, const struct kdb_frame *f, bool regs, u64 ip_first);
/* cmd_reg.c */
bool kdb_reg_frame(struct kdb_session *s, struct kdb_frame *f);
/* cmd_mem.c */
int kdb_getword(struct kdb_session *s, u64 addr, int bpw, bool phys, u64 *word);
/* 0, or -KDB_BADADDR after a message when [addr, addr + len) runs past 2^64. */
int kdb_check_range(struct kdb_session *s, const char *cmd, u64 addr, u64 len);
/* cmd_task.c: kdb_ps_suppressed + header + lines, shared by bta */
void kdb_ps_suppressed(struct kdb_session *s);

/* cmd_run.c: CPUs (ssb's branch test: arch_dbg_insn_is_branch) */
unsigned kdb_cpu_count(struct kdb_session *s);
void kdb_cpu_status(struct kdb_session *s);

/* cmd_defcmd.c: line capture while defining; true if @line was taken. */
bool kdb_defcmd_capture(struct kdb_session *s, const char *line);
int kdb_defcmd_lookup(const struct kdb_session *s, const char *name);
int kdb_defcmd_exec(struct kdb_session *s, int idx);

/* The command handlers (one family per file). */
int kdb_cmd_md(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_mm(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_rd(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_rm(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_ef(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_bp(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_bl(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_bc(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_go(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_ss(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_cpu(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_kgdb(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_reboot(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_sr(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_ps(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_pid(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_bt(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_help(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_env(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_set(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_summary(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_dmesg(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_lsmod(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_defcmd(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_kill(struct kdb_session *s, int argc, const char **argv);
int kdb_cmd_per_cpu(struct kdb_session *s, int argc, const char **argv);

/* The host's services (kdb_session_set_host()); an empty table when none. */
extern const struct ekdb_stopped_ops kdb_no_host;
static inline const struct ekdb_stopped_ops *kdb_host(const struct kdb_session *s)
{
	return s->host ? s->host : &kdb_no_host;
}

#endif
