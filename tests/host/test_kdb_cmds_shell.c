/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_kdb_cmds_shell.c - kdb's commands on tasks, the log and the shell
 * against the sim target: ps, pid, bt, dmesg, info (summary, lsmod), kill,
 * per_cpu, env/set, reboot/sr/kgdb, the evaluator, `| grep`, kdb.cmd_enable,
 * commands registered late, defcmd, the kdb_cmds file, gdb's monitor and
 * the entry banner, with wrong arguments.  The commands on the machine
 * (memory, registers, breakpoints, run control) are in test_kdb_cmds.c.
 */
#include "kdb_test_util.h"
#include "../../kdb/kdb.h"

/* Linux's kdb_ps(): the suppressed count, the header, the running tasks, a blank line, all tasks. */
static void test_ps_pid(void **state)
{
	const char *o = kdb_cmd("ps");

	assert_string_equal(o,
		"1 sleeping system daemon (state [ims]) process suppressed,\nuse 'ps A' to see all.\n"
		"Task Addr               Pid   Parent [*] cpu State Thread             Command\n"
		"0x0000000000001200        0        0  1    0   R  0x0000000000001200 *swapper/0\n"
		"\n"
		"0x0000000000001600        2        0  0    1   R  0x0000000000001600  kworker\n");
	/* the idle task is not on the task list, an exited task is gone (Linux) */
	o = kdb_cmd("ps A");
	assert_hasnt(o, "suppressed");
	assert_has(o, "0x0000000000001400        1        0  0    0   s  0x0000000000001400  kheartbeat\n");
	assert_non_null(strstr(o, "*swapper/0\n\n"));	/* once, among the running tasks */
	assert_null(strstr(strstr(o, "swapper/0") + 1, "swapper/0"));
	assert_hasnt(o, "oldtask");
	assert_hasnt(kdb_cmd("ps X"), "oldtask");
	assert_string_equal(kdb_cmd("pid 3"), "No task with pid=3\n");
	assert_string_equal(kdb_cmd("btp 3"), "No process with pid == 3 found\n");
	assert_hasnt(kdb_cmd("bta A"), "oldtask");
	assert_has(kdb_cmd("ps s"), "kheartbeat");
	assert_hasnt(kdb_cmd("ps S"), "kheartbeat");	/* kernel threads sleep in lower case */
	assert_has(kdb_cmd("ps A B"), "kheartbeat");	/* Linux ignores the rest */
	/* from CPU 1 the idle task of CPU 0 is '-', and is suppressed */
	o = kdb_run("cpu 1\nps\n");
	assert_has(o, "1 idle process (state -) and \n1 sleeping system daemon (state [ims]) process suppressed,\n");
	kdb_run("cpu 0\n");
	assert_string_equal(kdb_cmd("pid"), "KDB current process is swapper/0(pid=0)\n");
	assert_string_equal(kdb_cmd("pid 1"), "KDB current process is kheartbeat(pid=1)\n");
	assert_has(kdb_cmd("pid 99"), "No task with pid=99");
	assert_has(kdb_cmd("pid R"), "swapper/0(pid=0)");
	/* early: no tasks, each CPU's boot context stands in as swapper/N */
	F.sim.ntasks = 0;
	o = kdb_cmd("ps");
	assert_has(o, "1 idle process (state -)\n suppressed,\n");	/* sic, Linux */
	assert_has(o, " *swapper/0\n");
	o = kdb_cmd("ps A");
	assert_has(o, "   -  0x0000000000000000  swapper/1\n");
}

/*
 * Linux 6.x's bt: the ps line, dump_stack()'s CPU line for a running task,
 * "Call Trace:", <TASK>, the register block, then every text address on
 * the stack, "? " where the frame chain does not vouch for it.
 */
