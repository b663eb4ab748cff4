/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_gdb_cmds.c - every gdbstub packet handler against the sim target,
 * as kgdbts-style tables of {request, expected reply}, good and bad input.
 */
#include "gdb_case.h"

#include "gdb_sim_expect.h"


static void test_queries(void **state)
{
	static const struct gdb_case tab[] = {
		{ "qSupported:multiprocess+;swbreak+;hwbreak+;xmlRegisters=i386",
		  "PacketSize=7ff;qXfer:features:read+;vContSupported+;QStartNoAckMode+;swbreak+;hwbreak+" },
		{ "qSupported:binary-upload+",
		  "PacketSize=7ff;qXfer:features:read+;vContSupported+;QStartNoAckMode+;swbreak+;hwbreak+;binary-upload+" },
		{ "qSupported", "PacketSize=7ff;*" },
		{ "qAttached", "1" },
		{ "qAttached:1", "1" },
		{ "qOffsets", "Text=0;Data=0;Bss=0" },
		{ "qC", "QC1" },
		{ "qCRC:1000,4", "" },
		{ "qfoo", "" },
		{ "q", "" },
		{ "Q", "" },
		{ "QStartNoAckModeX", "" },
		{ "vMustReplyEmpty", "" },
		{ "vCont?", "vCont;c;C;s;S;t" },
		{ "vCont", "" },
		{ "vKill;1", "" },
		{ "!", "" },
		{ "", "" },
		{ "\x7f\x01", "" },
	};
	struct gt *g = gt_new(2);

	RUN(g, tab);
	g->sim.t.text_offset = 0x1000000;
	assert_string_equal(gt_ask(g, "qOffsets"), "Text=1000000;Data=1000000;Bss=1000000");
	/* with the image's run-time base: the segment form, which moves
	 * .rodata too (gdb: every later segment by the first one's offset) */
	g->sim.t.text_base = 0xffffffff81200000ull;
	assert_string_equal(gt_ask(g, "qOffsets"), "TextSeg=ffffffff81200000");
}

static void test_memory(void **state)
{
	static const struct gdb_case tab[] = {
		{ "m1000,4", "00010203" },
		{ "m1000,1", "00" },
		{ "m1000,0", "" },
		{ "m2ffe,4", "feff" },		/* short read at the hole */
		{ "m3000,4", "E0e" },		/* in the hole */
		{ "mdead0000,8", "E0e" },
		{ "mffffffffffffffff,10", "E22" },	/* runs past 2^64: ERANGE */
		{ "m1000", "E16" },
		{ "m1000,", "E16" },
		{ ",4", "" },
		{ "m,4", "E16" },
		{ "mzz,4", "E16" },
		{ "m1000,4x", "E16" },
		{ "m10000000000000000,1", "E16" },	/* address > 64 bits */
		{ "m1000,fffffffffffffffff", "E16" },
		{ "M1000,2:abcd", "OK" },
		{ "m1000,2", "abcd" },
		{ "M1000,2:ABCD", "OK" },
		{ "m1000,2", "abcd" },
		{ "M1000,0:", "OK" },
		{ "M1000,2:abc", "E16" },
		{ "M1000,2:abcdef", "E16" },
		{ "M1000,2:zzzz", "E16" },
		{ "M1000,2", "E16" },
		{ "M1000:abcd", "E16" },
		{ "M3000,1:00", "E0e" },
		{ "M2fff,2:0000", "E0e" },		/* crosses into the hole */
		{ "M1000,ffffffffffffffff:00", "E16" },
		{ "X1000,0:", "OK" },
		{ "X3000,0:", "OK" },
		{ "X1000,3:abc", "OK" },
		{ "m1000,3", "616263" },
		{ "X1000,1:}", "E16" },		/* lone escape */
		{ "X1000,2:a", "E16" },
		{ "X1000,1:ab", "E16" },
		{ "X1000,1", "E16" },
		{ "X3000,1:a", "E0e" },
		{ "x1000,0", "OK" },
		{ "x3000,4", "E0e" },
		{ "x1000", "E16" },
	};
	struct gt *g = gt_new(1);
	char big[64];
	const char *r;

	RUN(g, tab);
	/* escaped binary: '}' 0x03 is '#', '}' 0x5d is '}' */
	gt_add_packet_n(g, "X1000,3:}\x03}\x5d*", 13);
	gt_run(g);
	assert_string_equal(g->reply, "OK");
	assert_string_equal(gt_ask(g, "m1000,3"), "237d2a");
	/* x returns raw binary, escaped; lldb style without 'b' */
	gt_ask(g, "x1000,3");
	assert_int_equal(g->reply_len, 6);
	assert_memory_equal(g->reply, "}\x03}\x5d}\x0a", 6);
	assert_string_equal(gt_ask(g, "M1000,4:00010223"), "OK");
	gt_ask(g, "x1000,4");
	assert_int_equal(g->reply_len, 5);
	assert_memory_equal(g->reply, "\x00\x01\x02}\x03", 5);
	/* with gdb's binary-upload the data has a 'b' prefix */
	gt_ask(g, "qSupported:binary-upload+");
	gt_ask(g, "x1000,2");
	assert_int_equal(g->reply_len, 3);
	assert_memory_equal(g->reply, "b\x00\x01", 3);
	/* huge lengths are clamped to what fits the buffer */
	r = gt_ask(g, "m1000,ffffffff");
	assert_int_equal(strlen(r), GT_BUF);
	r = gt_ask(g, "x1000,ffffffff");
	assert_true(g->reply_len <= GT_BUF);
	/* a read crossing the end of RAM0 from far below stops at the hole */
	snprintf(big, sizeof(big), "m%llx,100", (unsigned long long)(SIM_RAM0_BASE + SIM_RAM0_SIZE - 2));
	/* (0x2fff was zeroed by the partial "M2fff,2" above, which still said E0e) */
	assert_string_equal(gt_ask(g, big), "fe00");
}

