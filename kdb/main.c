/* SPDX-License-Identifier: GPL-2.0 */
/*
 * main.c - the kdb session: the entry message, the prompt loop, running
 * one command line (`| grep`, cmd_enable, repeat on Enter, an unknown
 * word evaluated as an address), the hand-over to gdb, gdb's `monitor`,
 * and the initial command file.
 */
#include "kdb.h"

int kdb_session_init(struct kdb_session *s, struct ekdb_target *target,
		     const struct ekdb_chan *chan)
{
	if (!s || !target || !target->ops || !chan || !chan->getc || !chan->putc)
		return -EKDB_EINVAL;
	memset(s, 0, sizeof(*s));
	s->target = target;
	s->chan = chan;
	s->cmd_enable = KDB_ENABLE_ALL;
	s->pid = -1;
	s->defining = -1;
	s->hist_pos = -1;
	kdb_hist_init(s);
	kdb_env_defaults(s);
	return 0;
}

const struct ekdb_stopped_ops kdb_no_host;

void kdb_session_set_host(struct kdb_session *s, const struct ekdb_stopped_ops *host)
{
	s->host = host;
}

void kdb_session_move(struct kdb_session *dst, const struct kdb_session *src)
{
	memcpy(dst, src, sizeof(*dst));
	if (src->hist == src->hist_small)	/* the ring inside the session moves with it */
		dst->hist = dst->hist_small;
}

void kdb_session_pushback(const struct kdb_session *s, const char **buf, size_t *len)
{
	*buf = s->sniff;
	*len = s->handed_to_gdb ? s->sniff_len : 0;
}

/* The value of an address expression, or -KDB_NOTFOUND (kdb_parse's fallback). */
static int eval_unknown(struct kdb_session *s, int argc, const char **argv)
{
	int next = 0, r;
	u64 v;

	r = kdb_getaddrarg(s, argc, argv, &next, &v);
	if (r || next != argc + 1)
		return -KDB_NOTFOUND;
	kdb_printf(s, "%s = ", argv[0]);
	kdb_symbol_print(s, v);
	kdb_printf(s, "\n");
	return 0;
}

/* Split "cmd args | grep PATTERN"; returns false on a bad pipe. */
static bool split_grep(char *buf, const char **pattern)
{
	char *bar = NULL;
	bool quoted = false;
	const char *argv[3];
	int n;

	*pattern = NULL;
	for (char *p = buf; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '|' && !quoted) {
			bar = p;
			break;
		}
	}
	if (!bar)
		return true;
	*bar = 0;
	n = kdb_tokenize(bar + 1, argv, 3);
	if (n != 2 || strcmp(argv[0], "grep"))
		return false;
	*pattern = argv[1];
	return true;
}

