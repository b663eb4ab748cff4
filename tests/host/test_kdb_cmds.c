/* SPDX-License-Identifier: GPL-2.0 */
/* test_kdb_cmds.c - every kdb command against the sim target, with bad addresses and wrong argument counts. */
#include "kdb_test_util.h"
#include "../../kdb/kdb.h"

static void test_md(void **state)
{
	const char *o = kdb_cmd("md 0x1000");

	assert_has(o, "0x0000000000001000 0706050403020100 0f0e0d0c0b0a0908  ................\n");
	assert_has(o, "0x0000000000001070 ");
	assert_hasnt(o, "0x0000000000001080");
	/* Enter continues the dump */
	o = kdb_run("\n");
	assert_has(o, "0x0000000000001080 ");
	o = kdb_cmd("md4c4 0x1010");
	assert_has(o, "0x0000000000001010 13121110 17161514 1b1a1918 1f1e1d1c  ................\n");
	assert_hasnt(o, "0x0000000000001020");
	o = kdb_cmd("md1c2 0x1041");
	assert_has(o, "0x0000000000001041 41 42 ");
	o = kdb_cmd("md 0x1000 1 10");
	assert_has(o, "0x0000000000001000   506097522914230528  1084818905618843912");
	o = kdb_cmd("md jiffies 1");
	assert_has(o, "0x0000000000001100 ");
}

static void test_md_errors(void **state)
{
	assert_has(kdb_cmd("md"), "diag: -2: Improper argument count");
	assert_has(kdb_cmd("md 0x3000"), "kdb_getarea: Bad address 0x3000");
	/* a line running into the hole */
	assert_has(kdb_cmd("md 0x2ff8 2"), "kdb_getarea: Bad address 0x3000");
	assert_has(kdb_cmd("md nosuchsym"), "Symbol not found");
	assert_has(kdb_cmd("md 0x1000 0xzz"), "Illegal numeric value");
	assert_has(kdb_cmd("md 0x1000 1 7"), "Illegal value for RADIX");
	assert_has(kdb_cmd("md 0x1000 1 16 9"), "Too many arguments");
	assert_has(kdb_cmd("md 0x1000 0"), "Invalid length field");
	assert_has(kdb_cmd("mdr 0x1000"), "Improper argument count");
	assert_has(kdb_cmd("mdr 0x3000 4"), "Bad address 0x3000");
}

static void test_mdr_mds_mdp(void **state)
{
	const char *o = kdb_cmd("mdr 0x1004 6");

	assert_has(o, "040506070809\n");
	memcpy(sim_target_mem(&F.sim, 0x1200), &(u64){ SIM_SYM_SETUP_ARCH + 0x10 }, 8);
	o = kdb_cmd("mds 0x1200 2");
	assert_has(o, "0x0000000000001200 ffffffff81000110 setup_arch+0x10/0x200\n");
	assert_has(o, "0x0000000000001208 ");
	o = kdb_cmd("mdp 0x1000 16");
	assert_has(o, "0x0000000000001000 0706050403020100 0f0e0d0c0b0a0908");
	assert_has(kdb_cmd("mdp 0x10000 16"), "Bad address 0x10000");
	assert_has(kdb_cmd("mdp 0x1000"), "Improper argument count");
	F.sim.ops.phys_read = NULL;
	assert_has(kdb_cmd("mdp 0x1000 16"), "Bad address");
}

static void test_mm(void **state)
{
	const char *o = kdb_cmd("mm 0x10000 0x1122334455667788");

	assert_has(o, "0x10000 = 0x1122334455667788\n");
	assert_int_equal(sim_target_mem(&F.sim, 0x10000)[0], 0x88);
	kdb_cmd("set BYTESPERWORD 2");
	assert_has(kdb_cmd("mm 0x10010 0xabcdef"), "0x10010 = 0xcdef\n");
	assert_has(kdb_cmd("mm 0x3000 1"), "kdb_putarea: Bad address 0x3000");
	assert_has(kdb_cmd("mm 0x10000"), "Improper argument count");
	assert_has(kdb_cmd("mm 0x10000 1 2"), "Improper argument count");
	assert_has(kdb_cmd("mm 0x10000 0xzz"), "Illegal numeric value");
}