static void test_bt(void **state)
{
	const char *o;

	F.sim.regs[0].rip = SIM_SYM_SETUP_ARCH + 0x50;	/* text around it: Code: bytes */
	o = kdb_cmd("bt");
	assert_string_equal(o,
		"Stack traceback for pid 0\n"
		"0x0000000000001200        0        0  1    0   R  0x0000000000001200 *swapper/0\n"
		"CPU: 0 PID: 0 Comm: swapper/0 Not tainted 0.1-sim #1\n"
		"Call Trace:\n"
		" <TASK>\n"
		"RIP: 0010:setup_arch+0x50/0x200\n"
		"Code: 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90"
		" 90 90 90 90 90 90 90 90 90 90 90 90 <90> 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90\n"
		"RSP: 0018:00000000000107e8 EFLAGS: 00000246\n"
		"RAX: 1111111111111111 RBX: 0000000000002222 RCX: 0000000000003333\n"
		"RDX: 0000000000004444 RSI: 0000000000005555 RDI: 0000000000006666\n"
		"RBP: 0000000000010800 R08: 0000000000000008 R09: 0000000000000009\n"
		"R10: 000000000000000a R11: 000000000000000b R12: 000000000000000c\n"
		"R13: 000000000000000d R14: 000000000000000e R15: 000000000000000f\n"
		" ? setup_boot_params+0x5/0x80\n"
		" mm_init+0x10/0x100\n"
		" setup_arch+0x50/0x200\n"
		" start_kernel+0x20/0x100\n"
		" </TASK>\n");
	/* "b" is bt (minlen 1) */
	assert_has(kdb_cmd("b"), " ? setup_boot_params+0x5/0x80\n");
	o = kdb_cmd("btp 1");
	assert_string_equal(o,
		"Stack traceback for pid 1\n"
		"0x0000000000001400        1        0  0    0   s  0x0000000000001400  kheartbeat\n"
		"Call Trace:\n <TASK>\n"
		" mm_init+0x20/0x100\n ? setup_boot_params+0x5/0x80\n mm_init+0x10/0x100\n setup_arch+0x50/0x200\n start_kernel+0x20/0x100\n"
		" </TASK>\n");
	/* no chain (a thread on its first instruction): the scan stops at the task's stack top,
	 * not in the words above it (another task's stack) */
	o = kdb_cmd("btp 2");
	assert_has(o, "Call Trace:\n <TASK>\n setup_arch+0x10/0x200\n ? setup_boot_params+0x5/0x80\n"
		   " ? mm_init+0x10/0x100\n </TASK>\n");
	assert_hasnt(o, "start_kernel");
	assert_has(kdb_cmd("btp 42"), "No process with pid == 42 found");
	assert_has(kdb_cmd("btp"), "diag: -2: Improper argument count");
	assert_has(kdb_cmd("btt 0x1400"), "Stack traceback for pid 1");
	assert_has(kdb_cmd("btt 0x1404"), "diag: -21: Invalid address");
	/* bt <stack address>: from there up */
	o = kdb_cmd("bt 0x10840");
	assert_string_equal(o, "Call Trace:\n <TASK>\n setup_arch+0x50/0x200\n start_kernel+0x20/0x100\n </TASK>\n");
	assert_string_equal(kdb_cmd("bt 0x3000"), "Call Trace:\n <TASK>\n </TASK>\n");
	o = kdb_run("set BTAPROMPT 0\nbta A\n");
	assert_has(o, "pid 0");
	assert_has(o, "pid 1");
	assert_hasnt(o, "pid 3\n");		/* exited: gone from the task list */
	o = kdb_run("set BTAPROMPT 1\nbta A\nq");
	assert_has(o, "Enter <q> to end, <cr> or <space> to continue:");
	assert_hasnt(o, "pid 1\n");
	o = kdb_cmd("btc");
	assert_has(o, "btc: cpu status: Currently on cpu 0\nAvailable cpus: 0-1\nStack traceback for pid 0\n");
	assert_has(o, "  swapper/1\nCPU: 1 PID: 0 Comm: swapper/1 Not tainted 0.1-sim #1\nCall Trace:\n <TASK>\n"
		      "RIP: 0010:start_kernel+0x11/0x100\n");
	assert_has(kdb_cmd("btc 9"), "WARNING: no process for cpu 9");
	assert_string_equal(kdb_cmd("bt 1 2"), "Call Trace:\n <TASK>\n </TASK>\n");	/* Linux ignores "2" */
}