/* A layout whose g carries rax alone and whose stop expedites rip and a register that does not exist. */
static void test_layout_rip_only(struct ekdb_target *t, struct ekdb_reg_layout *l)
{
	l->g_count = 1;
	l->n_expedite = 2;
	l->expedite[0] = 0x10;
	l->expedite[1] = 0x400;	/* out of range: left out */
}

/*
 * Issue 19: a range that runs past 2^64 is refused whole (E22, ERANGE)
 * by every packet that names one, and the target is never asked for it
 * (the sim maps the last page, 0xa5 bytes, so without the check the
 * reply would be a partial read, or a write would land there).  Bad
 * input tried: m/x/M/X from 0xffffffffffffff80 for 0x100 bytes, one byte
 * too many at the very top, a length of 2^64-1, Z0 with a kind of 2 at
 * the last byte, Z2/Z3/Z4 with lengths that cross the top (aligned and
 * not), z2 of such a range.  Ranges that end exactly at 2^64 are whole
 * and allowed.
 */
static void test_range_at_top(void **state)
{
	static const struct gdb_case tab[] = {
		{ "mffffffffffffff80,100", "E22" },
		{ "mffffffffffffffff,2", "E22" },
		{ "mfffffffffffffff0,ffffffffffffffff", "E22" },
		{ "mfffffffffffffff8,8", "a5a5a5a5a5a5a5a5" },	/* ends at 2^64: whole */
		{ "mffffffffffffffff,1", "a5" },
		{ "xffffffffffffff80,100", "E22" },
		{ "xffffffffffffffff,2", "E22" },
		{ "Mfffffffffffffffe,4:01020304", "E22" },
		{ "Xfffffffffffffffe,4:abcd", "E22" },
		{ "mfffffffffffffffe,2", "a5a5" },		/* nothing written */
		{ "Mfffffffffffffffe,2:0102", "OK" },
		{ "Xffffffffffffffff,1:c", "OK" },
		{ "mfffffffffffffffd,3", "a50163" },
		{ "Z0,ffffffffffffffff,2", "E22" },
		{ "Z1,ffffffffffffffff,2", "E22" },
		{ "Z2,fffffffffffffffc,8", "E22" },
		{ "Z2,ffffffffffffffff,2", "E22" },
		{ "Z3,fffffffffffffffe,4", "E22" },
		{ "Z4,fffffffffffffff8,10", "E22" },
		{ "z2,fffffffffffffffc,8", "E22" },
		{ "Z2,fffffffffffffff8,8", "OK" },		/* the last 8 bytes: whole */
		{ "z2,fffffffffffffff8,8", "OK" },
	};
	struct gt *g = gt_new(1);

	RUN(g, tab);
	assert_int_equal(g->sim.wrap_asks, 0);
	assert_int_equal(sim_target_bp_count(&g->sim, EKDB_BP_WRITE), 0);
}

