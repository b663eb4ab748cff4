/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_kdb_cmds.c - kdb's commands on the machine against the sim target:
 * memory (md, mdr, mds, mdp, mm), registers and frames (rd, rm, ef),
 * breakpoints (bp, bph, bl, bc), run control (go, ss, ssb, cpu), with bad
 * addresses and wrong argument counts.  The commands on tasks, the log and
 * the shell itself are in test_kdb_cmds_shell.c.
 */
#include "kdb_test_util.h"
#include "../../kdb/kdb.h"

/* Linux's kdb_md_line(): address, words, then (num - i) * (2 * bpw + 1) + 1 blanks, a blank, the text. */
static void test_md(void **state)
{
	const char *o = kdb_cmd("md 0x1000");

	assert_has(o, "0x0000000000001000 0706050403020100 0f0e0d0c0b0a0908   ................\n");
	assert_has(o, "0x0000000000001070 ");
	assert_hasnt(o, "0x0000000000001080");
	/* Enter continues the dump */
	o = kdb_run("\n");
	assert_has(o, "0x0000000000001080 ");
	/* mdWcN: N words of W bytes, the last line short */
	assert_string_equal(kdb_cmd("md4c2 0x1010"),
			    "0x0000000000001010 13121110 17161514                     ........\n");
	assert_string_equal(kdb_cmd("md1c3 0x1041"),
			    "0x0000000000001041 41 42 43                                          ABC\n");
	o = kdb_cmd("md2c9 0x1000");
	assert_has(o, "0x0000000000001000 0100 0302 0504 0706 0908 0b0a 0d0c 0f0e   ................\n"
		      "0x0000000000001010 1110                                      ..\n");
	assert_hasnt(o, "0x0000000000001020");
	/* Enter repeats mdWcN with its count, from where it stopped */
	assert_string_equal(kdb_run("\n") + strlen("[0]kdb> \n"),
			    "0x0000000000001012 1312 1514 1716 1918 1b1a 1d1c 1f1e 2120   .............. !\n"
			    "0x0000000000001022 2322                                      \"#\n[0]kdb> ");
	o = kdb_cmd("md 0x1000 1 10");
	assert_string_equal(o, "0x0000000000001000 506097522914230528 1084818905618843912   ................\n");
	o = kdb_cmd("md 0x1000 1 8");
	assert_has(o, "0x0000000000001000 34060120200300400400 74160320601302404410 ");
	o = kdb_cmd("md jiffies 1");
	assert_has(o, "0x0000000000001100 ");
	/* more than two zero lines: Linux's "zero suppressed" */
	assert_string_equal(kdb_cmd("md 0x10000 6"),
			    "0x0000000000010000 0000000000000000 0000000000000000   ................\n"
			    "0x0000000000010010-0x000000000001004f zero suppressed\n"
			    "0x0000000000010050 0000000000000000 0000000000000000   ................\n");
	/* "m" finds md (minlen 1), which, as Linux's kdb_md(), knows no such form */
	assert_string_equal(kdb_cmd("m 0x1000 1"), "Unknown kdb command: 'm 0x1000 1'\n");
	assert_has(kdb_cmd("md8c1 0x1000"), "0x0000000000001000 0706050403020100");
}