/* Linux 6.x's kdb dmesg: syslog form, "<level>[seconds] text". */
static void test_dmesg(void **state)
{
	const char *o = kdb_cmd("dmesg");

	assert_has(o, "<5>[    0.000000] Linux version 0.1-sim (ekdb) #1\n");
	assert_has(o, "<6>[    1.500000] Memory: 131072K total\n");
	o = kdb_cmd("dmesg 2");
	assert_string_equal(o, "<6>[    0.012400] kgdb: Waiting for connection from remote gdb...\n"
			    "<6>[    1.500000] Memory: 131072K total\n");
	o = kdb_cmd("dmesg 1 1");
	assert_string_equal(o, "<6>[    0.012400] kgdb: Waiting for connection from remote gdb...\n");
	o = kdb_cmd("dmesg -1");
	assert_string_equal(o, "<5>[    0.000000] Linux version 0.1-sim (ekdb) #1\n");
	o = kdb_cmd("dmesg -1 1");
	assert_has(o, "Command line:");
	assert_string_equal(kdb_cmd("dmesg 100 100"), "buffer only contains 5 lines, nothing printed\n");
	assert_has(kdb_cmd("dmesg 7"), "buffer only contains 5 lines, first 5 lines printed\n<5>[");
	assert_has(kdb_cmd("dmesg -7 2"), "buffer only contains 5 lines, last 3 lines printed\n<6>[    0.012345]");
	/* a word that is not a number counts as 0, as Linux's simple_strtol */
	assert_has(kdb_cmd("dmesg 0xq"), "Linux version");
	assert_has(kdb_cmd("dmesg 1 2 3"), "diag: -2: Improper argument count");
	F.sim.log_len = 20;	/* no final newline */
	assert_string_equal(kdb_cmd("dmesg"), "<5>[    0.000000] Li\n");
	F.sim.host.log_read = NULL;
	assert_has(kdb_cmd("dmesg"), "diag: -7: Command not implemented");
}

static void test_info(void **state)
{
	const char *o = kdb_cmd("summary");

	assert_string_equal(o, "sysname    ekdb\nrelease    0.1-sim\nversion    #1 host simulation\n"
			    "machine    x86_64\nnodename   (none)\ndomainname (none)\n"
			    "date       2025-12-03 15:02:03 tz_minuteswest 0\n"
			    "uptime     00:01\n"
			    "load avg   1.50 0.12 0.00\n"
			    "\nMemTotal:         131072 kB\nMemFree:          100000 kB\nBuffers:               0 kB\n");
	assert_has(kdb_cmd("summ"), "sysname");		/* minlen 4 */
	assert_has(kdb_cmd("sum"), "Unknown kdb command: 'sum'");
	assert_string_equal(kdb_cmd("lsmod"), "Module                  Size  modstruct     Used by\n"
			    "serial                  4096  0xffffffff81000800    0  (Live) 0xffffffff81000800 [ ]\n"
			    "printk                  8192  0xffffffff81000900    0  (Live) 0xffffffff81000900 [ ]\n"
			    "page_alloc             12288  0xffffffff81000a00    0  (Live) 0xffffffff81000a00 [ ]\n");
	assert_has(kdb_cmd("lsmod x"), "Improper argument count");
	F.sim.host.mod_get = NULL;
	assert_has(kdb_cmd("lsmod"), "Command not implemented");
	o = kdb_cmd("help");
	assert_has(o, "Command         Usage                Description\n"
		      "----------------------------------------------------------\n"
		      "md              <vaddr>             Display Memory Contents, also mdWcN, e.g. md8c1\n"
		      "mdr             <vaddr> <bytes>     Display Raw Memory\n");
	assert_has(o, "per_cpu         <sym> [<bytes>] [<cpu>]\n"
		      "                                    Display per_cpu variables\n");
	assert_has(o, "kill            <-signal> <pid>     Send a signal to a process\n");
	assert_has(o, "bph             [<vaddr>]           [datar [length]|dataw [length]]   Set hw brk\n");
	assert_has(kdb_cmd("? md"), "Display Memory Contents");
	assert_has(kdb_cmd("help nosuch"), "Unknown kdb command: 'help nosuch'");
	assert_string_equal(kdb_cmd("grephelp"), "Usage of  cmd args | grep pattern:\n"
			    "  Any command's output may be filtered through an emulated 'pipe'.\n"
			    "  'grep' is just a key word.\n"
			    "  The pattern may include a very limited set of metacharacters:\n"
			    "   pattern or ^pattern or pattern$ or ^pattern$\n"
			    "  And if there are spaces in the pattern, you may quote it:\n"
			    "   \"pat tern\" or \"^pat tern\" or \"pat tern$\" or \"^pat tern$\"\n");
	F.sim.host.sys_info = NULL;
	assert_has(kdb_cmd("summary"), "sysname    \n");
}