static void test_rd_rm(void **state)
{
	const char *o = kdb_cmd("rd");

	assert_has(o, "rax: 1111111111111111");
	assert_has(o, "rip: ffffffff81000010");
	assert_has(o, "eflags: 00000246");
	assert_hasnt(o, "xmm0");
	for (const char *l = o; *l; ) {
		const char *nl = strchr(l, '\n');

		assert_true(nl - l <= 80);
		l = nl + 1;
	}
	assert_has(kdb_cmd("rd 1"), "Too many arguments");
	assert_string_equal(kdb_cmd("rm %rax 0x42"), "");
	assert_int_equal(F.sim.regs[0].rax, 0x42);
	kdb_cmd("rm ip setup_arch");
	assert_int_equal(F.sim.regs[0].rip, SIM_SYM_SETUP_ARCH);
	assert_has(kdb_cmd("rm %bogus 1"), "Invalid register name");
	assert_has(kdb_cmd("rm %rax"), "Improper argument count");
	assert_has(kdb_cmd("rm %rax 0xzz"), "Illegal numeric value");
}

static void test_ef(void **state)
{
	u64 frame[21] = { 0 };
	const char *o;

	frame[10] = 0xaaaa;			/* rax */
	frame[17] = SIM_SYM_MM_INIT + 4;	/* rip */
	frame[18] = 0x10;			/* cs */
	frame[19] = 0x246;			/* rflags */
	memcpy(sim_target_mem(&F.sim, 0x10100), frame, sizeof(frame));
	o = kdb_cmd("ef 0x10100");
	assert_has(o, "RIP: 0010:0xffffffff81000404 (mm_init+0x4)");
	assert_has(o, "RAX: 000000000000aaaa");
	assert_has(o, "EFLAGS: 00000246");
	assert_has(kdb_cmd("ef 0x2ff0"), "Bad address");
	assert_has(kdb_cmd("ef"), "Improper argument count");
}

static void test_bp(void **state)
{
	const char *o = kdb_cmd("bp setup_arch");

	assert_has(o, "Instruction(i) BP #0 at 0xffffffff81000100 (setup_arch)\n"
		      "    is enabled   addr at ffffffff81000100, hardtype=0 installed=0 (kdb)\n");
	assert_int_equal(sim_target_bp_count(&F.sim, EKDB_BP_SW), 1);
	/* gdb plants one too: bl shows both */
	F.sim.ops.bp_set(&F.sim.t, EKDB_BP_SW, SIM_SYM_MM_INIT, 1);
	o = kdb_cmd("bl");
	assert_has(o, "BP #0 at 0xffffffff81000100 (setup_arch)");
	assert_has(o, "BP #1 at 0xffffffff81000400 (mm_init)");
	assert_has(o, "(gdb)");
	o = kdb_cmd("bph jiffies dataw 8");
	assert_has(o, "Data Write BP #16 at 0x0000000000001100 (jiffies)");
	assert_has(o, "len=8");
	assert_has(kdb_cmd("bph mm_init"), "Instruction(Register) BP #17");
	assert_has(kdb_cmd("bd 0"), "Breakpoint 0 at 0xffffffff81000100 disabled");
	assert_has(kdb_cmd("bl"), "is disabled");
	assert_has(kdb_cmd("be 0"), "enabled");
	assert_has(kdb_cmd("bc mm_init"), "Breakpoint 1 at 0xffffffff81000400 cleared");
	assert_int_equal(sim_target_bp_count(&F.sim, EKDB_BP_SW), 1);
	assert_has(kdb_cmd("bc *"), "cleared");
	assert_has(kdb_cmd("bl"), "No breakpoints are set");
}

