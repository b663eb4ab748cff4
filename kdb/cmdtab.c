/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmdtab.c - the kdb command table: the static built-in table (there
 * from the first instruction of boot), commands that kernel subsystems
 * register later (kdb_register, fixed slots, no allocation), lookup
 * (exact name, Linux's mdWcN forms, then a prefix of at least minlen),
 * and the kdb.cmd_enable class check (the mask itself: cmd_enable.c).
 */
#include "kdb.h"

#define MEMR	(KDB_ENABLE_MEM_READ | KDB_REPEAT_NO_ARGS)
#define SAFE	KDB_ENABLE_ALWAYS_SAFE
#define FLOW	KDB_ENABLE_FLOW_CTRL
#define INSP	KDB_ENABLE_INSPECT

/* Linux 6.x's table (kdb_main.c maintab, then kdb_bp.c bptab and bph), in its order. */
static const struct kdb_cmd builtin_cmds[] = {
	{ "md", kdb_cmd_md, "<vaddr>", "Display Memory Contents, also mdWcN, e.g. md8c1", 1, MEMR },
	{ "mdr", kdb_cmd_md, "<vaddr> <bytes>", "Display Raw Memory", 0, MEMR },
	{ "mdp", kdb_cmd_md, "<paddr> <bytes>", "Display Physical Memory", 0, MEMR },
	{ "mds", kdb_cmd_md, "<vaddr>", "Display Memory Symbolically", 0, MEMR },
	{ "mm", kdb_cmd_mm, "<vaddr> <contents>", "Modify Memory Contents", 0,
	  KDB_ENABLE_MEM_WRITE | KDB_REPEAT_NO_ARGS },
	{ "go", kdb_cmd_go, "[<vaddr>]", "Continue Execution", 1,
	  KDB_ENABLE_REG_WRITE | KDB_ENABLE_NO_ARGS(SAFE) },
	{ "rd", kdb_cmd_rd, "", "Display Registers", 0, KDB_ENABLE_REG_READ },
	{ "rm", kdb_cmd_rm, "<reg> <contents>", "Modify Registers", 0, KDB_ENABLE_REG_WRITE },
	{ "ef", kdb_cmd_ef, "<vaddr>", "Display exception frame", 0, KDB_ENABLE_MEM_READ },
	{ "bt", kdb_cmd_bt, "[<vaddr>]", "Stack traceback", 1,
	  KDB_ENABLE_MEM_READ | KDB_ENABLE_NO_ARGS(INSP) },
	{ "btp", kdb_cmd_bt, "<pid>", "Display stack for process <pid>", 0, INSP },
	{ "bta", kdb_cmd_bt, "[<state_chars>|A]", "Backtrace all processes whose state matches", 0, INSP },
	{ "btc", kdb_cmd_bt, "", "Backtrace current process on each cpu", 0, INSP },
	{ "btt", kdb_cmd_bt, "<vaddr>", "Backtrace process given its struct task address", 0,
	  KDB_ENABLE_MEM_READ | KDB_ENABLE_NO_ARGS(INSP) },
	{ "env", kdb_cmd_env, "", "Show environment variables", 0, SAFE },
	{ "set", kdb_cmd_set, "", "Set environment variables", 0, SAFE },
	{ "help", kdb_cmd_help, "", "Display Help Message", 1, SAFE },
	{ "?", kdb_cmd_help, "", "Display Help Message", 0, SAFE },
	{ "cpu", kdb_cmd_cpu, "<cpunum>", "Switch to new cpu", 0, KDB_ENABLE_NO_ARGS(SAFE) },
	{ "kgdb", kdb_cmd_kgdb, "", "Enter kgdb mode", 0, 0 },
	{ "ps", kdb_cmd_ps, "[<state_chars>|A]", "Display active task list", 0, INSP },
	{ "pid", kdb_cmd_pid, "<pidnum>", "Switch to another task", 0, INSP },
	{ "reboot", kdb_cmd_reboot, "", "Reboot the machine immediately", 0, KDB_ENABLE_REBOOT },
	{ "lsmod", kdb_cmd_lsmod, "", "List loaded kernel modules", 0, INSP },
	{ "sr", kdb_cmd_sr, "<key>", "Magic SysRq key", 0, SAFE },
	{ "dmesg", kdb_cmd_dmesg, "[lines]", "Display syslog buffer", 0, SAFE },
	{ "defcmd", kdb_cmd_defcmd, "name \"usage\" \"help\"", "Define a set of commands, down to endefcmd", 0, SAFE },
	{ "kill", kdb_cmd_kill, "<-signal> <pid>", "Send a signal to a process", 0, KDB_ENABLE_SIGNAL },
	{ "summary", kdb_cmd_summary, "", "Summarize the system", 4, SAFE },
	{ "per_cpu", kdb_cmd_per_cpu, "<sym> [<bytes>] [<cpu>]", "Display per_cpu variables", 3,
	  KDB_ENABLE_MEM_READ },
	{ "grephelp", kdb_cmd_help, "", "Display help on | grep", 0, SAFE },
	{ "bp", kdb_cmd_bp, "[<vaddr>]", "Set/Display breakpoints", 0, FLOW | KDB_REPEAT_NO_ARGS },
	{ "bl", kdb_cmd_bp, "[<vaddr>]", "Display breakpoints", 0, FLOW | KDB_REPEAT_NO_ARGS },
	{ "bc", kdb_cmd_bc, "<bpnum>", "Clear Breakpoint", 0, FLOW },
	{ "be", kdb_cmd_bc, "<bpnum>", "Enable Breakpoint", 0, FLOW },
	{ "bd", kdb_cmd_bc, "<bpnum>", "Disable Breakpoint", 0, FLOW },
	{ "ss", kdb_cmd_ss, "", "Single Step", 1, FLOW | KDB_REPEAT_NO_ARGS },
	{ "bph", kdb_cmd_bp, "[<vaddr>]", "[datar [length]|dataw [length]]   Set hw brk", 0,
	  FLOW | KDB_REPEAT_NO_ARGS },
	/* ekdb: Linux 2.6.34's ssb, gone from 6.x */
	{ "ssb", kdb_cmd_ss, "", "Single step to branch/call", 0, FLOW | KDB_REPEAT_NO_ARGS },
};

static const struct kdb_cmd *late_cmds[KDB_MAX_LATE_CMDS];

static const struct kdb_cmd *find_exact(const char *name)
{
	for (unsigned i = 0; i < ARRAY_SIZE(builtin_cmds); i++)
		if (!strcmp(builtin_cmds[i].name, name))
			return &builtin_cmds[i];
	for (unsigned i = 0; i < KDB_MAX_LATE_CMDS; i++)
		if (late_cmds[i] && !strcmp(late_cmds[i]->name, name))
			return late_cmds[i];
	return NULL;
}

int kdb_register(const struct kdb_cmd *cmd)
{
	if (!cmd || !cmd->name || !cmd->name[0] || !cmd->fn)
		return -EKDB_EINVAL;
	if (find_exact(cmd->name))
		return -EKDB_EEXIST;
	for (unsigned i = 0; i < KDB_MAX_LATE_CMDS; i++)
		if (!late_cmds[i]) {
			late_cmds[i] = cmd;
			return 0;
		}
	return -EKDB_ENOSPC;
}

int kdb_unregister(const char *name)
{
	for (unsigned i = 0; i < KDB_MAX_LATE_CMDS; i++)
		if (late_cmds[i] && !strcmp(late_cmds[i]->name, name)) {
			late_cmds[i] = NULL;
			return 0;
		}
	return -EKDB_ENOENT;
}

/**
 * kdb_lookup - the command @name as Linux's kdb_parse() finds it: in
 * table order, a command whose name equals @name or, for commands with a
 * minlen, whose first minlen characters @name is (at most minlen long:
 * "b" is bt, "m" md, "sum" nothing, "summ" summary); failing that, the
 * first command whose name starts @name ("md4c2" is md, "mm4" mm).  The
 * command itself rejects a form it does not know.  NULL when unknown
 * (defcmd macros are looked up apart, after these).
 */
const struct kdb_cmd *kdb_lookup(const char *name)
{
	size_t n = strlen(name);
	const struct kdb_cmd *c;

	for (unsigned i = 0; i < ARRAY_SIZE(builtin_cmds) + KDB_MAX_LATE_CMDS; i++) {
		c = i < ARRAY_SIZE(builtin_cmds) ? &builtin_cmds[i] : late_cmds[i - ARRAY_SIZE(builtin_cmds)];
		if (!c)
			continue;
		if (c->minlen && n <= (size_t)c->minlen && !strncmp(name, c->name, (size_t)c->minlen))
			return c;
		if (!strcmp(name, c->name))
			return c;
	}
	for (unsigned i = 0; i < ARRAY_SIZE(builtin_cmds) + KDB_MAX_LATE_CMDS; i++) {
		c = i < ARRAY_SIZE(builtin_cmds) ? &builtin_cmds[i] : late_cmds[i - ARRAY_SIZE(builtin_cmds)];
		if (c && !strncmp(name, c->name, strlen(c->name)))
			return c;
	}
	return NULL;
}

/**
 * kdb_cmd_allowed - may a command with @flags run under kdb.cmd_enable
 * @mask?  Linux's rule: the user's class bits plus ALWAYS_SAFE (shifted
 * into the NO_ARGS half too when there are no arguments) must meet the
 * command's flags; KDB_ENABLE_ALL in the mask meets every command.
 */
bool kdb_cmd_allowed(u32 mask, u32 flags, bool no_args)
{
	u32 perm = (mask & KDB_ENABLE_MASK) | KDB_ENABLE_ALWAYS_SAFE;

	if (no_args)
		perm |= perm << KDB_ENABLE_NO_ARGS_SHIFT;
	flags |= KDB_ENABLE_ALL;
	return (perm & flags) != 0;
}

int kdb_for_each_cmd(int (*fn)(const struct kdb_cmd *c, void *arg), void *arg)
{
	int r;

	for (unsigned i = 0; i < ARRAY_SIZE(builtin_cmds); i++)
		if ((r = fn(&builtin_cmds[i], arg)) != 0)
			return r;
	for (unsigned i = 0; i < KDB_MAX_LATE_CMDS; i++)
		if (late_cmds[i] && (r = fn(late_cmds[i], arg)) != 0)
			return r;
	return 0;
}