/* Run the command words; prints diagnostics.  Returns 0, KDB_CMD_* or -KDB_*. */
static int exec_words(struct kdb_session *s, int argc, const char **argv, const char *line)
{
	const struct kdb_cmd *c;
	bool quiet = false;
	int r, d;

	if (argv[0][0] == '-' && argv[0][1] && !isdigit((unsigned char)argv[0][1])) {
		quiet = true;	/* kdb_cmds/defcmd: "-cmd" ignores the command's errors */
		argv[0]++;
	}
	c = kdb_lookup(argv[0]);
	d = c ? -1 : kdb_defcmd_lookup(s, argv[0]);
	if (!c && d < 0) {
		r = eval_unknown(s, argc - 1, argv);
		if (r == -KDB_NOTFOUND && !quiet)	/* Linux's kdb_local(): the whole line */
			kdb_printf(s, "Unknown kdb command: '%s'\n", line ? line : argv[0]);
		return quiet ? 0 : r;
	}
	if (c && !kdb_cmd_allowed(s->cmd_enable, c->flags, argc == 1)) {
		r = -KDB_NOPERM;
	} else if (c) {
		r = c->fn(s, argc - 1, argv);
	} else {
		r = argc > 1 ? -KDB_TOOMANYARGS : kdb_defcmd_exec(s, d);
	}
	if (r > 0 && (s->monitor || s->in_cmdfile)) {
		kdb_printf(s, "%s: cannot resume the machine from %s\n", argv[0],
			   s->monitor ? "gdb's monitor (use gdb's own commands)" : "kdb_cmds");
		s->ssb = false;
		r = -KDB_NOTHERE;
	}
	if (r == -KDB_NOTFOUND && !quiet) {
		/* Linux's kdb_local(): the whole line, not a diagnostic */
		kdb_printf(s, "Unknown kdb command: '%s'\n", line ? line : argv[0]);
	} else if (r < 0 && !quiet) {
		kdb_print_diag(s, r);
	}
	if (s->depth == 0 && !s->monitor && line) {
		if (c && (c->flags & KDB_REPEAT_WITH_ARGS))
			strlcpy(s->last_cmd, line, sizeof(s->last_cmd));
		else if (c && (c->flags & KDB_REPEAT_NO_ARGS))
			strlcpy(s->last_cmd, argv[0], sizeof(s->last_cmd));
		else
			s->last_cmd[0] = 0;
	}
	return quiet && r < 0 ? 0 : r;
}

/**
 * kdb_exec_line - run one command line: record it when a defcmd is
 * being defined, else split off `| grep`, tokenize, look up, check
 * cmd_enable and run.  Returns 0, a KDB_CMD_* action or -KDB_*.
 */
int kdb_exec_line(struct kdb_session *s, const char *line)
{
	char buf[KDB_LINE_MAX];
	const char *argv[KDB_MAXARGS];
	const char *pattern;
	bool outer_grep = s->grep_on;
	int argc, r;

	if (kdb_defcmd_capture(s, line))
		return 0;
	if (strlcpy(buf, line, sizeof(buf)) >= sizeof(buf)) {
		/* Linux's kdb_parse(): the line is dropped, then "Unknown kdb command" */
		kdb_printf(s, "kdb_parse: command buffer overflow, command ignored\n%s\n", line);
		kdb_printf(s, "Unknown kdb command: '%s'\n", line);
		return -KDB_NOTFOUND;
	}
	if (!split_grep(buf, &pattern)) {
		kdb_printf(s, "kdb: only \"| grep PATTERN\" may follow '|' (see grephelp)\n");
		kdb_print_diag(s, -KDB_BADARG);
		return -KDB_BADARG;
	}
	argc = kdb_tokenize(buf, argv, KDB_MAXARGS);
	if (argc == -KDB_TOOMANYARGS) {
		kdb_printf(s, "kdb_parse: too many arguments, command ignored\n%s\n", line);
		kdb_printf(s, "Unknown kdb command: '%s'\n", line);
		return -KDB_NOTFOUND;
	}
	if (argc < 0) {
		kdb_print_diag(s, argc);
		return argc;
	}
	if (argc == 0)
		return 0;
	if (pattern && !kdb_grep_set(s, pattern)) {
		kdb_print_diag(s, -KDB_BADLENGTH);
		return -KDB_BADLENGTH;
	}
	r = exec_words(s, argc, argv, line);
	kdb_out_end(s);
	if (pattern)
		s->grep_on = outer_grep;
	return r;
}