static void test_bp_errors(void **state)
{
	assert_has(kdb_cmd("bp 0x3000"), "Bad address");
	assert_has(kdb_cmd("bp kgdb_breakpoint"), "Permission denied");
	assert_has(kdb_cmd("bp kgdb_breakpoint"), "kgdb_breakpoint: the debugger cannot stop there");
	assert_has(kdb_cmd("bp nosuch"), "Symbol not found");
	assert_has(kdb_cmd("bp 0x1000 0x2000"), "Too many arguments");
	assert_has(kdb_cmd("bph 0x1001 dataw 4"), "Invalid length field");
	assert_has(kdb_cmd("bph 0x1000 dataw 3"), "Invalid length field");
	assert_has(kdb_cmd("bph 0x1000 datax"), "Invalid IDMODE");
	assert_has(kdb_cmd("bph 0x1000 inst 4"), "Improper argument count");
	kdb_cmd("bph 0x1000");
	kdb_cmd("bph 0x1008");
	kdb_cmd("bph 0x1010");
	kdb_cmd("bph 0x1018");
	assert_has(kdb_cmd("bph 0x1020"), "More breakpoints than db registers");
	assert_has(kdb_cmd("bc 5"), "Breakpoint not found");
	assert_has(kdb_cmd("bc 0x1234567"), "Breakpoint not found");
	assert_has(kdb_cmd("bc"), "Improper argument count");
	assert_has(kdb_cmd("bd 1 2"), "Too many arguments");
	F.sim.ops.bp_get = NULL;
	assert_has(kdb_cmd("bl"), "Not available");
}

static void test_go_ss(void **state)
{
	kdb_run("go\n");
	assert_int_equal(F.r.action, EKDB_RESUME_CONTINUE);
	assert_false(F.r.set_pc);
	kdb_run("go mm_init\n");
	assert_int_equal(F.r.action, EKDB_RESUME_CONTINUE);
	assert_true(F.r.set_pc);
	assert_int_equal(F.r.pc, SIM_SYM_MM_INIT);
	assert_has(kdb_run("go 0x1 2\n"), "Too many arguments");
	assert_int_equal(F.r.action, EKDB_RESUME_EOF);
	kdb_run("ss\n");
	assert_int_equal(F.r.action, EKDB_RESUME_STEP);
	/* Enter repeats ss after the step */
	assert_has(kdb_run_bytes("\n", 1, EKDB_STOP_STEP, true), "due to SS trap @ 0xffffffff81000010");
	assert_int_equal(F.r.action, EKDB_RESUME_STEP);
	assert_has(kdb_run("ss 1\n"), "Too many arguments");
}

static void test_ssb(void **state)
{
	/* nops then a call at text+0x14: ssb stops when the branch is next */
	sim_target_mem(&F.sim, SIM_TEXT_BASE + 0x14)[0] = 0xe8;
	kdb_run("ssb\n");
	assert_int_equal(F.r.action, EKDB_RESUME_STEP);
	F.sim.regs[0].rip = SIM_TEXT_BASE + 0x11;
	kdb_run_bytes("", 0, EKDB_STOP_STEP, true);
	assert_int_equal(F.r.action, EKDB_RESUME_STEP);	/* silently steps on */
	F.sim.regs[0].rip = SIM_TEXT_BASE + 0x14;
	assert_has(kdb_run_bytes("", 0, EKDB_STOP_STEP, true), "0xffffffff81000014 (start_kernel+0x14)");
	assert_int_equal(F.r.action, EKDB_RESUME_EOF);	/* at the prompt again */
}

static void test_cpu(void **state)
{
	const char *o = kdb_cmd("cpu");

	assert_has(o, "Currently on cpu 0\nAvailable cpus: 0-1\n");
	o = kdb_run("cpu 1\nrd\n");
	assert_has(o, "[1]kdb> ");
	assert_has(o, "rax: 1111111211111111");
	assert_has(kdb_run("cpu 0\ncpu 5\n"), "Invalid cpu number");
	assert_has(kdb_cmd("cpu 0xq"), "Illegal numeric value");
	F.sim.ops.cpu_select = NULL;	/* falls back to threads */
	assert_has(kdb_run("cpu 1\nrd\n"), "rax: 1111111211111111");
}