static void test_registers(void **state)
{
	static const struct gdb_case tab[] = {
		{ "p0", "1111111111111111" },
		{ "p7", "002f000000000000" },
		{ "p10", "10000081ffffffff" },	/* rip */
		{ "p11", "46020000" },			/* eflags, 32 bit */
		{ "p12", "10000000" },			/* cs */
		{ "p18", "xxxxxxxxxxxxxxxxxxxx" },	/* st0: unavailable */
		{ "p28", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" },	/* xmm0 */
		{ "p38", "xxxxxxxx" },			/* mxcsr */
		{ "p39", "00100000007f0000" },		/* fs_base */
		{ "p3e", "0040230100000000" },		/* cr3 */
		{ "p47", "0004000000000000" },		/* dr7 */
		{ "p48", "E16" },
		{ "pffffffff", "E16" },
		{ "pfffffffffffffffffff", "E16" },
		{ "p", "E16" },
		{ "pzz", "E16" },
		{ "p0,", "E16" },
		{ "P0=4200000000000000", "OK" },
		{ "p0", "4200000000000000" },
		{ "P11=47020000", "OK" },
		{ "p11", "47020000" },
		{ "P0=42", "E16" },
		{ "P0=420000000000000000", "E16" },
		{ "P0=zz00000000000000", "E16" },
		{ "P18=00000000000000000000", "E01" },	/* unavailable: EPERM */
		{ "P18=xxxxxxxxxxxxxxxxxxxx", "OK" },
		{ "P48=00", "E16" },
		{ "P0", "E16" },
		{ "P=00", "E16" },
		{ "gx", "E16" },
		{ "G", "E16" },
		{ "G0", "E16" },
		{ "G001122", "E16" },
	};
	struct gt *g = gt_new(2);
	char *greply, *gpkt;
	size_t glen;

	RUN(g, tab);
	gt_ask(g, "g");
	glen = g->reply_len;
	/* a lean g: rax..rip, eflags, cs..gs (164 bytes); the rest by 'p' */
	assert_int_equal(glen, 2 * (17 * 8 + 7 * 4));
	assert_memory_equal(g->reply, "4200000000000000", 16);
	assert_memory_equal(g->reply + 136 * 2, "47020000", 8);
	assert_memory_equal(g->reply + glen - 8, "00000000", 8);	/* gs */
	assert_null(strchr(g->reply, 'x'));	/* nothing unavailable is sent */
	/* G with what g returned, rax changed: OK and read back */
	greply = strdup(g->reply);
	gpkt = malloc(glen + 2);
	gpkt[0] = 'G';
	memcpy(gpkt + 1, greply, glen + 1);
	memcpy(gpkt + 1, "0100000000000000", 16);
	assert_string_equal(gt_ask(g, gpkt), "OK");
	assert_string_equal(gt_ask(g, "p0"), "0100000000000000");
	gt_ask(g, "g");
	assert_memory_equal(g->reply + 16, greply + 16, glen - 16);
	/* a whole-file G (an older client's) is still taken: the lean part
	 * written, the unavailable x87/SSE "xx" skipped, the rest checked */
	{
		char full[2 * 656 + 2];
		size_t k;

		full[0] = 'G';
		memcpy(full + 1, greply, glen);
		for (k = 1 + glen; k < sizeof(full) - 1; k++)
			full[k] = 'x';
		full[sizeof(full) - 1] = '\0';
		assert_string_equal(gt_ask(g, full), "OK");
		full[sizeof(full) - 2] = '\0';	/* not at a register boundary */
		assert_string_equal(gt_ask(g, full), "E16");
	}
	/* a target without a layout: g carries every register, as before */
	g->sim.ops.reg_layout = NULL;
	gt_ask(g, "g");
	assert_int_equal(g->reply_len, 1312);
	assert_string_equal(gt_ask(g, "?"), "T05thread:1;core:0;");
	g->sim.ops.reg_layout = test_layout_rip_only;
	assert_string_equal(gt_ask(g, "?"), "T05thread:1;10:10000081ffffffff;core:0;");
	gt_ask(g, "g");
	assert_string_equal(g->reply, "4200000000000000");	/* g_count 1: rax alone */
	/* G may stop at a register boundary; not inside one */
	gpkt[1 + 16] = '\0';
	memcpy(gpkt + 1, "0200000000000000", 16);
	assert_string_equal(gt_ask(g, gpkt), "OK");
	assert_string_equal(gt_ask(g, "p0"), "0200000000000000");
	gpkt[1 + 16] = '0';
	gpkt[1 + 20] = '\0';
	assert_string_equal(gt_ask(g, gpkt), "E16");
	/* G with bad hex in a register: nothing written, not even rax before it */
	memcpy(gpkt + 1, greply, glen + 1);
	memcpy(gpkt + 1, "0300000000000000", 16);
	gpkt[1 + 40] = 'q';
	assert_string_equal(gt_ask(g, gpkt), "E16");
	assert_string_equal(gt_ask(g, "p0"), "0200000000000000");
	/* ... nor when the bad value is in the last register sent */
	memcpy(gpkt + 1, greply, glen + 1);
	memcpy(gpkt + 1, "0300000000000000", 16);
	gpkt[1 + glen - 1] = 'q';
	assert_string_equal(gt_ask(g, gpkt), "E16");
	assert_string_equal(gt_ask(g, "p0"), "0200000000000000");
	/* ... nor when a register is cut in half at the end */
	memcpy(gpkt + 1, greply, glen + 1);
	memcpy(gpkt + 1, "0300000000000000", 16);
	gpkt[1 + 16 + 4] = '\0';
	assert_string_equal(gt_ask(g, gpkt), "E16");
	assert_string_equal(gt_ask(g, "p0"), "0200000000000000");
	free(gpkt);
	/* G longer than the register file does not fit our buffer: E07 or NAK */
	free(greply);
}

static void test_breakpoints(void **state)
{
	static const struct gdb_case tab[] = {
		{ "Z0,ffffffff81000020,1", "OK" },
		{ "Z0,ffffffff81000020,1", "OK" },		/* again: idempotent */
		{ "z0,ffffffff81000020,1", "OK" },
		{ "z0,ffffffff81000020,1", "E02" },		/* no such breakpoint */
		{ "Z0,3000,1", "E0e" },				/* unmapped */
		/* debugger-owned: refused with the reason gdb shows (issue 21) */
		{ "Z0,ffffffff81001010,1", "E.01.in the debugger's own code or data (or code it "
		  "runs while the machine is stopped): the debugger does not break or watch "
		  "itself, refused" },
		{ "Z1,ffffffff81001000,1", "E.01.in the debugger's own code or data (or code it "
		  "runs while the machine is stopped): the debugger does not break or watch "
		  "itself, refused" },
		{ "Z2,ffffffff81001000,8", "E.01.in the debugger's own code or data (or code it "
		  "runs while the machine is stopped): the debugger does not break or watch "
		  "itself, refused" },
		{ "z0,ffffffff81001010,1", "E02" },		/* removing: no such breakpoint */
		{ "Z0,ffffffff81000020,2", "E16" },
		{ "Z0,ffffffff81000020,1;X2,0102", "OK" },	/* conditions ignored */
		{ "Z0,ffffffff81000020,1;", "OK" },
		{ "Z2,1001,4", "E16" },				/* misaligned */
		{ "Z2,1000,3", "E16" },				/* bad length */
		{ "Z3,1000,10", "E16" },
		{ "Z5,1000,1", "" },				/* unknown type */
		{ "Zf,1000,1", "" },
		{ "Z0,1000", "E16" },
		{ "Z0", "E16" },
		{ "Z", "E16" },
		{ "Z0,,1", "E16" },
		{ "Z0,1000,1x", "E16" },
		{ "Z0,1000,fffffffff", "E16" },
		{ "Z1,ffffffff81000000,1", "OK" },
		{ "Z2,1000,8", "OK" },
		{ "Z3,1008,4", "OK" },
		{ "Z4,1010,2", "OK" },
		{ "Z4,1020,1", "E1c" },				/* fifth hw slot: ENOSPC */
		{ "Z1,ffffffff81000010,1", "E1c" },
		{ "z4,1010,2", "OK" },
		{ "Z4,1020,1", "OK" },
		{ "z2,1000,4", "E02" },
		{ "z9,1000,1", "" },
	};
	struct gt *g = gt_new(1);

	RUN(g, tab);
	assert_int_equal(sim_target_bp_count(&g->sim, EKDB_BP_SW), 1);
	assert_int_equal(sim_target_bp_count(&g->sim, EKDB_BP_HW), 1);
	/* a target without bp ops says "unsupported" */
	g->sim.ops.bp_set = NULL;
	g->sim.ops.bp_remove = NULL;
	assert_string_equal(gt_ask(g, "Z0,ffffffff81000030,1"), "");
	assert_string_equal(gt_ask(g, "z0,ffffffff81000030,1"), "");
}

static void test_threads(void **state)
{
	static const struct gdb_case tab[] = {
		{ "qfThreadInfo", "m1,2,3" },
		{ "qsThreadInfo", "l" },
		{ "qsThreadInfo", "l" },
		{ "qC", "QC1" },
		{ "T1", "OK" },
		{ "T3", "OK" },
		{ "T4", "E02" },
		{ "T0", "E02" },
		{ "T-1", "E02" },
		{ "T", "E16" },
		{ "Tzz", "E16" },
		{ "T1x", "E16" },
		{ "Hg2", "OK" },
		{ "p7", "002e000000000000" },
		{ "p0", "1111111112111111" },
		{ "Hg0", "OK" },
		{ "p7", "002f000000000000" },
		{ "Hg3", "OK" },
		{ "Hg-1", "OK" },
		{ "p7", "002f000000000000" },
		{ "Hg9", "E02" },
		{ "Hgzz", "E16" },
		{ "Hg", "E16" },
		{ "Hx1", "E16" },
		{ "H", "E16" },
		{ "Hc-1", "OK" },
		{ "Hc2", "OK" },
		{ "Hc7", "E02" },
		{ "qThreadExtraInfo,1", "4350552330205b73746f707065645d" },
		{ "qThreadExtraInfo,9", "E02" },
		{ "qThreadExtraInfo,zz", "E16" },
		{ "qThreadExtraInfo,", "E16" },
		{ "qThreadExtraInfo", "" },
	};
	static const struct gdb_case fixed[] = {
		{ "qThreadExtraInfo,2", "4350552331205b7061726b65645d" },
	};
	struct gt *g = gt_new(3);
	struct gdb_case t[sizeof(tab) / sizeof(tab[0])];
	char want[2][96];
	size_t i;

	/* spaces in the table above only make the hex readable */
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		t[i] = tab[i];
		if (strstr(t[i].want, "2043505523 ")) {
			const char *src = t[i].want;
			char *d = want[0];

			for (; *src; src++)
				if (*src != ' ')
					*d++ = *src;
			*d = '\0';
			t[i].want = want[0];
		}
	}
	RUN(g, t);
	{
		const char *src = fixed[0].want;
		char *d = want[1];

		for (; *src; src++)
			if (*src != ' ')
				*d++ = *src;
		*d = '\0';
		assert_string_equal(gt_ask(g, fixed[0].req), want[1]);
	}

	/* a target without thread ops: one thread, the stopped one */
	g = gt_new(1);
	g->sim.ops.thread_count = NULL;
	g->sim.ops.thread_get = NULL;
	g->sim.ops.thread_select = NULL;
	g->sim.ops.thread_current = NULL;
	g->stop.thread = 0;
	assert_string_equal(gt_ask(g, "qfThreadInfo"), "m1");
	assert_string_equal(gt_ask(g, "qsThreadInfo"), "l");
	assert_string_equal(gt_ask(g, "qC"), "QC1");
	assert_string_equal(gt_ask(g, "Hg1"), "OK");
	assert_string_equal(gt_ask(g, "Hg2"), "E02");
	/* no threads, but registers still ride the stop reply: a T packet;
	 * the first stop gdb sees is in a new function: all of rax..rip */
	assert_string_equal(gt_ask(g, "?"), "T05" GPRS1);
	/* the same function again: the frame registers only */
	assert_string_equal(gt_ask(g, "?"), "T05" FRAME1);
}