/* Linux's kdb_kill() and kdb_send_sig() messages. */
static void test_kill(void **state)
{
	assert_string_equal(kdb_cmd("kill -9 1"),
			    "Process is not RUNNING, sending a signal from kdb risks deadlock\n"
			    "on the run queue locks. The signal has _not_ been sent.\n"
			    "Reissue the kill command if you want to risk the deadlock.\n");
	assert_int_equal(F.sim.last_signal, 0);
	assert_string_equal(kdb_cmd("kill -9 1"), "Signal 9 is sent to process 1.\n");
	assert_int_equal(F.sim.last_signal, 9);
	assert_int_equal(F.sim.last_signal_pid, 1);
	assert_string_equal(kdb_cmd("kill -15 2"), "Signal 15 is sent to process 2.\n");	/* running */
	/* an exited task is gone, as a released one in Linux */
	assert_string_equal(kdb_cmd("kill -9 3"), "The specified process isn't found.\n");
	assert_string_equal(kdb_cmd("kill 9 1"), "Invalid signal parameter.<-signal>\n");
	assert_string_equal(kdb_cmd("kill -65 1"), "Invalid signal parameter.<-signal>\n");
	assert_string_equal(kdb_cmd("kill -9 0"), "Process ID must be large than 0.\n");
	assert_string_equal(kdb_cmd("kill -9 42"), "The specified process isn't found.\n");
	assert_has(kdb_cmd("kill -9x 1"), "diag: -15: Illegal numeric value");
	assert_has(kdb_cmd("kill -9"), "diag: -2: Improper argument count");
	F.s.cmd_enable = KDB_ENABLE_INSPECT;
	assert_string_equal(kdb_cmd("kill -9 2"), "diag: -22: Permission denied\n");
}

/* Linux's kdb_per_cpu(): "%5d " then one md line per CPU; 8-byte words symbolic. */
static void test_per_cpu(void **state)
{
	memcpy(sim_target_mem(&F.sim, 0x1140), &(u64){ SIM_SYM_MM_INIT + 8 }, 8);
	assert_string_equal(kdb_cmd("per_cpu jiffies"),
			    "    0 0x0000000000001100 0706050403020100   ........\n"
			    "    1 0x0000000000001140 ffffffff81000408 mm_init+0x8  \n");
	assert_string_equal(kdb_cmd("per_cpu jiffies 4 0"),
			    "    0 0x0000000000001100 03020100   ....\n");
	assert_string_equal(kdb_cmd("per jiffies 2 1"), "    1 0x0000000000001140 0408   ..\n");
	assert_has(kdb_cmd("per_cpu jiffies 16"), "diag: -3: Illegal value for BYTESPERWORD");
	assert_string_equal(kdb_cmd("per_cpu jiffies 8 5"), "cpu 5 is not online\ndiag: -18: Invalid cpu number\n");
	assert_string_equal(kdb_cmd("per_cpu 0x2ffc"), "kdb_getarea_size: Bad address 0x2ffc\n"
			    "    0 0x0000000000002ffc - unable to read, diag=-21\n"
			    "    1 0x000000000000303c - unable to read, diag=-21\n");
	assert_has(kdb_cmd("per_cpu"), "diag: -2: Improper argument count");
	F.sim.host.percpu_offset = NULL;
	assert_has(kdb_cmd("per_cpu jiffies"), "diag: -7: Command not implemented");
}

static void test_env_set(void **state)
{
	/* Linux 6.x's default environment on x86-64 (__env[]), nothing more */
	kdb_env_defaults(&F.s);
	assert_string_equal(kdb_cmd("env"), "PROMPT=[%d]kdb> \nMOREPROMPT=more> \nRADIX=16\n"
			    "MDCOUNT=8\nBYTESPERWORD=8\nDTABCOUNT=30\nNOSECT=1\n");
	kdb_setenv(&F.s, "LINES", "10000");
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
	assert_string_equal(kdb_cmd("reboot"), "Hmm, kdb_reboot did not reboot\n");
	assert_int_equal(F.sim.reboots, 1);
	assert_string_equal(kdb_cmd("sr m"), "");
	assert_int_equal(F.sim.last_sysrq, 'm');
	/* an unknown key gets the sysrq help, as Linux's __handle_sysrq() */
	assert_string_equal(kdb_cmd("sr z"), "");
	assert_int_equal(F.sim.last_sysrq, 'h');
	assert_has(kdb_cmd("sr"), "Improper argument count");
	kdb_cmd("sr tx");
	assert_int_equal(F.sim.last_sysrq, 't');
	assert_has(kdb_run("kgdb\n"), "Entering please attach debugger or use $D#44+ or $3#33");
	assert_int_equal(F.r.action, EKDB_RESUME_TO_GDB);
	F.sim.host.reboot = NULL;
	assert_has(kdb_cmd("reboot"), "Command not implemented");
}