static void test_ps_pid(void **state)
{
	const char *o = kdb_cmd("ps");

	assert_has(o, "Task Addr               Pid   Parent [*] cpu State Thread             Command\n");
	assert_has(o, "0x0000000000001200        0        0  1    0   R  0x0000000000001200 *swapper/0\n");
	assert_has(o, "kworker");
	assert_hasnt(o, "kheartbeat");
	assert_has(o, "1 sleeping system daemon");
	o = kdb_cmd("ps A");
	assert_has(o, "kheartbeat");
	assert_has(o, "oldtask");
	assert_has(kdb_cmd("ps S"), "kheartbeat");
	assert_has(kdb_cmd("ps A B"), "Too many arguments");
	assert_has(kdb_cmd("pid"), "KDB current process is swapper/0(pid=0)");
	assert_has(kdb_cmd("pid 1"), "KDB current process is kheartbeat(pid=1)");
	assert_has(kdb_cmd("pid 99"), "No task with pid=99");
	assert_has(kdb_cmd("pid R"), "swapper/0(pid=0)");
	/* early: no tasks, CPUs stand in */
	F.sim.ntasks = 0;
	o = kdb_cmd("ps");
	assert_has(o, "*CPU#0");
	assert_has(o, "CPU#1");
}

static void test_bt(void **state)
{
	const char *o = kdb_cmd("bt");

	assert_has(o, "Stack traceback for pid 0\n");
	assert_has(o, "Call Trace:\n [<ffffffff81000010>] start_kernel+0x10/0x100\n"
		      " [<ffffffff81000410>] mm_init+0x10/0x100\n"
		      " [<ffffffff81000150>] setup_arch+0x50/0x200\n"
		      " [<ffffffff81000020>] start_kernel+0x20/0x100\n");
	o = kdb_cmd("btp 1");
	assert_has(o, "Stack traceback for pid 1");
	assert_has(o, " [<ffffffff81000420>] mm_init+0x20/0x100\n [<ffffffff81000410>] mm_init+0x10");
	assert_has(kdb_cmd("btp 42"), "No process with pid == 42 found");
	assert_has(kdb_cmd("btp"), "Improper argument count");
	assert_has(kdb_cmd("btt 0x1400"), "Stack traceback for pid 1");
	assert_has(kdb_cmd("btt 0x1404"), "is not a task address");
	o = kdb_cmd("bt 0x10840");
	assert_has(o, "setup_arch+0x50");
	assert_hasnt(o, "mm_init");
	assert_has(kdb_cmd("bt 0x3000"), "unreadable");
	o = kdb_run("set BTAPROMPT 0\nbta A\n");
	assert_has(o, "pid 0");
	assert_has(o, "pid 1");
	assert_has(o, "pid 3\n");
	assert_has(o, "(dead task: no stack)");
	o = kdb_run("set BTAPROMPT 1\nbta A\nq");
	assert_has(o, "Enter <q> to end");
	assert_hasnt(o, "pid 1\n");
	o = kdb_cmd("btc");
	assert_has(o, "*swapper/0");
	assert_has(o, "CPU#1\nCall Trace:\n [<ffffffff81000011>]");
	assert_has(kdb_cmd("btc 9"), "Invalid cpu number");
	assert_has(kdb_cmd("bt 1 2"), "Too many arguments");
}

static void test_dmesg(void **state)
{
	const char *o = kdb_cmd("dmesg");

	assert_has(o, "Linux version 0.1-sim (ekdb) #1\n");
	assert_has(o, "Memory: 131072K total\n");
	o = kdb_cmd("dmesg 2");
	assert_hasnt(o, "Linux version");
	assert_has(o, "kgdb: Waiting");
	assert_has(o, "Memory:");
	o = kdb_cmd("dmesg 1 1");
	assert_string_equal(o, "kgdb: Waiting for connection from remote gdb...\n");
	o = kdb_cmd("dmesg -1");
	assert_string_equal(o, "Linux version 0.1-sim (ekdb) #1\n");
	o = kdb_cmd("dmesg -1 1");
	assert_has(o, "Command line:");
	assert_string_equal(kdb_cmd("dmesg 100 100"), "");
	assert_has(kdb_cmd("dmesg 0xq"), "Illegal numeric value");
	assert_has(kdb_cmd("dmesg 1 2 3"), "Too many arguments");
	F.sim.log_len = 10;	/* no final newline */
	assert_string_equal(kdb_cmd("dmesg"), "Linux vers\n");
	F.sim.ops.log_read = NULL;
	assert_has(kdb_cmd("dmesg"), "Not available");
}