static const char *reason_text(struct kdb_session *s, u64 pc, char *buf, size_t size)
{
	const struct ekdb_stop *st = &s->stop;

	switch (st->reason) {
	case EKDB_STOP_SWBREAK:
	case EKDB_STOP_HWBREAK:
		ekdb_snprintf(buf, size, "Breakpoint @ 0x%llx", (unsigned long long)pc);
		break;
	case EKDB_STOP_WATCH:
	case EKDB_STOP_RWATCH:
	case EKDB_STOP_AWATCH:
		ekdb_snprintf(buf, size, "Debug @ 0x%llx", (unsigned long long)pc);
		break;
	case EKDB_STOP_STEP:
		ekdb_snprintf(buf, size, "SS trap @ 0x%llx", (unsigned long long)pc);
		break;
	case EKDB_STOP_FAULT:
		ekdb_snprintf(buf, size, "oops @ 0x%llx", (unsigned long long)pc);
		break;
	case EKDB_STOP_NMI:
		ekdb_snprintf(buf, size, "NonMaskable Interrupt @ 0x%llx", (unsigned long long)pc);
		break;
	case EKDB_STOP_PANIC:
		ekdb_snprintf(buf, size, "panic @ 0x%llx", (unsigned long long)pc);
		break;
	default:	/* ENTRY (kgdbwait), INTERRUPT (Ctrl-C), SYSRQ (sysrq-g) */
		return "Keyboard Entry";
	}
	return buf;
}

static void announce_stop(struct kdb_session *s)
{
	static const char *const bptype[] = { "Instruction(i)", "Instruction(Register)",
					      "Data Write", "Data Read", "Data Access" };
	const struct ekdb_stop *st = &s->stop;
	struct ekdb_task cur;
	struct ekdb_bp_info bi;
	char why[64];
	u64 pc = 0;

	kdb_out_begin(s);
	kdb_reg_value(s, "rip", &pc);
	if (st->bp_index >= 0 && s->target->ops->bp_get &&
	    s->target->ops->bp_get(s->target, st->bp_index, &bi) == 0)
		kdb_printf(s, "%s breakpoint #%d at 0x%llx\n", bptype[bi.type % 5], st->bp_index,
			   (unsigned long long)bi.addr);
	if (st->reason == EKDB_STOP_FAULT)
		kdb_printf(s, "Oops: %s\n", st->message ? st->message : "unexpected exception");
	if (st->reason == EKDB_STOP_PANIC)
		kdb_printf(s, "Kernel panic - not syncing: %s\n", st->message ? st->message : "");
	if (!kdb_current_task(s, s->cpu, &cur))
		memset(&cur, 0, sizeof(cur));
	kdb_printf(s, "\nEntering kdb (current=0x%016llx, pid %d) on processor %d due to %s\n",
		   (unsigned long long)cur.addr, cur.pid, s->cpu, reason_text(s, pc, why, sizeof(why)));
	if (st->reason == EKDB_STOP_FAULT || st->reason == EKDB_STOP_PANIC) {
		const char *argv[1] = { "rd" };

		kdb_cmd_rd(s, 0, argv);
	}
	kdb_out_end(s);
}

/* ssb: keep stepping silently until the next instruction is a branch. */
static bool ssb_continue(struct kdb_session *s)
{
	u8 insn[16];
	u64 pc;
	long n;

	if (!s->ssb || s->stop.reason != EKDB_STOP_STEP)
		return (s->ssb = false);
	if (kdb_reg_value(s, "rip", &pc))
		return (s->ssb = false);
	n = s->target->ops->mem_read(s->target, pc, insn, sizeof(insn));
	kdb_out_begin(s);
	kdb_symbol_print(s, pc);
	kdb_printf(s, "\n");
	kdb_out_end(s);
	if (n <= 0 || arch_dbg_insn_is_branch(insn, (size_t)n) || ++s->ssb_steps >= 10000 ||
	    s->aborted)
		return (s->ssb = false);
	return true;
}

static void make_prompt(struct kdb_session *s, char *buf, size_t size)
{
	const char *p = kdb_getenv(s, "PROMPT");
	size_t n = 0;

	if (!p)
		p = "[%d]kdb> ";
	for (; *p && n + 12 < size; p++) {
		if (p[0] == '%' && p[1] == 'd') {
			n += (size_t)ekdb_snprintf(buf + n, size - n, "%d", s->cpu);
			p++;
		} else {
			buf[n++] = *p;
		}
	}
	buf[n] = 0;
}