static void test_thread_list_paged(void **state)
{
	struct gt *g = gt_new(8);

	/* lists longer than a reply come in pieces; here they fit in one */
	assert_string_equal(gt_ask(g, "qfThreadInfo"), "m1,2,3,4,5,6,7,8");
	assert_string_equal(gt_ask(g, "qsThreadInfo"), "l");
}

static void expect_resume(struct gt *g, const char *req, enum ekdb_resume_action a,
			  bool set_pc, u64 pc, bool reply)
{
	int n;

	gt_add_packet(g, req);
	n = gt_run(g);
	if (g->res.action != a)
		fail_msg("\"%s\": action %d, want %d", req, g->res.action, a);
	assert_int_equal(g->res.set_pc, set_pc);
	if (set_pc)
		assert_int_equal(g->res.pc, pc);
	assert_int_equal(n, reply ? 1 : 0);
}

/* vCont with thread ids: who steps, who runs alone, who gets an error. */
static int busy_thread2(struct ekdb_target *t, u64 id)
{
	return id == 2 ? -EKDB_EBUSY : 0;
}

static void expect_vcont(struct gt *g, const char *req, enum ekdb_resume_action a, u64 thread,
			 bool only)
{
	expect_resume(g, req, a, false, 0, false);
	if (g->res.thread != thread || g->res.only != only)
		fail_msg("\"%s\": thread %llu only %d, want %llu %d", req,
			 (unsigned long long)g->res.thread, g->res.only,
			 (unsigned long long)thread, only);
}