static void test_info(void **state)
{
	const char *o = kdb_cmd("summary");

	assert_has(o, "sysname    ekdb\n");
	assert_has(o, "machine    x86_64\n");
	assert_has(o, "uptime     00:01:01\n");
	assert_has(o, "MemTotal:         131072 kB\n");
	assert_has(kdb_cmd("lsmod"), "Module                  Size  modstruct     Used by\n"
				     "serial                  4096  0xffffffff81000800  (Live)\n");
	assert_has(kdb_cmd("lsmod x"), "Too many arguments");
	F.sim.ops.mod_get = NULL;
	assert_has(kdb_cmd("lsmod"), "Not available");
	F.sim.ops.sys_info = NULL;
	assert_has(kdb_cmd("summary"), "sysname    ekdb");
	o = kdb_cmd("help");
	assert_has(o, "Command         Usage                Description\n");
	assert_has(o, "md              <vaddr>              Display Memory Contents");
	assert_has(o, "bph ");
	assert_has(kdb_cmd("? md"), "Display Memory Contents");
	assert_has(kdb_cmd("help nosuch"), "Unknown kdb command: 'nosuch'");
	assert_has(kdb_cmd("grephelp"), "^text");
}

static void test_env_set(void **state)
{
	assert_has(kdb_cmd("env"), "PROMPT=[%d]kdb> \n");
	assert_string_equal(kdb_cmd("set FOO bar"), "");
	assert_has(kdb_cmd("env"), "FOO=bar\n");
	kdb_cmd("set FOO=baz");
	assert_has(kdb_cmd("env"), "FOO=baz\n");
	assert_has(kdb_cmd("set FOO"), "Environment variable should have value");
	assert_has(kdb_cmd("set BYTESPERWORD 3"), "Illegal value for BYTESPERWORD");
	assert_has(kdb_cmd("set RADIX 7"), "Illegal value for RADIX");
	assert_has(kdb_cmd("set LINES x"), "Illegal numeric value");
	assert_has(kdb_cmd("set"), "Improper argument count");
	assert_has(kdb_run("set PROMPT ekdb%d$\n"), "ekdb0$");
}

static void test_reboot_sr_kgdb(void **state)
{
	assert_has(kdb_cmd("reboot"), "did not restart");
	assert_int_equal(F.sim.reboots, 1);
	assert_string_equal(kdb_cmd("sr m"), "");
	assert_int_equal(F.sim.last_sysrq, 'm');
	assert_has(kdb_cmd("sr z"), "Invalid argument");
	assert_has(kdb_cmd("sr"), "Improper argument count");
	assert_has(kdb_cmd("sr mm"), "Invalid argument");
	assert_has(kdb_run("kgdb\n"), "Entering please attach debugger or use $D#44+ or $3#33");
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	F.sim.ops.reboot = NULL;
	assert_has(kdb_cmd("reboot"), "Not available");
}

static void test_unknown_and_eval(void **state)
{
	assert_has(kdb_cmd("frobnicate"), "Unknown kdb command: 'frobnicate'");
	assert_has(kdb_cmd("setup_arch+0x10"), "setup_arch+0x10 = 0xffffffff81000110 (setup_arch+0x10)");
	assert_has(kdb_cmd("%rip"), "%rip = 0xffffffff81000010 (start_kernel+0x10)");
	assert_has(kdb_cmd("md \"unterminated"), "Invalid argument");
	assert_has(kdb_cmd("md 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17"), "too many arguments");
}

static void test_grep_pipe(void **state)
{
	const char *o = kdb_cmd("help | grep ^bp");

	assert_has(o, "bp ");
	assert_has(o, "bph ");
	assert_hasnt(o, "Display Memory Contents");
	o = kdb_cmd("ps A | grep \"kheart\"");
	assert_has(o, "kheartbeat");
	assert_hasnt(o, "swapper");
	assert_has(kdb_cmd("ps | sort"), "only \"| grep PATTERN\"");
	assert_has(kdb_cmd("ps | grep"), "only \"| grep PATTERN\"");
}