struct ekdb_resume kdb_session_run(struct kdb_session *s, const struct ekdb_stop *stop,
				   bool announce)
{
	char prompt[64];
	int r;

	s->stop = *stop;
	s->go_count = 0;
	memset(&s->resume, 0, sizeof(s->resume));
	s->resume.action = EKDB_RESUME_CONTINUE;
	s->done = false;
	s->handed_to_gdb = false;
	s->sniff_len = 0;
	s->gdb_window = !s->from_gdb;	/* Linux's kdb_stub(): KGDB_TRANS cleared per entry */
	s->ack_window = s->from_gdb;
	s->from_gdb = false;
	s->cpu = kdb_stop_cpu(s);
	kdb_select_cpu(s, s->cpu);	/* rd, bt and %reg look at the CPU that stopped */
	if (ssb_continue(s)) {
		s->resume.action = EKDB_RESUME_STEP;
		return s->resume;
	}
	if (s->gdb_window && s->chan->drop_stale)
		kdb_drop_stale_input(s);	/* a new stop: what was typed before is not for kdb */
	if (announce)
		announce_stop(s);
	while (!s->done) {
		make_prompt(s, prompt, sizeof(prompt));
		r = kdb_readline(s, prompt);
		if (r < 0) {
			s->resume.action = EKDB_RESUME_EOF;
			break;
		}
		if (r > 0) {
			s->handed_to_gdb = true;
			s->resume.action = EKDB_RESUME_TO_GDB;
			break;
		}
		kdb_out_begin(s);
		s->lines_out = 1;	/* the echoed Enter counts (Linux's kdb_nextline) */
		if (s->len == 0 && s->defining < 0) {
			if (!s->last_cmd[0])
				continue;
			strlcpy(s->line, s->last_cmd, sizeof(s->line));
		} else {
			kdb_hist_add(s, s->line);
		}
		r = kdb_exec_line(s, s->line);
		switch (r) {
		case KDB_CMD_GO:
			s->done = true;
			break;
		case KDB_CMD_SS:
			s->resume.action = EKDB_RESUME_STEP;
			s->done = true;
			break;
		case KDB_CMD_KGDB:
			s->resume.action = EKDB_RESUME_TO_GDB;
			s->done = true;
			break;
		}
	}
	return s->resume;
}

int kdb_monitor(void *session, const char *cmd,
		void (*out)(void *arg, const char *s, size_t len), void *arg)
{
	struct kdb_session *s = session;
	bool was = s ? s->monitor : false;

	if (!s)
		return -EKDB_ENODEV;
	s->monitor = true;
	s->mon_out = out;
	s->mon_arg = arg;
	kdb_out_begin(s);
	kdb_exec_line(s, cmd);
	kdb_out_end(s);
	s->monitor = was;
	return 0;
}

int kdb_run_cmds(struct kdb_session *s, const char *text)
{
	char line[KDB_LINE_MAX];
	int first = 0, r;

	s->in_cmdfile = true;
	while (*text) {
		size_t n = 0;
		const char *p;

		while (text[n] && text[n] != '\n')
			n++;
		if (n < sizeof(line)) {
			memcpy(line, text, n);
			line[n] = 0;
			for (p = line; *p == ' ' || *p == '\t'; p++)
				;
			if (*p && *p != '#') {
				kdb_out_begin(s);
				r = kdb_exec_line(s, p);
				if (r < 0 && !first)
					first = r;
			}
		} else if (!first) {
			first = -KDB_BADLENGTH;
		}
		text += n;
		if (*text)
			text++;
	}
	if (s->defining >= 0) {
		kdb_printf(s, "kdb_cmds: defcmd %s has no endefcmd\n", s->defs[s->defining].name);
		s->defining = -1;
	}
	s->in_cmdfile = false;
	return first;
}