static void test_unknown_and_eval(void **state)
{
	assert_string_equal(kdb_cmd("frobnicate"), "Unknown kdb command: 'frobnicate'\n");
	assert_string_equal(kdb_cmd("frob nicate  x"), "Unknown kdb command: 'frob nicate  x'\n");
	assert_string_equal(kdb_cmd("start_kernel+0x10"), "start_kernel+0x10 = 0xffffffff81000010 (start_kernel+0x10)\n");
	/* Linux's lookup: "setup_arch" starts with "set", "mm_init" with "mm" */
	assert_string_equal(kdb_cmd("setup_arch"), "diag: -2: Improper argument count, see usage.\n");
	assert_string_equal(kdb_cmd("mm_init"), "Unknown kdb command: 'mm_init'\n");
	assert_has(kdb_cmd("%rip"), "%rip = 0xffffffff81000010 (start_kernel+0x10)");
	assert_has(kdb_cmd("md \"unterminated"), "diag: -15: Illegal numeric value");
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
	assert_string_equal(kdb_cmd("mm 0x10000 1"), "diag: -22: Permission denied\n");
	assert_has(kdb_cmd("rd"), "diag: -22: Permission denied");
	assert_has(kdb_cmd("reboot"), "Permission denied");
	assert_int_equal(F.sim.reboots, 0);
	assert_has(kdb_cmd("bp setup_arch"), "Permission denied");
	/* help lists only what the mask allows */
	assert_has(kdb_cmd("help"), "\nmd              <vaddr>");
	assert_hasnt(kdb_cmd("help"), "\nmm ");
	assert_hasnt(kdb_cmd("help"), "\nreboot ");
	assert_has(kdb_run("go mm_init\n"), "Permission denied");
	kdb_run("go\n");				/* go without arguments is safe */
	assert_int_equal(F.r.action, EKDB_RESUME_CONTINUE);
	F.s.cmd_enable = 0;
	assert_has(kdb_cmd("ps"), "Permission denied");
	assert_has(kdb_cmd("kgdb"), "Permission denied");	/* Linux: kgdb needs the full mask */
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
	assert_has(kdb_cmd("meminfo"), "Permission denied");
	kdb_unregister("meminfo");
}

static void test_defcmd(void **state)
{
	const char *o = kdb_run("defcmd mine \"\" \"my macro\"\n  md 0x1000 1\n  -nosuch\n  pid\nendefcmd\nmine\n");

	assert_has(o, "[mine]kdb> md 0x1000 1\n0x0000000000001000 0706050403020100");
	assert_hasnt(o, "Unknown kdb command: 'nosuch'\ndiag");
	assert_has(o, "KDB current process is swapper/0");
	o = kdb_cmd("defcmd");
	assert_has(o, "defcmd mine \"\" \"my macro\"\nmd 0x1000 1\n-nosuch\npid\nendefcmd\n");
	assert_has(kdb_cmd("help | grep ^mine"), "mine                                my macro\n");
	/* redefine: the pool stays compact */
	kdb_run("defcmd other \"\" \"x\"\n rd\nendefcmd\ndefcmd mine \"\" \"v2\"\n cpu\nendefcmd\n");
	o = kdb_cmd("mine");
	assert_has(o, "Currently on cpu 0");
	assert_hasnt(o, "0706050403020100");
	assert_has(kdb_cmd("other"), "ax: ");
	assert_has(kdb_cmd("mine x"), "Improper argument count");
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
	assert_int_equal(kdb_monitor(&F.s, "ps", out_cb, buf), 0);
	assert_has(buf, "swapper/0");
	buf[0] = 0;
	kdb_monitor(&F.s, "bl", out_cb, buf);
	assert_string_equal(buf, "");
	buf[0] = 0;
	kdb_monitor(&F.s, "dmesg | grep kgdb", out_cb, buf);
	assert_has(buf, "kgdb: Registered");
	assert_hasnt(buf, "Linux version");
	buf[0] = 0;
	kdb_monitor(&F.s, "go", out_cb, buf);
	assert_has(buf, "cannot resume the machine from gdb's monitor");
	buf[0] = 0;
	kdb_monitor(&F.s, "md 0x1000 100", out_cb, buf);	/* no pager in gdb */
	assert_hasnt(buf, "more>");
	assert_has(buf, "0x0000000000001630");
	assert_int_equal(F.ch.out_len, 0);	/* nothing on the kdb line */
}