static void test_cmd_enable_refusal(void **state)
{
	F.s.cmd_enable = KDB_ENABLE_MEM_READ | KDB_ENABLE_INSPECT;
	assert_has(kdb_cmd("md 0x1000 1"), "0x0000000000001000");
	assert_has(kdb_cmd("mm 0x10000 1"), "'mm' is a memory write command, refused by kdb.cmd_enable=0x22");
	assert_has(kdb_cmd("mm 0x10000 1"), "Permission denied");
	assert_has(kdb_cmd("rd"), "refused");
	assert_has(kdb_cmd("reboot"), "refused");
	assert_int_equal(F.sim.reboots, 0);
	assert_has(kdb_cmd("bp setup_arch"), "refused");
	assert_has(kdb_cmd("help"), "Command ");	/* always safe */
	assert_has(kdb_run("go mm_init\n"), "refused");
	kdb_run("go\n");				/* go without arguments is safe */
	assert_int_equal(F.r.action, EKDB_RESUME_CONTINUE);
	F.s.cmd_enable = 0;
	assert_has(kdb_cmd("ps"), "refused");
}

static int meminfo(struct kdb_session *s, int argc, const char **argv)
{
	kdb_printf(s, "MemTotal: %d\n", argc);
	return argc > 1 ? -KDB_ARGCOUNT : 0;
}

static void test_late_cmd(void **state)
{
	static const struct kdb_cmd c = { "meminfo", meminfo, "", "Memory info", 0, KDB_ENABLE_INSPECT };

	assert_has(kdb_cmd("meminfo"), "Unknown kdb command");
	assert_int_equal(kdb_register(&c), 0);
	assert_has(kdb_cmd("meminfo"), "MemTotal: 0");
	assert_has(kdb_cmd("meminfo a b"), "Improper argument count");
	assert_has(kdb_cmd("help"), "meminfo");
	F.s.cmd_enable = 0;
	assert_has(kdb_cmd("meminfo"), "refused");
	kdb_unregister("meminfo");
}

static void test_defcmd(void **state)
{
	const char *o = kdb_run("defcmd mine \"\" \"my macro\"\n  md 0x1000 1\n  -nosuch\n  pid\nendefcmd\nmine\n");

	assert_has(o, "[0]kdb> md 0x1000 1\n0x0000000000001000 0706050403020100");
	assert_hasnt(o, "Unknown kdb command: 'nosuch'\ndiag");
	assert_has(o, "KDB current process is swapper/0");
	o = kdb_cmd("defcmd");
	assert_has(o, "defcmd mine \"\" \"my macro\"\n  md 0x1000 1\n  -nosuch\n  pid\nendefcmd\n");
	assert_has(kdb_cmd("help | grep ^mine"), "  my macro\n");
	/* redefine: the pool stays compact */
	kdb_run("defcmd other \"\" \"x\"\n rd\nendefcmd\ndefcmd mine \"\" \"v2\"\n cpu\nendefcmd\n");
	o = kdb_cmd("mine");
	assert_has(o, "Currently on cpu 0");
	assert_hasnt(o, "0706050403020100");
	assert_has(kdb_cmd("other"), "rax:");
	assert_has(kdb_cmd("mine x"), "Too many arguments");
	assert_has(kdb_cmd("defcmd md \"\" \"\""), "already a kdb command");
	assert_has(kdb_cmd("defcmd a b"), "Improper argument count");
	/* self-recursion is bounded */
	o = kdb_run("defcmd loop \"\" \"\"\n loop\nendefcmd\nloop\n");
	assert_has(o, "nested too deep");
	/* a macro may not define macros (its body would move under it) */
	o = kdb_run("defcmd bad \"\" \"\"\n defcmd bad\n x\nendefcmd\nbad\nendefcmd\n");
	assert_has(o, "cannot define a macro inside a macro");
	/* a macro that resumes */
	kdb_run("defcmd cont \"\" \"\"\n go\nendefcmd\ncont\n");
	assert_int_equal(F.r.action, EKDB_RESUME_CONTINUE);
}

static void test_kdb_cmds_file(void **state)
{
	const char *o;

	assert_int_equal(kdb_run_cmds(&F.s, kdb_builtin_cmds), 0);
	assert_true(kdb_defcmd_lookup(&F.s, "dumpall") >= 0);
	assert_true(kdb_defcmd_lookup(&F.s, "dumpcpu") >= 0);
	o = kdb_run("dumpall\n");
	assert_has(o, "sysname    ekdb");
	assert_has(o, "Currently on cpu 0");
	assert_has(o, "Linux version 0.1-sim");
	assert_has(o, "Stack traceback for pid 2");
	assert_hasnt(o, "more>");	/* LINES 10000 */
	sim_chan_clear_output(&F.ch);
	assert_int_equal(kdb_run_cmds(&F.s, "# comment\n\nset X 1\ngo\n"), -KDB_NOTHERE);
	assert_has(kdb_fix_norm(), "cannot resume");
	assert_int_equal(kdb_run_cmds(&F.s, "defcmd z \"\" \"\"\n md 0x1000\n"), 0);
	assert_has(kdb_fix_norm(), "has no endefcmd");
}