static void test_md_errors(void **state)
{
	assert_string_equal(kdb_cmd("md"), "diag: -2: Improper argument count, see usage.\n");
	/* one message, then the lines with nothing readable */
	assert_string_equal(kdb_cmd("md 0x3000 2"), "kdb_getarea_size: Bad address 0x3000\n"
			    "0x0000000000003000                                     \n"
			    "0x0000000000003010                                     \n");
	/* a line running into the hole */
	assert_has(kdb_cmd("md 0x2ff8 1"), "0x0000000000002ff8 fffefdfcfbfaf9f8 kdb_getarea_size: Bad address 0x3000\n");
	assert_string_equal(kdb_cmd("md nosuchsym"), "diag: -15: Illegal numeric value\n");
	assert_has(kdb_cmd("md 0x1000 1 7"), "diag: -4: Illegal value for RADIX use 8, 10 or 16\n");
	/* Linux ignores a word after the radix, refuses two */
	assert_has(kdb_cmd("md 0x1000 1 16 9"), "0x0000000000001000 0706050403020100");
	assert_has(kdb_cmd("md 0x1000 1 16 9 9"), "diag: -2: Improper argument count");
	assert_has(kdb_cmd("md3 0x1000"), "diag: -3: Illegal value for BYTESPERWORD");
	assert_has(kdb_cmd("md4c 0x1000"), "Unknown kdb command: 'md4c 0x1000'");
	assert_has(kdb_cmd("md4cx 0x1000"), "Unknown kdb command");
	assert_has(kdb_cmd("mdr 0x1000"), "diag: -2: Improper argument count");
	assert_string_equal(kdb_cmd("mdr 0x2ffe 4"), "feffkdb_getarea_size: Bad address 0x3000\n");
	/*
	 * A count near INT_MAX that Enter repeats (the kdb-line fuzzer's input:
	 * UBSan saw repeat * bpw overflow an int when md continued): refused
	 * as a range past 2^64, both times.
	 */
	assert_has(kdb_cmd("md 0xfffffffd00000000 1"), "0xfffffffd00000000 ");
	assert_string_equal(kdb_cmd("md8c2147483647 0xfffffffd00000000"),
			    "md8c2147483647: 0xfffffffd00000000 + 0x3fffffff8 bytes runs past the end "
			    "of the address space\ndiag: -21: Invalid address\n");
	assert_string_equal(kdb_cmd("md"),
			    "md: 0xfffffffd00000010 + 0x3fffffff8 bytes runs past the end "
			    "of the address space\ndiag: -21: Invalid address\n");
}

static void test_mdr_mds_mdp(void **state)
{
	const char *o = kdb_cmd("mdr 0x1004 6");

	assert_string_equal(o, "040506070809\n");
	memcpy(sim_target_mem(&F.sim, 0x1200), &(u64){ SIM_SYM_SETUP_ARCH + 0x10 }, 8);
	memcpy(sim_target_mem(&F.sim, 0x1210), &(u64){ SIM_SYM_SETUP_ARCH }, 8);
	o = kdb_cmd("mds 0x1200 3");
	assert_string_equal(o, "0x0000000000001200 ffffffff81000110 setup_arch+0x10  \n"
			    "0x0000000000001208 0f0e0d0c0b0a0908   ........\n"
			    "0x0000000000001210 ffffffff81000100 setup_arch  \n");
	o = kdb_cmd("mdp 0x1000 1");
	assert_string_equal(o, "phys 0x0000000000001000 0706050403020100 0f0e0d0c0b0a0908   ................\n");
	assert_string_equal(kdb_cmd("mdp 0x10000 1"), "phys 0x0000000000010000                                     \n");
	F.sim.host.phys_read = NULL;
	assert_has(kdb_cmd("mdp 0x1000 1"), "phys 0x0000000000001000       ");
}