static void test_vcont_threads(void **state)
{
	static const struct gdb_case bad[] = {
		{ "vCont;c:99", "E02" },	/* no such thread: an error, not a resume */
		{ "vCont;s:99", "E02" },
		{ "vCont;s:4;c", "E02" },
		{ "vCont;t:9", "E02" },
		{ "vCont;s:1;s:2", "E16" },	/* two CPUs cannot step at once */
		{ "vCont;s:1;s", "E16" },
		{ "vCont;c:1;c:2", "E16" },	/* some named, not all (3 threads) */
	};
	struct gt *g = gt_new(3);

	RUN(g, bad);
	expect_vcont(g, "vCont;s:2", EKDB_RESUME_STEP, 2, false);
	expect_vcont(g, "vCont;s:3;c", EKDB_RESUME_STEP, 3, false);
	expect_vcont(g, "vCont;S05:2;c:1", EKDB_RESUME_STEP, 2, false);
	expect_vcont(g, "vCont;s:2;s:2", EKDB_RESUME_STEP, 2, false);	/* leftmost wins */
	expect_vcont(g, "vCont;s", EKDB_RESUME_STEP, 0, false);		/* the stopped one */
	expect_vcont(g, "vCont;c:2", EKDB_RESUME_CONTINUE, 2, true);	/* 2 alone */
	expect_vcont(g, "vCont;c:2;t:1", EKDB_RESUME_CONTINUE, 2, true);
	expect_vcont(g, "vCont;c", EKDB_RESUME_CONTINUE, 0, false);
	expect_vcont(g, "vCont;c:1;c:2;c:3", EKDB_RESUME_CONTINUE, 0, false);
	expect_vcont(g, "vCont;c:-1", EKDB_RESUME_CONTINUE, 0, false);
	/* a thread the target does not hold (a CPU still running) cannot step */
	g->sim.ops.thread_resume_check = busy_thread2;
	gt_add_packet(g, "vCont;s:2");
	assert_int_equal(gt_run(g), 1);
	assert_string_equal(g->reply, "E10");
	expect_vcont(g, "vCont;s:3", EKDB_RESUME_STEP, 3, false);
}