static void out_cb(void *arg, const char *s, size_t len)
{
	strncat(arg, s, len);
}

static void test_monitor(void **state)
{
	static char buf[65536];

	buf[0] = 0;
	assert_int_equal(kdb_monitor(&F.sim.t, "ps", out_cb, buf), 0);
	assert_has(buf, "swapper/0");
	buf[0] = 0;
	kdb_monitor(&F.sim.t, "bl", out_cb, buf);
	assert_has(buf, "No breakpoints are set");
	buf[0] = 0;
	kdb_monitor(&F.sim.t, "dmesg | grep kgdb", out_cb, buf);
	assert_has(buf, "kgdb: Registered");
	assert_hasnt(buf, "Linux version");
	buf[0] = 0;
	kdb_monitor(&F.sim.t, "go", out_cb, buf);
	assert_has(buf, "cannot resume the machine from gdb's monitor");
	buf[0] = 0;
	kdb_monitor(&F.sim.t, "md 0x1000 100", out_cb, buf);	/* no pager in gdb */
	assert_hasnt(buf, "more>");
	assert_has(buf, "0x0000000000001630");
	assert_int_equal(F.ch.out_len, 0);	/* nothing on the kdb line */
}

static void test_entry_banner(void **state)
{
	const char *o = kdb_run_bytes("", 0, EKDB_STOP_ENTRY, true);

	assert_has(o, "\nEntering kdb (current=0x0000000000001200, pid 0) on processor 0 due to Keyboard Entry\n[0]kdb> ");
	kdb_cmd("bp start_kernel+0x10");
	F.s.stop.bp_index = 0;
	{
		struct ekdb_stop st = { .reason = EKDB_STOP_SWBREAK, .thread = 1, .bp_index = 0 };

		sim_chan_clear_output(&F.ch);
		sim_chan_feed(&F.ch, "", 0);
		kdb_session_run(&F.s, &st, true);
		o = kdb_fix_norm();
	}
	assert_has(o, "Instruction(i) breakpoint #0 at 0xffffffff81000010\n");
	assert_has(o, "due to Breakpoint @ 0xffffffff81000010\n");
	{
		struct ekdb_stop st = { .reason = EKDB_STOP_FAULT, .thread = 2, .bp_index = -1,
					.message = "general protection fault" };

		sim_chan_clear_output(&F.ch);
		kdb_session_run(&F.s, &st, true);
		o = kdb_fix_norm();
	}
	assert_has(o, "Oops: general protection fault\n");
	assert_has(o, "on processor 1 due to oops @ 0xffffffff81000011");
	assert_has(o, "rax: ");
	assert_has(o, "[1]kdb> ");
	/* coming back from gdb: no banner */
	assert_hasnt(kdb_run_bytes("", 0, EKDB_STOP_ENTRY, false), "Entering");
}

/* Long outputs are checked whole here; the pager has its own tests. */
static int setup(void **state)
{
	int r = kdb_fix_setup(state);

	kdb_setenv(&F.s, "LINES", "10000");
	return r;
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
	const struct CMUnitTest tests[] = {
		T(test_md), T(test_md_errors), T(test_mdr_mds_mdp), T(test_mm), T(test_rd_rm),
		T(test_ef), T(test_bp), T(test_bp_errors), T(test_go_ss), T(test_ssb), T(test_cpu),
		T(test_ps_pid), T(test_bt), T(test_dmesg), T(test_info), T(test_env_set),
		T(test_reboot_sr_kgdb), T(test_unknown_and_eval), T(test_grep_pipe),
		T(test_cmd_enable_refusal), T(test_late_cmd), T(test_defcmd), T(test_kdb_cmds_file),
		T(test_monitor), T(test_entry_banner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