/* Linux's kdb_mm(): mm writes a machine word, mmW W bytes; it prints what was asked. */
static void test_mm(void **state)
{
	assert_string_equal(kdb_cmd("mm 0x10000 0x1122334455667788"), "0x10000 = 0x1122334455667788\n");
	assert_int_equal(sim_target_mem(&F.sim, 0x10000)[0], 0x88);
	assert_string_equal(kdb_cmd("mm2 0x10010 0xabcdef"), "0x10010 = 0xabcdef\n");
	assert_int_equal(sim_target_mem(&F.sim, 0x10010)[0], 0xef);
	assert_int_equal(sim_target_mem(&F.sim, 0x10010)[1], 0xcd);
	assert_int_equal(sim_target_mem(&F.sim, 0x10010)[2], 0);
	assert_string_equal(kdb_cmd("mm1 0x10020 0x1ff"), "0x10020 = 0x1ff\n");
	assert_int_equal(sim_target_mem(&F.sim, 0x10020)[0], 0xff);
	assert_int_equal(sim_target_mem(&F.sim, 0x10020)[1], 0);
	assert_string_equal(kdb_cmd("mm 0x3000 1"),
			    "kdb_putarea_size: Bad address 0x3000\ndiag: -21: Invalid address\n");
	assert_has(kdb_cmd("mm3 0x10000 1"), "diag: -3: Illegal value for BYTESPERWORD use 1, 2, 4 or 8, 8 is only allowed on 64 bit systems\n");
	assert_has(kdb_cmd("mmx 0x10000 1"), "Unknown kdb command: 'mmx 0x10000 1'");
	assert_has(kdb_cmd("mm 0x10000"), "diag: -2: Improper argument count");
	assert_has(kdb_cmd("mm 0x10000 1 2"), "Improper argument count");
	assert_has(kdb_cmd("mm 0x10000 0xzz"), "diag: -15: Illegal numeric value");
	/* read-only kernel text: refused, as Linux's kdb_putword() (copy_to_kernel_nofault()) */
	u8 before = sim_target_mem(&F.sim, SIM_SYM_SETUP_ARCH)[0];
	assert_string_equal(kdb_cmd("mm1 setup_arch 0xcc"), "kdb_putarea_size: Bad address "
			    "0xffffffff81000100\ndiag: -21: Invalid address\n");
	assert_string_equal(kdb_cmd("mm setup_arch 0"), "kdb_putarea_size: Bad address "
			    "0xffffffff81000100\ndiag: -21: Invalid address\n");
	assert_int_equal(sim_target_mem(&F.sim, SIM_SYM_SETUP_ARCH)[0], before);
}

/*
 * Issue 19: md, mdr, mds, mm and bph refuse a range that runs past 2^64
 * with a message and "diag: -21: Invalid address" before any byte is
 * read or written (Linux's kdb wraps to address 0); a range ending
 * exactly at the top is whole.  mm on the debugger's own bytes says so and
 * gives "diag: -22: Permission denied" (not "Bad address").  Bad input
 * tried: md 0xfffffffffffffff8 4, md at the last 16 bytes for 2 lines,
 * mds over the top, mdr 4 bytes from the last 2, mm (8 bytes) and mm2 at
 * the last byte, bph dataw 8 at the last 4 bytes, mm on kgdb_breakpoint
 * (debugger-owned in the sim, like the kernel's debugger data).
 */
static void test_range_at_top(void **state)
{
	const char *o;

	assert_string_equal(kdb_cmd("md 0xfffffffffffffff8 4"),
			    "md: 0xfffffffffffffff8 + 0x40 bytes runs past the end of the address space\n"
			    "diag: -21: Invalid address\n");
	assert_string_equal(kdb_cmd("md 0xfffffffffffffff0 2"),
			    "md: 0xfffffffffffffff0 + 0x20 bytes runs past the end of the address space\n"
			    "diag: -21: Invalid address\n");
	assert_string_equal(kdb_cmd("mds 0xfffffffffffffff8 2"),
			    "mds: 0xfffffffffffffff8 + 0x10 bytes runs past the end of the address space\n"
			    "diag: -21: Invalid address\n");
	assert_string_equal(kdb_cmd("mdr 0xfffffffffffffffe 4"),
			    "mdr: 0xfffffffffffffffe + 0x4 bytes runs past the end of the address space\n"
			    "diag: -21: Invalid address\n");
	assert_string_equal(kdb_cmd("mm 0xffffffffffffffff 1"),
			    "mm: 0xffffffffffffffff + 0x8 bytes runs past the end of the address space\n"
			    "diag: -21: Invalid address\n");
	assert_string_equal(kdb_cmd("mm2 0xffffffffffffffff 1"),
			    "mm2: 0xffffffffffffffff + 0x2 bytes runs past the end of the address space\n"
			    "diag: -21: Invalid address\n");
	assert_string_equal(kdb_cmd("bph 0xfffffffffffffffc dataw 8"),
			    "bph: 0xfffffffffffffffc + 0x8 bytes runs past the end of the address space\n"
			    "diag: -21: Invalid address\n");
	assert_int_equal(sim_target_bp_count(&F.sim, EKDB_BP_WRITE), 0);
	assert_int_equal(sim_target_mem(&F.sim, 0xffffffffffffffffull)[0], 0xa5);	/* nothing written */
	/* ranges that end exactly at the top are whole */
	o = kdb_cmd("md 0xfffffffffffffff0 1");
	assert_string_equal(o, "0xfffffffffffffff0 a5a5a5a5a5a5a5a5 a5a5a5a5a5a5a5a5   ................\n");
	assert_string_equal(kdb_cmd("mdr 0xfffffffffffffffe 2"), "a5a5\n");
	assert_string_equal(kdb_cmd("mm1 0xffffffffffffffff 0x5a"), "0xffffffffffffffff = 0x5a\n");
	assert_int_equal(sim_target_mem(&F.sim, 0xffffffffffffffffull)[0], 0x5a);
	assert_has(kdb_cmd("bph 0xfffffffffffffff8 dataw 8"), "Data Write BP #16 at 0xfffffffffffffff8");
	assert_int_equal(F.sim.wrap_asks, 0);
	/* the debugger's own bytes: refused by the target (EPERM), said so */
	assert_string_equal(kdb_cmd("mm kgdb_breakpoint 0"),
			    "mm: 0xffffffff81001000 is the debugger's own code or data: not writable\n"
			    "diag: -22: Permission denied\n");
	assert_has(kdb_cmd("md kgdb_breakpoint 1"), "0xffffffff81001000 ");	/* reads stay allowed */
}