static void test_run_control(void **state)
{
	static const struct gdb_case bad[] = {
		{ "czz", "E16" },
		{ "c1000x", "E16" },
		{ "Czz", "E16" },
		{ "C", "E16" },
		{ "C100", "E16" },
		{ "C05;", "E16" },
		{ "C05x", "E16" },
		{ "s;", "E16" },
		{ "vCont;x", "E16" },
		{ "vCont;C", "E16" },
		{ "vCont;c:zz", "E16" },
		{ "vCont;c;", "E16" },
		{ "vCont;c,s", "E16" },
		{ "vCont;", "E16" },
		{ "vCont;t", "OK" },
		{ "vCont;t:1;t:2", "OK" },
		{ "D;zz", "E16" },
		{ "D;", "E16" },
		{ "Dx", "E16" },
		{ "3x", "" },
	};
	struct gt *g = gt_new(2);

	RUN(g, bad);
	expect_resume(g, "c", EKDB_RESUME_CONTINUE, false, 0, false);
	expect_resume(g, "cffffffff81000100", EKDB_RESUME_CONTINUE, true, 0xffffffff81000100ull, false);
	expect_resume(g, "s", EKDB_RESUME_STEP, false, 0, false);
	expect_resume(g, "s1000", EKDB_RESUME_STEP, true, 0x1000, false);
	expect_resume(g, "C0b", EKDB_RESUME_CONTINUE, false, 0, false);
	assert_int_equal(g->res.signal, 11);
	expect_resume(g, "C05;2000", EKDB_RESUME_CONTINUE, true, 0x2000, false);
	expect_resume(g, "S05", EKDB_RESUME_STEP, false, 0, false);
	expect_resume(g, "vCont;c", EKDB_RESUME_CONTINUE, false, 0, false);
	expect_resume(g, "vCont;s:1;c", EKDB_RESUME_STEP, false, 0, false);
	expect_resume(g, "vCont;C02:2;c", EKDB_RESUME_CONTINUE, false, 0, false);
	expect_resume(g, "vCont;S05:-1", EKDB_RESUME_STEP, false, 0, false);
	expect_resume(g, "D", EKDB_RESUME_DETACH, false, 0, true);
	assert_string_equal(g->reply, "OK");
	assert_false(gdb_session_connected(&g->s));
	expect_resume(g, "D;1", EKDB_RESUME_DETACH, false, 0, true);
	expect_resume(g, "k", EKDB_RESUME_KILL, false, 0, false);
	expect_resume(g, "3", EKDB_RESUME_TO_KDB, false, 0, false);
	/* nothing after the resuming packet is read */
	gt_add_packet(g, "c");
	gt_add_packet(g, "?");
	gt_run(g);
	assert_int_equal(g->res.action, EKDB_RESUME_CONTINUE);
	assert_int_equal(g->ch.in_pos, 5);
}

