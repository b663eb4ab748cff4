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

	if (kdb_interrupted(s))
		return 1;
	kdb_printf(s, "%-15.15s %-20s %s\n", c->name, c->usage ? c->usage : "", c->help ? c->help : "");
	return 0;
}

/** kdb_cmd_help - help/? [command]: the command table; grephelp: the `| grep` syntax. */
int kdb_cmd_help(struct kdb_session *s, int argc, const char **argv)
{
	if (!strcmp(argv[0], "grephelp")) {
		kdb_printf(s, "Filter a command's output: COMMAND | grep PATTERN\n"
			   "PATTERN is plain text found anywhere in a line, or anchored:\n"
			   "  ^text (line starts with it), text$ (line ends with it), ^text$\n"
			   "Quote a pattern that holds blanks: md 0x1000 | grep \"00 00\"\n");
		return 0;
	}
	if (argc > 1)
		return -KDB_TOOMANYARGS;
	kdb_printf(s, "Command         Usage                Description\n"
		   "----------------------------------------------------------\n");
	if (argc == 1) {
		const struct kdb_cmd *c = kdb_lookup(argv[1]);
		int d = kdb_defcmd_lookup(s, argv[1]);

		if (c)
			return help_row(c, s);
		if (d < 0) {
			kdb_printf(s, "Unknown kdb command: '%s'\n", argv[1]);
			return -KDB_NOTFOUND;
		}
		kdb_printf(s, "%-15.15s %-20s %s\n", s->defs[d].name, s->defs[d].usage, s->defs[d].help);
		return 0;
	}
	kdb_for_each_cmd(help_row, s);
	for (int i = 0; i < KDB_MAX_DEFCMD && !kdb_interrupted(s); i++)
		if (s->defs[i].used)
			kdb_printf(s, "%-15.15s %-20s %s\n", s->defs[i].name, s->defs[i].usage,
				   s->defs[i].help);
	return 0;
}

/** kdb_cmd_summary - summary: system name, release, uptime, CPUs, memory. */
int kdb_cmd_summary(struct kdb_session *s, int argc, const char **argv)
{
	struct ekdb_sysinfo si;
	u64 up;

	if (argc)
		return -KDB_TOOMANYARGS;
	memset(&si, 0, sizeof(si));
	if (!s->target->ops->sys_info || s->target->ops->sys_info(s->target, &si))
		strlcpy(si.sysname, "ekdb", sizeof(si.sysname));
	kdb_printf(s, "sysname    %s\n", si.sysname[0] ? si.sysname : "ekdb");
	kdb_printf(s, "release    %s\n", si.release[0] ? si.release : "(unknown)");
	kdb_printf(s, "version    %s\n", si.version[0] ? si.version : "(unknown)");
	kdb_printf(s, "machine    %s\n", si.machine[0] ? si.machine : "x86_64");
	kdb_printf(s, "nodename   (none)\ndomainname (none)\n");
	up = si.uptime_ms / 1000;
	if (up >= 86400)
		kdb_printf(s, "uptime     %llu day%s %02llu:%02llu\n", (unsigned long long)(up / 86400),
			   up / 86400 > 1 ? "s" : "", (unsigned long long)(up / 3600 % 24),
			   (unsigned long long)(up / 60 % 60));
	else
		kdb_printf(s, "uptime     %02llu:%02llu:%02llu\n", (unsigned long long)(up / 3600),
			   (unsigned long long)(up / 60 % 60), (unsigned long long)(up % 60));
	if (si.ncpus)
		kdb_printf(s, "ncpus      %u\n", si.ncpus);
	kdb_printf(s, "\n");
	if (si.have_mem) {
		kdb_printf(s, "MemTotal:       %8llu kB\n", (unsigned long long)si.mem_total_kb);
		kdb_printf(s, "MemFree:        %8llu kB\n", (unsigned long long)si.mem_free_kb);
	} else {
		kdb_printf(s, "MemTotal:       (no page allocator yet)\n");
	}
	return 0;
}

/* Count the log's lines; call @emit for lines [from, to) (NULL: count only). */
static long dmesg_walk(struct kdb_session *s, long from, long to)
{
	const struct ekdb_target_ops *o = s->target->ops;
	char buf[KDB_DMESG_CHUNK];
	long line = 0;
	bool open = false;
	u64 pos = 0;
	long n;

	while ((n = o->log_read(s->target, pos, buf, sizeof(buf))) > 0 && !kdb_interrupted(s)) {
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

/**
 * kdb_cmd_dmesg - dmesg [lines [adjust]]: the whole log; lines > 0: the
 * last lines (adjust: that many lines earlier); lines < 0: the first
 * -lines (adjust: skip that many first).
 */
int kdb_cmd_dmesg(struct kdb_session *s, int argc, const char **argv)
{
	long total, lines = 0, adjust = 0, from, to;
	u64 v;

	if (argc > 2)
		return -KDB_TOOMANYARGS;
	if (!s->target->ops->log_read)
		return -KDB_NOTAVAIL;
	if (argc >= 1) {
		bool neg = argv[1][0] == '-';

		if (kdb_getularg(argv[1] + neg, &v) || v > 0x7fffffff)
			return -KDB_BADINT;
		lines = neg ? -(long)v : (long)v;
	}
	if (argc == 2) {
		if (kdb_getularg(argv[2], &v) || v > 0x7fffffff)
			return -KDB_BADINT;
		adjust = (long)v;
	}
	total = dmesg_walk(s, 0, 0);
	if (lines > 0) {
		to = total - adjust;
		from = to - lines;
	} else if (lines < 0) {
		from = adjust;
		to = from - lines;
	} else {
		from = 0;
		to = total;
	}
	from = MAX(from, 0L);
	to = MIN(to, total);
	if (from < to)
		dmesg_walk(s, from, to);
	return 0;
}

/** kdb_cmd_lsmod - lsmod: the kernel's built-in subsystems (ekdb has no loadable modules). */
int kdb_cmd_lsmod(struct kdb_session *s, int argc, const char **argv)
{
	struct ekdb_module m;

	if (argc)
		return -KDB_TOOMANYARGS;
	if (!s->target->ops->mod_get)
		return -KDB_NOTAVAIL;
	kdb_printf(s, "Module                  Size  modstruct     Used by\n");
	for (int i = 0; s->target->ops->mod_get(s->target, i, &m) == 0 && !kdb_interrupted(s); i++)
		kdb_printf(s, "%-20s%8llu  0x%016llx  (%s)\n", m.name, (unsigned long long)m.size,
			   (unsigned long long)m.addr, m.state[0] ? m.state : "Live");
	return 0;
}