/* Linux's kdb_rd(): dbg_reg_def[] names, widths and order, wrapped before 80 columns. */
static void test_rd_rm(void **state)
{
	const char *o = kdb_cmd("rd");

	assert_has(o, "ax: 1111111111111111  bx: 0000000000002222  cx: 0000000000003333\n"
		      "dx: 0000000000004444  si: 0000000000005555  di: 0000000000006666\n"
		      "bp: 0000000000010800  sp: 00000000000107e8  r8: 0000000000000008\n"
		      "r9: 0000000000000009  r10: 000000000000000a  r11: 000000000000000b\n"
		      "r12: 000000000000000c  r13: 000000000000000d  r14: 000000000000000e\n"
		      "r15: 000000000000000f  ip: ffffffff81000010  flags: 00000246  cs: 00000010\n"
		      "ss: 00000018  ds: 00000018  es: 00000018  fs: 00000000  gs: 00000000\n");
	/* ekdb's registers beyond Linux's list follow in the same layout */
	assert_has(o, "cr3: 0000000001234000");
	assert_has(o, "dr7: 0000000000000400\n");
	assert_hasnt(o, "rax");
	assert_hasnt(o, "xmm0");
	for (const char *l = o; *l; ) {
		const char *nl = strchr(l, '\n');

		assert_true(nl - l <= 80);
		l = nl + 1;
	}
	assert_string_equal(kdb_cmd("rm %ax 0x42"), "");
	assert_int_equal(F.sim.regs[0].rax, 0x42);
	assert_string_equal(kdb_cmd("rm flags 0x202"), "");
	assert_int_equal(F.sim.regs[0].eflags, 0x202);
	kdb_cmd("rm ip setup_arch");
	assert_int_equal(F.sim.regs[0].rip, SIM_SYM_SETUP_ARCH);
	kdb_cmd("rm rbx 7");			/* gdb's names too */
	assert_int_equal(F.sim.regs[0].rbx, 7);
	assert_has(kdb_cmd("rm %bogus 1"), "diag: -17: Invalid register name");
	assert_has(kdb_cmd("rm %ax"), "diag: -2: Improper argument count");
	assert_has(kdb_cmd("rm %ax 0xzz"), "diag: -15: Illegal numeric value");
	/* pid of a task that is not running: no registers (Linux's kdb_check_regs()) */
	assert_has(kdb_cmd("pid 1"), "KDB current process is kheartbeat(pid=1)");
	assert_string_equal(kdb_cmd("rd"), "No current kdb registers.  You may need to select "
			    "another task\ndiag: -17: Invalid register name\n");
	assert_string_equal(kdb_cmd("rm ax 0x99"), "No current kdb registers.  You may need to "
			    "select another task\ndiag: -17: Invalid register name\n");
	assert_int_equal(F.sim.regs[0].rax, 0x42);	/* CPU 0's ax untouched */
	kdb_cmd("pid 0");				/* the running task: its CPU's registers */
	assert_has(kdb_cmd("rd"), "ax: 0000000000000042");
	kdb_cmd("pid 1");
	kdb_cmd("pid R");
	assert_has(kdb_cmd("rd"), "ax: 0000000000000042");
}