static const char test_libs[] = "<library-list><library name=\"/b/loader.so\">"
				 "<segment address=\"0x1de33000\"/></library></library-list>";

static const char *sim_libraries(struct ekdb_target *t, size_t *len)
{
	*len = sizeof(test_libs) - 1;
	return test_libs;
}

static const char *sim_libraries_svr4(struct ekdb_target *t, size_t *len)
{
	*len = 4;
	return "svr4";
}

/*
 * qXfer:libraries:read / libraries-svr4:read: offered in qSupported only
 * when the target has a list (the loader lifetime), windowed like
 * target.xml; without one, E02 and no offer.
 */
static void test_xfer_libraries(void **state)
{
	static const struct gdb_case without[] = {
		{ "qSupported", "PacketSize=7ff;qXfer:features:read+;vContSupported+;QStartNoAckMode+;swbreak+;hwbreak+" },
		{ "qXfer:libraries:read::0,10", "E02" },
		{ "qXfer:libraries-svr4:read::0,10", "E02" },
	};
	static const struct gdb_case with[] = {
		{ "qSupported", "PacketSize=7ff;qXfer:features:read+;qXfer:libraries:read+;"
				"qXfer:libraries-svr4:read+;vContSupported+;QStartNoAckMode+;swbreak+;hwbreak+" },
		{ "qXfer:libraries:read::0,e", "m<library-list>" },
		{ "qXfer:libraries:read::e,1000", "l<library name=\"/b/loader.so\"><segment address="
						  "\"0x1de33000\"/></library></library-list>" },
		{ "qXfer:libraries:read::ffff,10", "l" },
		{ "qXfer:libraries-svr4:read::0,100", "lsvr4" },
		{ "qXfer:libraries-svr4:read::2,1", "mr" },
		/* bad input: an annex, missing or junk numbers */
		{ "qXfer:libraries:read:x:0,10", "E16" },
		{ "qXfer:libraries:read::0", "E16" },
		{ "qXfer:libraries:read::zz,10", "E16" },
		{ "qXfer:libraries:read::0,10,", "E16" },
		{ "qXfer:libraries:read:", "E16" },
		{ "qXfer:libraries-svr4:read::,", "E16" },
	};
	struct gt *g = gt_new(1);
	static struct ekdb_target_ops ops;

	RUN(g, without);
	ops = *g->sim.t.ops;
	ops.libraries_xml = sim_libraries;
	ops.libraries_svr4_xml = sim_libraries_svr4;
	g->sim.t.ops = &ops;
	RUN(g, with);
}

