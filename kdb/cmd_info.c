/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd_info.c - information commands: help/? (and grephelp), summary,
 * dmesg [lines [adjust]] (the printk buffer from its first line), lsmod
 * (the kernel's list of built-in subsystems, from the target's mod_get).
 */
#include "kdb.h"

#define KDB_DMESG_CHUNK	128

static int help_row(const struct kdb_cmd *c, void *arg)
{
	struct kdb_session *s = arg;
	const char *usage = c->usage ? c->usage : "";

	if (kdb_interrupted(s))
		return 1;
	if (!kdb_cmd_allowed(s->cmd_enable, c->flags, true))
		return 0;
	kdb_printf(s, "%-15.15s %-20s%s%s\n", c->name, usage,
		   strlen(usage) > 20 ? "\n                                    " : "",
		   c->help ? c->help : "");
	return 0;
}

/**
 * kdb_cmd_help - help/?: Linux's kdb_help(): every command the
 * kdb.cmd_enable mask allows, then the defcmd macros; grephelp: the
 * `| grep` syntax.  (ekdb: `help CMD` shows only CMD's row.)
 */
int kdb_cmd_help(struct kdb_session *s, int argc, const char **argv)
{
	if (!strcmp(argv[0], "grephelp")) {
		kdb_printf(s, "Usage of  cmd args | grep pattern:\n"
			   "  Any command's output may be filtered through an emulated 'pipe'.\n"
			   "  'grep' is just a key word.\n"
			   "  The pattern may include a very limited set of metacharacters:\n"
			   "   pattern or ^pattern or pattern$ or ^pattern$\n"
			   "  And if there are spaces in the pattern, you may quote it:\n"
			   "   \"pat tern\" or \"^pat tern\" or \"pat tern$\" or \"^pat tern$\"\n");
		return 0;
	}
	kdb_printf(s, "%-15.15s %-20.20s %s\n", "Command", "Usage", "Description");
	kdb_printf(s, "----------------------------------------------------------\n");
	if (argc >= 1) {
		const struct kdb_cmd *c = kdb_lookup(argv[1]);
		int d = kdb_defcmd_lookup(s, argv[1]);

		if (c)
			return help_row(c, s);
		if (d < 0)
			return -KDB_NOTFOUND;
		kdb_printf(s, "%-15.15s %-20s%s\n", s->defs[d].name, s->defs[d].usage, s->defs[d].help);
		return 0;
	}
	kdb_for_each_cmd(help_row, s);
	for (int i = 0; i < KDB_MAX_DEFCMD && !kdb_interrupted(s); i++)
		if (s->defs[i].used)
			kdb_printf(s, "%-15.15s %-20s%s%s\n", s->defs[i].name, s->defs[i].usage,
				   strlen(s->defs[i].usage) > 20 ?
				   "\n                                    " : "", s->defs[i].help);
	return 0;
}