/* ef prints the frame as Linux's show_regs(): CPU line, __show_regs(SHOW_REGS_ALL), trace. */
static void test_ef(void **state)
{
	u64 frame[22] = { 0 };
	const char *o;

	frame[10] = 0xaaaa;			/* rax */
	frame[15] = 13;				/* vector: #GP has an error code */
	frame[16] = 0x18;			/* error code */
	frame[17] = SIM_SYM_MM_INIT + 4;	/* rip */
	frame[18] = 0x10;			/* cs */
	frame[19] = 0x246;			/* rflags */
	frame[20] = SIM_FRAME_BASE;		/* rsp */
	frame[21] = 0x18;			/* ss */
	memcpy(sim_target_mem(&F.sim, 0x10100), frame, sizeof(frame));
	o = kdb_cmd("ef 0x10100");
	assert_has(o, "CPU: 0 PID: 0 Comm: swapper/0 Not tainted 0.1-sim #1\n"
		      "RIP: 0010:mm_init+0x4/0x100\n"
		      "Code: 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90"
		      " 90 90 90 90 90 90 90 90 90 90 90 90 <90> 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90 90\n"
		      "RSP: 0018:0000000000010800 EFLAGS: 00000246 ORIG_RAX: 0000000000000018\n"
		      "RAX: 000000000000aaaa RBX: 0000000000000000 RCX: 0000000000000000\n");
	assert_has(o, "FS:  00007f0000001000(0000) GS:ffff888000000000(0000) knlGS:0000000000000abc\n"
		      "CS:  0010 DS: 0018 ES: 0018 CR0: 0000000080050033\n"
		      "CR2: 00000000dead0000 CR3: 0000000001234000 CR4: 00000000003606f0\n"
		      "Call Trace:\n <TASK>\n");
	assert_hasnt(o, "DR0:");		/* debug registers at their reset values */
	assert_has(kdb_cmd("ef 0x2ff0"), "diag: -21: Invalid address");
	assert_has(kdb_cmd("ef"), "diag: -2: Improper argument count");
}