static void test_xfer_features(void **state)
{
	static const struct gdb_case tab[] = {
		{ "qXfer:features:read:target.xml:0,10", "m<?xml version=\"1" },
		{ "qXfer:features:read:target.xml:ffffff,10", "l" },
		{ "qXfer:features:read:foo.xml:0,10", "E02" },
		{ "qXfer:features:read::0,10", "E02" },
		{ "qXfer:features:read:target.xml:0", "E16" },
		{ "qXfer:features:read:target.xml:zz,10", "E16" },
		{ "qXfer:features:read:target.xml", "E16" },
		{ "qXfer:features:read:target.xml:0,10x", "E16" },
		{ "qXfer:features:read:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:0,1", "E07" },
		{ "qXfer:features:write:target.xml:0,10", "" },
		{ "qXfer:threads:read::0,10", "" },
	};
	struct gt *g = gt_new(1);
	char req[96], doc[16384];
	size_t off = 0;
	int rounds = 0;

	RUN(g, tab);
	/* read the whole document in gdb-sized pieces; reassemble */
	for (;;) {
		snprintf(req, sizeof(req), "qXfer:features:read:target.xml:%zx,3fb", off);
		gt_ask(g, req);
		assert_true(g->reply[0] == 'm' || g->reply[0] == 'l');
		assert_true(off + g->reply_len - 1 < sizeof(doc));
		memcpy(doc + off, g->reply + 1, g->reply_len - 1);
		off += g->reply_len - 1;
		rounds++;
		if (g->reply[0] == 'l')
			break;
		assert_true(rounds < 100);
	}
	doc[off] = '\0';
	assert_true(rounds > 1);
	assert_non_null(strstr(doc, "<architecture>i386:x86-64</architecture>"));
	assert_non_null(strstr(doc, "org.gnu.gdb.i386.sse"));
	assert_non_null(strstr(doc, "name=\"cr3\""));
	assert_non_null(strstr(doc, "</target>\n"));
	/* a target without a description does not advertise qXfer */
	g->sim.ops.features_xml = NULL;
	assert_null(strstr(gt_ask(g, "qSupported"), "qXfer"));
	assert_string_equal(gt_ask(g, "qXfer:features:read:target.xml:0,10"), "E02");
}

static void test_monitor(void **state)
{
	struct gt *g = gt_new(1);
	char req[1200];
	int n;

	/* "echo hi" → O packet with "hi\n", then OK */
	gt_add_packet(g, "qRcmd,6563686f206869");
	n = gt_run(g);
	assert_int_equal(n, 3);	/* the sim writes "hi" and "\n" separately */
	assert_string_equal(g->reply, "OK");
	assert_non_null(strstr(g->ch.out, "$O6869#"));
	assert_non_null(strstr(g->ch.out, "$O0a#"));
	assert_string_equal(g->sim.last_monitor, "echo hi");
	assert_string_equal(gt_ask(g, "qRcmd,6661696c"), "E16");	/* "fail" */
	assert_string_equal(gt_ask(g, "qRcmd,zz"), "E16");
	assert_string_equal(gt_ask(g, "qRcmd,616"), "E16");
	assert_string_equal(gt_ask(g, "qRcmd,610062"), "E16");	/* embedded NUL */
	assert_string_equal(gt_ask(g, "qRcmd"), "");
	memset(req, 0, sizeof(req));
	strcpy(req, "qRcmd,");
	memset(req + 6, '6', 1100);
	assert_string_equal(gt_ask(g, req), "E07");
	/* empty command is passed through */
	assert_string_equal(gt_ask(g, "qRcmd,"), "OK");
	/* no monitor interpreter: a message, then OK */
	gdb_session_set_monitor(&g->s, NULL, NULL);
	gt_add_packet(g, "qRcmd,6d64");
	n = gt_run(g);
	assert_int_equal(n, 2);
	assert_string_equal(g->reply, "OK");
	assert_non_null(strstr(g->ch.out, "$O6d6f6e69746f7220636f6d6d616e6473"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queries),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_range_at_top),
		cmocka_unit_test(test_registers),
		cmocka_unit_test(test_breakpoints),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_thread_list_paged),
		cmocka_unit_test(test_run_control),
		cmocka_unit_test(test_vcont_threads),
		cmocka_unit_test(test_xfer_features),
		cmocka_unit_test(test_xfer_libraries),
		cmocka_unit_test(test_monitor),
	};

	return cmocka_run_group_tests_name("gdb_cmds", tests, NULL, NULL);
}
