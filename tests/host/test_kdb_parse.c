/* SPDX-License-Identifier: GPL-2.0 */
/* test_kdb_parse.c - kdb pure logic: words, numbers, expressions, lookup, cmd_enable, grep, env, history, ssb decoder. */
#include "kdb_test_util.h"
#include "../../kdb/kdb.h"

static void test_tokenize(void **state)
{
	char l1[] = "  md  0x1000   8 ", l2[] = "defcmd x \"a b\" \"say \\\"hi\\\"\"", l3[] = "a \"open";
	char l4[] = "1 2 3 4 5";
	const char *av[KDB_MAXARGS];

	assert_int_equal(kdb_tokenize(l1, av, KDB_MAXARGS), 3);
	assert_string_equal(av[0], "md");
	assert_string_equal(av[2], "8");
	assert_int_equal(kdb_tokenize(l2, av, KDB_MAXARGS), 4);
	assert_string_equal(av[2], "a b");
	assert_string_equal(av[3], "say \"hi\"");
	assert_int_equal(kdb_tokenize(l3, av, KDB_MAXARGS), -KDB_BADARG);
	assert_int_equal(kdb_tokenize(l4, av, 4), -KDB_TOOMANYARGS);
}

static void test_getularg(void **state)
{
	u64 v;

	assert_int_equal(kdb_getularg("0x10", &v), 0);
	assert_int_equal(v, 16);
	assert_int_equal(kdb_getularg("1000", &v), 0);
	assert_int_equal(v, 1000);
	assert_int_equal(kdb_getularg("ffff", &v), 0);
	assert_int_equal(v, 0xffff);
	assert_int_equal(kdb_getularg("zz", &v), -KDB_BADINT);
	assert_int_equal(kdb_getularg("", &v), -KDB_BADINT);
	assert_int_equal(kdb_getularg("0x", &v), -KDB_BADINT);
}

static int expr(const char *line, u64 *v, int *next)
{
	static char buf[256];
	const char *av[KDB_MAXARGS];
	int argc;

	strcpy(buf, line);
	argc = kdb_tokenize(buf, av, KDB_MAXARGS);
	*next = 1;
	return kdb_getaddrarg(&F.s, argc - 1, av, next, v);
}