/* Linux's kdb_printbp(): two lines then a blank one; hardtype is the kind's number. */
static void test_bp(void **state)
{
	const char *o = kdb_cmd("bp setup_arch");

	assert_string_equal(o, "Instruction(i) BP #0 at 0xffffffff81000100 (setup_arch)\n"
			    "    is enabled   addr at ffffffff81000100, hardtype=0 installed=0\n\n");
	assert_int_equal(sim_target_bp_count(&F.sim, EKDB_BP_SW), 1);
	/* gdb plants one too: bl shows both */
	F.sim.ops.bp_set(&F.sim.t, EKDB_BP_BY_GDB, EKDB_BP_SW, SIM_SYM_MM_INIT, 1);
	o = kdb_cmd("bl");
	assert_string_equal(o, "Instruction(i) BP #0 at 0xffffffff81000100 (setup_arch)\n"
			    "    is enabled   addr at ffffffff81000100, hardtype=0 installed=0\n\n"
			    "Instruction(i) BP #1 at 0xffffffff81000400 (mm_init)\n"
			    "    is enabled   addr at ffffffff81000400, hardtype=0 installed=0\n\n");
	o = kdb_cmd("bph jiffies dataw 8");
	assert_string_equal(o, "Data Write BP #16 at 0x0000000000001100 (jiffies)\n"
			    "    is enabled   addr at 0000000000001100, hardtype=2 installed=0\n\n");
	/* issue 19: the hits the target counted, on their own line once there are some */
	F.sim.bp_hits[0] = 2;
	F.sim.bp_hits[16] = 1;
	assert_string_equal(kdb_cmd("bl"),
			    "Instruction(i) BP #0 at 0xffffffff81000100 (setup_arch)\n"
			    "    is enabled   addr at ffffffff81000100, hardtype=0 installed=0\n"
			    "    hits=2\n\n"
			    "Instruction(i) BP #1 at 0xffffffff81000400 (mm_init)\n"
			    "    is enabled   addr at ffffffff81000400, hardtype=0 installed=0\n\n"
			    "Data Write BP #16 at 0x0000000000001100 (jiffies)\n"
			    "    is enabled   addr at 0000000000001100, hardtype=2 installed=0\n"
			    "    hits=1\n\n");
	F.sim.bp_hits[0] = F.sim.bp_hits[16] = 0;
	assert_has(kdb_cmd("bph init_task+8 datar"), "Data Access BP #17 at 0x0000000000001208 (init_task+0x8)\n"
						  "    is enabled   addr at 0000000000001208, hardtype=4");
	assert_has(kdb_cmd("bph mm_init"), "Instruction(Register) BP #18");
	assert_string_equal(kdb_cmd("bd 0"), "Breakpoint 0 at 0xffffffff81000100 disabled\n");
	assert_string_equal(kdb_cmd("bd 0"), "");	/* already disabled: Linux says nothing */
	assert_has(kdb_cmd("bl"), "    is disabled  addr at ffffffff81000100");
	assert_string_equal(kdb_cmd("be 0"), "Breakpoint 0 at 0xffffffff81000100 enabled\n");
	assert_string_equal(kdb_cmd("bc mm_init"), "Breakpoint 1 at 0xffffffff81000400 cleared\n");
	assert_int_equal(sim_target_bp_count(&F.sim, EKDB_BP_SW), 1);
	assert_has(kdb_cmd("bc *"), "cleared");
	assert_string_equal(kdb_cmd("bl"), "");	/* empty table: nothing */
}

static void test_bp_errors(void **state)
{
	assert_has(kdb_cmd("bp 0x3000"), "diag: -21: Invalid address");
	assert_has(kdb_cmd("bp kgdb_breakpoint"), "diag: -22: Permission denied");
	assert_has(kdb_cmd("bp kgdb_breakpoint"), "kgdb_breakpoint: the debugger cannot stop there");
	assert_has(kdb_cmd("bp nosuch"), "diag: -15: Illegal numeric value");
	assert_has(kdb_cmd("bp 0x1000 0x2000"), "diag: -2: Improper argument count");
	assert_has(kdb_cmd("bph 0x1001 dataw 4"), "diag: -19: Invalid length field");
	assert_has(kdb_cmd("bph 0x1000 dataw 3"), "Invalid length field");
	assert_has(kdb_cmd("bph 0x1000 datax"), "diag: -14: Invalid IDMODE");
	assert_has(kdb_cmd("bph 0x1000 inst 4"), "Improper argument count");
	kdb_cmd("bph 0x1000");
	kdb_cmd("bph 0x1008");
	kdb_cmd("bph 0x1010");
	kdb_cmd("bph 0x1018");
	assert_has(kdb_cmd("bph 0x1020"), "diag: -11: More breakpoints than db registers defined");
	assert_has(kdb_cmd("bc 5"), "diag: -13: Breakpoint not found");
	assert_has(kdb_cmd("bc 0x1234567"), "Breakpoint not found");
	assert_has(kdb_cmd("bc"), "Improper argument count");
	assert_has(kdb_cmd("bd 1 2"), "Improper argument count");
	F.sim.ops.bp_get = NULL;
	assert_has(kdb_cmd("bl"), "diag: -7: Command not implemented");
}