/* civil date from days since 1970-01-01 (proleptic Gregorian) */
static void civil(u64 days, int *y, int *m, int *d)
{
	long z = (long)days + 719468, era = z / 146097;
	long doe = z - era * 146097, yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;

	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

#define FSHIFT		11
#define FIXED_1		(1UL << FSHIFT)
#define LOAD_INT(x)	((x) >> FSHIFT)
#define LOAD_FRAC(x)	LOAD_INT(((x) & (FIXED_1 - 1)) * 100)

/** kdb_cmd_summary - summary: Linux's kdb_summary() layout. */
int kdb_cmd_summary(struct kdb_session *s, int argc, const char **argv)
{
	struct ekdb_sysinfo si;
	u64 up, now;
	int y, mo, d;

	if (argc)
		return -KDB_ARGCOUNT;
	memset(&si, 0, sizeof(si));
	if (kdb_host(s)->sys_info)
		kdb_host(s)->sys_info(&si);
	kdb_printf(s, "sysname    %s\n", si.sysname);
	kdb_printf(s, "release    %s\n", si.release);
	kdb_printf(s, "version    %s\n", si.version);
	kdb_printf(s, "machine    %s\n", si.machine);
	kdb_printf(s, "nodename   (none)\n");
	kdb_printf(s, "domainname (none)\n");
	now = si.realtime_s;
	civil(now / 86400, &y, &mo, &d);
	kdb_printf(s, "date       %04d-%02d-%02d %02d:%02d:%02d tz_minuteswest %d\n", y, mo, d,
		   (int)(now / 3600 % 24), (int)(now / 60 % 60), (int)(now % 60), si.tz_minuteswest);
	up = si.uptime_ms / 1000;
	kdb_printf(s, "uptime     ");
	if (up > 86400) {
		u64 days = up / 86400;

		up %= 86400;
		kdb_printf(s, "%d day%s ", (int)days, days == 1 ? "" : "s");
	}
	kdb_printf(s, "%02lld:%02lld\n", (long long)(up / 3600), (long long)(up / 60 % 60));
	kdb_printf(s, "load avg   %ld.%02ld %ld.%02ld %ld.%02ld\n",
		   LOAD_INT(si.loads[0]), LOAD_FRAC(si.loads[0]), LOAD_INT(si.loads[1]),
		   LOAD_FRAC(si.loads[1]), LOAD_INT(si.loads[2]), LOAD_FRAC(si.loads[2]));
	kdb_printf(s, "\nMemTotal:       %8llu kB\nMemFree:        %8llu kB\nBuffers:        %8llu kB\n",
		   (unsigned long long)si.mem_total_kb, (unsigned long long)si.mem_free_kb,
		   (unsigned long long)si.mem_buffers_kb);
	return 0;
}

/* Count the log's lines; call @emit for lines [from, to) (NULL: count only). */
static long dmesg_walk(struct kdb_session *s, long from, long to)
{
	char buf[KDB_DMESG_CHUNK];
	long line = 0;
	bool open = false;
	u64 pos = 0;
	long n;

	while ((n = kdb_host(s)->log_read(pos, buf, sizeof(buf))) > 0 && !kdb_interrupted(s)) {
		long start = 0;

		for (long i = 0; i < n; i++) {
			if (buf[i] != '\n')
				continue;
			if (line >= from && line < to)
				kdb_write(s, buf + start, (size_t)(i + 1 - start));
			line++;
			start = i + 1;
		}
		if (start < n && line >= from && line < to)
			kdb_write(s, buf + start, (size_t)(n - start));
		open = start < n;
		pos += (u64)n;
	}
	if (open) {
		if (line >= from && line < to)
			kdb_write(s, "\n", 1);
		line++;
	}
	return line;
}

/* strtol-like: the whole word must be a number (Linux: a bad word counts as 0). */
static bool word_long(const char *w, long *v)
{
	bool neg = *w == '-';
	u64 u;

	if (neg || *w == '+')
		w++;
	if (!*w || kdb_getularg(w, &u) || u > 0x7fffffff)
		return false;
	*v = neg ? -(long)u : (long)u;
	return true;
}

/**
 * kdb_cmd_dmesg - dmesg [lines [adjust]]: Linux's kdb_dmesg(): the log
 * records as "<level>[seconds] text"; lines > 0: the last lines (adjust:
 * that many earlier); lines < 0: the first -lines (adjust: after skipping
 * that many), with Linux's "buffer only contains" notes.
 */
int kdb_cmd_dmesg(struct kdb_session *s, int argc, const char **argv)
{
	long n, lines = 0, adjust = 0, skip = 0;

	if (argc > 2)
		return -KDB_ARGCOUNT;
	if (!kdb_host(s)->log_read)
		return -KDB_NOTIMP;
	if (argc && !word_long(argv[1], &lines))
		lines = 0;
	if (argc > 1 && (!word_long(argv[2], &adjust) || adjust < 0))
		adjust = 0;
	n = dmesg_walk(s, 0, 0);
	if (lines < 0) {
		if (adjust >= n)
			kdb_printf(s, "buffer only contains %ld lines, nothing printed\n", n);
		else if (adjust - lines >= n)
			kdb_printf(s, "buffer only contains %ld lines, last %ld lines printed\n", n,
				   n - adjust);
		skip = adjust;
		lines = -lines;
	} else if (lines > 0) {
		skip = n - lines - adjust;
		if (adjust >= n) {
			kdb_printf(s, "buffer only contains %ld lines, nothing printed\n", n);
			skip = n;
		} else if (skip < 0) {
			lines += skip;
			skip = 0;
			kdb_printf(s, "buffer only contains %ld lines, first %ld lines printed\n", n,
				   lines);
		}
	} else {
		lines = n;
	}
	if (skip >= n || skip < 0)
		return 0;
	dmesg_walk(s, skip, MIN(skip + lines, n));
	return 0;
}

/**
 * kdb_cmd_lsmod - lsmod: Linux's layout (name, size, module address,
 * refcount, state, base, users).  ekdb's kernel has no loadable modules:
 * the rows are its built-in subsystems (mod_get).
 */
int kdb_cmd_lsmod(struct kdb_session *s, int argc, const char **argv)
{
	struct ekdb_module m;

	if (argc)
		return -KDB_ARGCOUNT;
	if (!kdb_host(s)->mod_get)
		return -KDB_NOTIMP;
	kdb_printf(s, "Module                  Size  modstruct     Used by\n");
	for (int i = 0; kdb_host(s)->mod_get(i, &m) == 0 && !kdb_interrupted(s); i++)
		kdb_printf(s, "%-20s%8llu  0x%016llx %4d  (%s) 0x%016llx [ ]\n", m.name,
			   (unsigned long long)m.size, (unsigned long long)m.addr, 0,
			   m.state[0] ? m.state : "Live", (unsigned long long)m.addr);
	return 0;
}

/**
 * kdb_cmd_kill - kill <-signal> <pid>: Linux's kdb_kill() and
 * kdb_send_sig(): a task that is not running gets the signal only when
 * the command is repeated for it (Linux's deadlock warning).
 */
int kdb_cmd_kill(struct kdb_session *s, int argc, const char **argv)
{
	struct ekdb_task t;
	long sig, pid;
	int r;

	if (argc != 2)
		return -KDB_ARGCOUNT;
	if (!word_long(argv[1], &sig))
		return -KDB_BADINT;
	if (sig >= 0 || -sig > 64) {
		kdb_printf(s, "Invalid signal parameter.<-signal>\n");
		return 0;
	}
	sig = -sig;
	if (!word_long(argv[2], &pid))
		return -KDB_BADINT;
	if (pid <= 0) {
		kdb_printf(s, "Process ID must be large than 0.\n");
		return 0;
	}
	if (!kdb_find_task_pid(s, (int)pid, &t)) {
		kdb_printf(s, "The specified process isn't found.\n");
		return 0;
	}
	if (!kdb_host(s)->task_signal)
		return -KDB_NOTIMP;
	if (t.state != 'R' && s->kill_prev != pid) {
		s->kill_prev = (int)pid;
		kdb_printf(s, "Process is not RUNNING, sending a signal from kdb risks deadlock\n"
			   "on the run queue locks. The signal has _not_ been sent.\n"
			   "Reissue the kill command if you want to risk the deadlock.\n");
		return 0;
	}
	s->kill_prev = (int)pid;
	r = kdb_host(s)->task_signal((int)pid, (int)sig);
	if (r)
		kdb_printf(s, "Fail to deliver Signal %ld to process %ld.\n", sig, pid);
	else
		kdb_printf(s, "Signal %ld is sent to process %ld.\n", sig, pid);
	return 0;
}