static void test_expressions(void **state)
{
	u64 v;
	int next;

	assert_int_equal(expr("x setup_arch", &v, &next), 0);
	assert_int_equal(v, SIM_SYM_SETUP_ARCH);
	assert_int_equal(expr("x setup_arch+0x10", &v, &next), 0);
	assert_int_equal(v, SIM_SYM_SETUP_ARCH + 0x10);
	assert_int_equal(expr("x setup_arch + 0x10 - 8", &v, &next), 0);
	assert_int_equal(v, SIM_SYM_SETUP_ARCH + 8);
	assert_int_equal(next, 6);
	assert_int_equal(expr("x setup_arch -0x100 8", &v, &next), 0);
	assert_int_equal(v, SIM_SYM_START_KERNEL);
	assert_int_equal(next, 3);	/* "8" is the next argument */
	assert_int_equal(expr("x 4096", &v, &next), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(expr("x %rip", &v, &next), 0);
	assert_int_equal(v, SIM_TEXT_BASE + 0x10);
	assert_int_equal(expr("x %ip+1", &v, &next), 0);
	assert_int_equal(v, SIM_TEXT_BASE + 0x11);
	assert_int_equal(expr("x %rsp", &v, &next), 0);
	assert_int_equal(v, SIM_FRAME_BASE - 0x18);
	kdb_setenv(&F.s, "BASE", "0x1000");
	assert_int_equal(expr("x $BASE+0x20", &v, &next), 0);
	assert_int_equal(v, 0x1020);
	/* errors */
	assert_int_equal(expr("x nosuchsym", &v, &next), -KDB_NOSYM);
	assert_int_equal(expr("x 0xzz", &v, &next), -KDB_BADINT);
	assert_int_equal(expr("x %bogus", &v, &next), -KDB_BADREG);
	assert_int_equal(expr("x $NOPE", &v, &next), -KDB_NOTENV);
	assert_int_equal(expr("x setup_arch+", &v, &next), -KDB_INVADDRFMT);
	assert_int_equal(expr("x setup_arch +", &v, &next), -KDB_INVADDRFMT);
	assert_int_equal(expr("x", &v, &next), -KDB_ARGCOUNT);
}

static void test_lookup(void **state)
{
	assert_string_equal(kdb_lookup("md")->name, "md");
	assert_string_equal(kdb_lookup("md8c4")->name, "md");
	assert_string_equal(kdb_lookup("md1")->name, "md");
	/* Linux's kdb_parse(): a name that starts with a command is that command */
	assert_string_equal(kdb_lookup("md3")->name, "md");
	assert_string_equal(kdb_lookup("mm4")->name, "mm");
	assert_string_equal(kdb_lookup("btx")->name, "bt");
	assert_string_equal(kdb_lookup("setup_arch")->name, "set");
	/* minlen abbreviations, at most minlen long */
	assert_string_equal(kdb_lookup("h")->name, "help");
	assert_string_equal(kdb_lookup("b")->name, "bt");
	assert_string_equal(kdb_lookup("g")->name, "go");
	assert_string_equal(kdb_lookup("s")->name, "ss");
	assert_string_equal(kdb_lookup("summ")->name, "summary");
	assert_string_equal(kdb_lookup("per")->name, "per_cpu");
	assert_null(kdb_lookup("sum"));
	assert_null(kdb_lookup("pe"));
	assert_string_equal(kdb_lookup("?")->name, "?");
	assert_null(kdb_lookup("frobnicate"));
}

static int late_fn(struct kdb_session *s, int argc, const char **argv)
{
	kdb_printf(s, "late %d\n", argc);
	return 0;
}

static void test_register(void **state)
{
	static const struct kdb_cmd late = { "meminfo_t", late_fn, "", "test", 0, KDB_ENABLE_INSPECT };
	static const struct kdb_cmd dup = { "md", late_fn, "", "", 0, 0 };
	static const struct kdb_cmd bad = { "", late_fn, "", "", 0, 0 };

	assert_int_equal(kdb_register(&late), 0);
	assert_int_equal(kdb_register(&late), -EKDB_EEXIST);
	assert_int_equal(kdb_register(&dup), -EKDB_EEXIST);
	assert_int_equal(kdb_register(&bad), -EKDB_EINVAL);
	assert_ptr_equal(kdb_lookup("meminfo_t"), &late);
	assert_int_equal(kdb_unregister("meminfo_t"), 0);
	assert_int_equal(kdb_unregister("meminfo_t"), -EKDB_ENOENT);
	assert_null(kdb_lookup("meminfo_t"));
}

static void test_cmd_enable(void **state)
{
	u32 m;

	/* ALL: everything */
	assert_true(kdb_cmd_allowed(KDB_ENABLE_ALL, KDB_ENABLE_REBOOT, false));
	/* 0: only always-safe commands, and go without arguments */
	assert_false(kdb_cmd_allowed(0, KDB_ENABLE_MEM_READ, false));
	assert_true(kdb_cmd_allowed(0, KDB_ENABLE_ALWAYS_SAFE, false));
	assert_true(kdb_cmd_allowed(0, KDB_ENABLE_REG_WRITE | KDB_ENABLE_NO_ARGS(KDB_ENABLE_ALWAYS_SAFE), true));
	assert_false(kdb_cmd_allowed(0, KDB_ENABLE_REG_WRITE | KDB_ENABLE_NO_ARGS(KDB_ENABLE_ALWAYS_SAFE), false));
	/* read-only inspection */
	m = KDB_ENABLE_MEM_READ | KDB_ENABLE_REG_READ | KDB_ENABLE_INSPECT;
	assert_true(kdb_cmd_allowed(m, KDB_ENABLE_MEM_READ | KDB_REPEAT_NO_ARGS, false));
	assert_false(kdb_cmd_allowed(m, KDB_ENABLE_MEM_WRITE, false));
	assert_false(kdb_cmd_allowed(m, KDB_ENABLE_FLOW_CTRL, false));
	assert_int_equal(kdb_parse_cmd_enable("0x1ff", &m), 0);
	assert_int_equal(m, 0x1ff);
	assert_int_equal(kdb_parse_cmd_enable("41", &m), 0);
	assert_int_equal(m, 41);
	assert_int_equal(kdb_parse_cmd_enable("x", &m), -EKDB_EINVAL);
	assert_int_equal(kdb_parse_cmd_enable(NULL, &m), -EKDB_EINVAL);
}

/* The run-time value (/sys/module/kdb/parameters/cmd_enable): kstrtoint(val, 0). */
static void test_cmd_enable_int(void **state)
{
	int v = 7;

	(void)state;
	assert_int_equal(kdb_parse_cmd_enable_int("0x28\n", &v), 0);
	assert_int_equal(v, 0x28);
	assert_int_equal(kdb_parse_cmd_enable_int("010", &v), 0);	/* octal, as Linux */
	assert_int_equal(v, 8);
	assert_int_equal(kdb_parse_cmd_enable_int("-1", &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(kdb_parse_cmd_enable_int("+5", &v), 0);
	assert_int_equal(v, 5);
	assert_int_equal(kdb_parse_cmd_enable_int("-2147483648", &v), 0);
	assert_int_equal(v, (int)0x80000000u);
	v = 7;
	assert_int_equal(kdb_parse_cmd_enable_int("2147483648", &v), -EKDB_ERANGE);
	assert_int_equal(kdb_parse_cmd_enable_int("0xffffffff", &v), -EKDB_ERANGE);
	assert_int_equal(kdb_parse_cmd_enable_int("99999999999999999999999", &v), -EKDB_ERANGE);
	assert_int_equal(kdb_parse_cmd_enable_int("", &v), -EKDB_EINVAL);
	assert_int_equal(kdb_parse_cmd_enable_int("\n", &v), -EKDB_EINVAL);
	assert_int_equal(kdb_parse_cmd_enable_int("08", &v), -EKDB_EINVAL);
	assert_int_equal(kdb_parse_cmd_enable_int("0x", &v), -EKDB_EINVAL);
	assert_int_equal(kdb_parse_cmd_enable_int("1 2", &v), -EKDB_EINVAL);
	assert_int_equal(kdb_parse_cmd_enable_int("1\n\n", &v), -EKDB_EINVAL);
	assert_int_equal(kdb_parse_cmd_enable_int("-+1", &v), -EKDB_EINVAL);
	assert_int_equal(kdb_parse_cmd_enable_int(NULL, &v), -EKDB_EINVAL);
	assert_int_equal(v, 7);		/* nothing written on error */
}

static void test_grep_match(void **state)
{
	struct kdb_session *s = &F.s;

	assert_true(kdb_grep_set(s, "arch"));
	assert_true(kdb_grep_match(s, "setup_arch+0x10"));
	assert_false(kdb_grep_match(s, "start_kernel"));
	assert_true(kdb_grep_set(s, "^setup"));
	assert_true(kdb_grep_match(s, "setup_arch"));
	assert_false(kdb_grep_match(s, "x setup_arch"));
	assert_true(kdb_grep_set(s, "arch$"));
	assert_true(kdb_grep_match(s, "setup_arch"));
	assert_false(kdb_grep_match(s, "setup_arch+1"));
	assert_true(kdb_grep_set(s, "^ab$"));
	assert_true(kdb_grep_match(s, "ab"));
	assert_false(kdb_grep_match(s, "abc"));
	s->grep_on = false;
	assert_true(kdb_grep_match(s, "anything"));
}

static void test_env(void **state)
{
	struct kdb_session *s = &F.s;
	char name[16];

	assert_string_equal(kdb_getenv(s, "PROMPT"), "[%d]kdb> ");
	assert_null(kdb_getenv(s, "LINES"));	/* not in Linux's defaults: the pager's 24 */
	assert_int_equal(kdb_getenv_int(s, "LINES", 24), 24);
	assert_int_equal(kdb_setenv(s, "LINES", "50"), 0);
	assert_int_equal(kdb_getenv_int(s, "LINES", 0), 50);
	assert_null(kdb_getenv(s, "LINE"));
	assert_int_equal(kdb_setenv(s, "X", "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"), -KDB_ENVBUFFULL);
	for (int i = 0; i < KDB_ENV_SLOTS; i++) {
		snprintf(name, sizeof(name), "V%d", i);
		if (kdb_setenv(s, name, "1") == -KDB_ENVFULL)
			return;
	}
	fail_msg("environment never filled up");
}

static void test_history(void **state)
{
	static char big[KDB_HISTORY][KDB_LINE_MAX];
	struct kdb_session *s = &F.s;
	char l[24];

	assert_null(kdb_hist_get(s, 0));
	kdb_hist_add(s, "md 0x1000");
	kdb_hist_add(s, "md 0x1000");	/* repeat: one entry */
	kdb_hist_add(s, "   ");		/* blank: none */
	kdb_hist_add(s, "rd");
	assert_string_equal(kdb_hist_get(s, 0), "rd");
	assert_string_equal(kdb_hist_get(s, 1), "md 0x1000");
	assert_null(kdb_hist_get(s, 2));
	/* the early ring: the last KDB_HISTORY_EARLY lines */
	for (int i = 0; i < 12; i++) {
		snprintf(l, sizeof(l), "early%d", i);
		kdb_hist_add(s, l);
	}
	assert_string_equal(kdb_hist_get(s, 0), "early11");
	assert_string_equal(kdb_hist_get(s, KDB_HISTORY_EARLY - 1), "early4");
	assert_null(kdb_hist_get(s, KDB_HISTORY_EARLY));
	/* bad rings are refused and lose nothing */
	assert_int_equal(kdb_session_set_history(s, NULL, KDB_HISTORY), -EKDB_EINVAL);
	assert_int_equal(kdb_session_set_history(s, big, KDB_HISTORY_EARLY - 1), -EKDB_EINVAL);
	assert_string_equal(kdb_hist_get(s, KDB_HISTORY_EARLY - 1), "early4");
	/* the handoff's larger ring keeps every line, in order */
	assert_int_equal(kdb_session_set_history(s, big, KDB_HISTORY), 0);
	assert_string_equal(kdb_hist_get(s, 0), "early11");
	assert_string_equal(kdb_hist_get(s, KDB_HISTORY_EARLY - 1), "early4");
	assert_null(kdb_hist_get(s, KDB_HISTORY_EARLY));
	for (int i = 0; i < 40; i++) {
		snprintf(l, sizeof(l), "cmd%d", i);
		kdb_hist_add(s, l);
	}
	assert_string_equal(kdb_hist_get(s, 0), "cmd39");
	assert_string_equal(kdb_hist_get(s, KDB_HISTORY - 1), "cmd8");
	assert_null(kdb_hist_get(s, KDB_HISTORY));
}

static void test_branch_decoder(void **state)
{
	static const u8 jmp[] = { 0xe9, 0, 0, 0, 0 }, call[] = { 0xe8, 0, 0, 0, 0 },
		ret[] = { 0xc3 }, jcc[] = { 0x0f, 0x84, 0, 0, 0, 0 }, jshort[] = { 0x75, 2 },
		callind[] = { 0x41, 0xff, 0xd3 }, jmpind[] = { 0xff, 0xe0 }, nop[] = { 0x90 },
		mov[] = { 0x48, 0x89, 0xe5 }, incmem[] = { 0xff, 0xc0 }, repret[] = { 0xf3, 0xc3 },
		syscall[] = { 0x0f, 0x05 };

	assert_true(arch_dbg_insn_is_branch(jmp, sizeof(jmp)));
	assert_true(arch_dbg_insn_is_branch(call, sizeof(call)));
	assert_true(arch_dbg_insn_is_branch(ret, sizeof(ret)));
	assert_true(arch_dbg_insn_is_branch(jcc, sizeof(jcc)));
	assert_true(arch_dbg_insn_is_branch(jshort, sizeof(jshort)));
	assert_true(arch_dbg_insn_is_branch(callind, sizeof(callind)));
	assert_true(arch_dbg_insn_is_branch(jmpind, sizeof(jmpind)));
	assert_true(arch_dbg_insn_is_branch(repret, sizeof(repret)));
	assert_true(arch_dbg_insn_is_branch(syscall, sizeof(syscall)));
	assert_false(arch_dbg_insn_is_branch(nop, sizeof(nop)));
	assert_false(arch_dbg_insn_is_branch(mov, sizeof(mov)));
	assert_false(arch_dbg_insn_is_branch(incmem, sizeof(incmem)));
	assert_false(arch_dbg_insn_is_branch(jcc, 1));
	assert_false(arch_dbg_insn_is_branch(NULL, 0));
}

static void test_diag(void **state)
{
	/* Linux's numbers (include/linux/kdb.h) and words (kdb_main.c kdbmsgs[]) */
	static const char *const linux_msgs[] = {
		NULL, "Command Not Found", "Improper argument count, see usage.",
		"Illegal value for BYTESPERWORD use 1, 2, 4 or 8, 8 is only allowed on 64 bit systems",
		"Illegal value for RADIX use 8, 10 or 16", "Cannot find environment variable",
		"Environment variable should have value", "Command not implemented",
		"Environment full", "Environment buffer full", "Too many breakpoints defined",
		"More breakpoints than db registers defined", "Duplicate breakpoint address",
		"Breakpoint not found", "Invalid IDMODE", "Illegal numeric value",
		"Invalid symbolic address format", "Invalid register name", "Invalid cpu number",
		"Invalid length field", "No Breakpoint exists", "Invalid address", "Permission denied",
	};

	assert_int_equal(KDB_DIAG_MAX, 23);
	for (int i = 1; i < KDB_DIAG_MAX; i++)
		assert_string_equal(kdb_diag_msg(-i), linux_msgs[i]);
	assert_int_equal(KDB_NOTFOUND, 1);
	assert_int_equal(KDB_BADINT, 15);
	assert_int_equal(KDB_BADADDR, 21);
	assert_int_equal(KDB_NOPERM, 22);
	assert_string_equal(kdb_diag_msg(-999), "Unknown diag");
	assert_string_equal(kdb_diag_msg(-23), "Unknown diag");
	assert_int_equal(kdb_err_to_diag(-EKDB_EFAULT), -KDB_BADADDR);
	assert_int_equal(kdb_err_to_diag(-EKDB_ENOSPC), -KDB_TOOMANYDBREGS);
}

static void test_init_rejects(void **state)
{
	static struct kdb_session s;
	struct ekdb_chan bad = { 0 };

	assert_int_equal(kdb_session_init(&s, NULL, &F.ch.chan), -EKDB_EINVAL);
	assert_int_equal(kdb_session_init(&s, &F.sim.t, &bad), -EKDB_EINVAL);
	assert_int_equal(kdb_session_init(NULL, &F.sim.t, &F.ch.chan), -EKDB_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmd_enable_int),
		cmocka_unit_test_setup(test_tokenize, kdb_fix_setup),
		cmocka_unit_test_setup(test_getularg, kdb_fix_setup),
		cmocka_unit_test_setup(test_expressions, kdb_fix_setup),
		cmocka_unit_test_setup(test_lookup, kdb_fix_setup),
		cmocka_unit_test_setup(test_register, kdb_fix_setup),
		cmocka_unit_test_setup(test_cmd_enable, kdb_fix_setup),
		cmocka_unit_test_setup(test_grep_match, kdb_fix_setup),
		cmocka_unit_test_setup(test_env, kdb_fix_setup),
		cmocka_unit_test_setup(test_history, kdb_fix_setup),
		cmocka_unit_test_setup(test_branch_decoder, kdb_fix_setup),
		cmocka_unit_test_setup(test_diag, kdb_fix_setup),
		cmocka_unit_test_setup(test_init_rejects, kdb_fix_setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