/* The diagnostics Linux 6.x's kdb gives where ekdb once gave others (kdb_bp.c, kdb_main.c). */
static void test_linux_diag_numbers(void **state)
{
	char cmd[32];

	/* kdb_bp(): address 0 is "Illegal numeric value" */
	assert_string_equal(kdb_cmd("bp 0"), "diag: -15: Illegal numeric value\n");
	/* a full table: -10, not the debug registers' -11 */
	for (int i = 0; i < SIM_MAX_SW_BPS; i++) {
		snprintf(cmd, sizeof(cmd), "bp 0x%x", 0x1100 + 8 * i);
		assert_has(kdb_cmd(cmd), "is enabled");
	}
	assert_string_equal(kdb_cmd("bp 0x1800"), "diag: -10: Too many breakpoints defined\n");
	/* kdb_go(): more than one word is the argument count */
	assert_string_equal(kdb_run("go x y\n"), "[0]kdb> go x y\ndiag: -2: Improper argument count, see usage.\n[0]kdb> ");
	assert_has(kdb_run("go x\n"), "diag: -15: Illegal numeric value\n");
	kdb_run("go mm_init + 4\n");		/* one expression over three words (ekdb) */
	assert_int_equal(F.r.action, EKDB_RESUME_CONTINUE);
	assert_int_equal(F.r.pc, SIM_SYM_MM_INIT + 4);
	/* kdb_rm(): a register outside Linux's dbg_reg_def[] is "Invalid register name" */
	assert_string_equal(kdb_cmd("rm cr0 1"), "diag: -17: Invalid register name\n");
	assert_string_equal(kdb_cmd("rm fs_base 1"), "diag: -17: Invalid register name\n");
	assert_string_equal(kdb_cmd("rm cr0"), "diag: -2: Improper argument count, see usage.\n");
	assert_string_equal(kdb_cmd("rm rax 5"), "");	/* gdb's name of Linux's ax (ekdb) */
	/* kdb_pid(): an unknown pid is a message, no diag, and the selection stays */
	assert_string_equal(kdb_cmd("pid 99"), "No task with pid=99\n");
	assert_string_equal(kdb_cmd("pid x"), "diag: -15: Illegal numeric value\n");
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
	assert_has(kdb_run("go 0x1 2\n"), "diag: -2: Improper argument count");
	assert_int_equal(F.r.action, EKDB_RESUME_EOF);
	kdb_run("ss\n");
	assert_int_equal(F.r.action, EKDB_RESUME_STEP);
	/* Enter repeats ss after the step; Linux's kdb_machreg_fmt is 0x%lx */
	assert_has(kdb_run_bytes("\n", 1, EKDB_STOP_STEP, true), "due to SS trap @ 0xffffffff81000010\n");
	assert_int_equal(F.r.action, EKDB_RESUME_STEP);
	assert_has(kdb_run("ss 1\n"), "Improper argument count");
	kdb_run("s\n");				/* ss has minlen 1 */
	assert_int_equal(F.r.action, EKDB_RESUME_STEP);
	kdb_run("g\n");				/* go too */
	assert_int_equal(F.r.action, EKDB_RESUME_CONTINUE);
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

	assert_string_equal(o, "Currently on cpu 0\nAvailable cpus: 0-1\n");
	o = kdb_run("cpu 1\nrd\n");
	assert_has(o, "\nEntering kdb (current=0x0000000000000000, pid 0) on processor 1 due to cpu switch\n[1]kdb> ");
	assert_has(o, "ax: 1111111211111111");
	o = kdb_run("cpu 1\ncpu\n");
	assert_has(o, "[1]kdb> cpu\nCurrently on cpu 1\nAvailable cpus: 0(-), 1\n");
	assert_has(kdb_run("cpu 0\ncpu 5\n"), "diag: -18: Invalid cpu number");
	assert_has(kdb_cmd("cpu 0xq"), "diag: -15: Illegal numeric value");
	F.sim.ops.cpu_select = NULL;	/* falls back to threads */
	assert_has(kdb_run("cpu 1\nrd\n"), "ax: 1111111211111111");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, kdb_fix_setup_unpaged)	/* outputs checked whole */
	const struct CMUnitTest tests[] = {
		T(test_md), T(test_md_errors), T(test_range_at_top), T(test_mdr_mds_mdp), T(test_mm), T(test_rd_rm),
		T(test_ef), T(test_bp), T(test_bp_errors), T(test_linux_diag_numbers), T(test_go_ss), T(test_ssb), T(test_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