/*
 * gdb's `monitor` is kdb too: kdb.cmd_enable holds there (a restriction
 * that fails open through gdb is none; issue 19, planted bug 2).
 */
static void test_monitor_obeys_cmd_enable(void **state)
{
	static char buf[65536];

	F.s.cmd_enable = KDB_ENABLE_REG_READ | KDB_ENABLE_INSPECT;	/* 0x28 */
	buf[0] = 0;
	kdb_monitor(&F.s, "md 0x1000 1", out_cb, buf);
	assert_string_equal(buf, "diag: -22: Permission denied\n");
	buf[0] = 0;
	kdb_monitor(&F.s, "mm 0x10000 1", out_cb, buf);
	assert_string_equal(buf, "diag: -22: Permission denied\n");
	buf[0] = 0;
	kdb_monitor(&F.s, "bp setup_arch", out_cb, buf);
	assert_has(buf, "Permission denied");
	buf[0] = 0;
	kdb_monitor(&F.s, "ps", out_cb, buf);		/* inspection is allowed */
	assert_has(buf, "swapper/0");
	F.s.cmd_enable = KDB_ENABLE_MEM_READ;
	buf[0] = 0;
	kdb_monitor(&F.s, "md 0x1000 1", out_cb, buf);
	assert_has(buf, "0x0000000000001000 0706050403020100");
	F.s.cmd_enable = KDB_ENABLE_ALL;
	buf[0] = 0;
	kdb_monitor(&F.s, "bl", out_cb, buf);		/* the refused bp was not made */
	assert_string_equal(buf, "");
}

static void test_entry_banner(void **state)
{
	const char *o = kdb_run_bytes("", 0, EKDB_STOP_ENTRY, true);

	assert_has(o, "\nEntering kdb (current=0x0000000000001200, pid 0) on processor 0 due to Keyboard Entry\n[0]kdb> ");
	/*
	 * Linux's kdb_local(): KDB_REASON_KEYBOARD (kgdb_breakpoint(): kgdbwait,
	 * sysrq-g) prints no pc, unlike Breakpoint/SS trap/oops/NMI; so do ours
	 */
	assert_has(kdb_run_bytes("", 0, EKDB_STOP_SYSRQ, true), "due to Keyboard Entry\n[0]kdb> ");
	assert_has(kdb_run_bytes("", 0, EKDB_STOP_INTERRUPT, true), "due to Keyboard Entry\n[0]kdb> ");
	kdb_cmd("bp start_kernel+0x10");
	F.s.stop.bp_index = 0;
	{
		struct ekdb_stop st = { .reason = EKDB_STOP_SWBREAK, .thread = 1, .bp_index = 0 };

		sim_chan_clear_output(&F.ch);
		sim_chan_feed(&F.ch, "", 0);
		kdb_session_run(&F.s, &st, true);
		o = kdb_fix_norm();
	}
	assert_has(o, "Instruction(i) breakpoint #0 at 0xffffffff81000010\n");	/* 2.6.34's line, kept */
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
	assert_has(o, "ax: ");
	assert_has(o, "[1]kdb> ");
	/* coming back from gdb: no banner */
	assert_hasnt(kdb_run_bytes("", 0, EKDB_STOP_ENTRY, false), "Entering");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, kdb_fix_setup_unpaged)	/* outputs checked whole */
	const struct CMUnitTest tests[] = {
		T(test_ps_pid), T(test_bt), T(test_kill), T(test_per_cpu), T(test_dmesg), T(test_info), T(test_env_set),
		T(test_reboot_sr_kgdb), T(test_unknown_and_eval), T(test_grep_pipe),
		T(test_cmd_enable_refusal), T(test_late_cmd), T(test_defcmd), T(test_kdb_cmds_file),
		T(test_monitor), T(test_monitor_obeys_cmd_enable), T(test_entry_banner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
