/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_gdb_stop.c - stop replies: signal, thread, reason, and the registers
 * they carry (issue 23: frame registers always, the arguments at a
 * breakpoint, all of g on a stop in another function or at a function's
 * first byte; Hg kept across a stop reply; no symbols, no guess).
 */
#include "gdb_test_util.h"
#include "gdb_sim_expect.h"

static void test_stop_replies(void **state)
{
	static const struct {
		enum ekdb_stop_reason reason;
		int signal;
		u64 thread;
		const char *want;
	} tab[] = {
		{ EKDB_STOP_ENTRY, 5, 1, "T05thread:1;" GPRS1 "core:0;" },	/* first stop */
		{ EKDB_STOP_ENTRY, 5, 1, "T05thread:1;" EXP1 },		/* same function */
		{ EKDB_STOP_SWBREAK, 5, 2, "T05thread:2;" BRK2 "swbreak:;" },
		{ EKDB_STOP_HWBREAK, 5, 1, "T05thread:1;" BRK1 "hwbreak:;" },
		{ EKDB_STOP_WATCH, 5, 1, "T05thread:1;" BRK1 "watch:1000;" },
		{ EKDB_STOP_RWATCH, 5, 1, "T05thread:1;" BRK1 "rwatch:1000;" },
		{ EKDB_STOP_AWATCH, 5, 1, "T05thread:1;" BRK1 "awatch:1000;" },
		{ EKDB_STOP_STEP, 5, 1, "T05thread:1;" EXP1 },
		{ EKDB_STOP_INTERRUPT, 0, 1, "T02thread:1;" EXP1 },
		{ EKDB_STOP_INTERRUPT, 2, 1, "T02thread:1;" EXP1 },
		{ EKDB_STOP_FAULT, 0, 1, "T0bthread:1;" EXP1 },
		{ EKDB_STOP_FAULT, 4, 1, "T04thread:1;" EXP1 },
		{ EKDB_STOP_PANIC, 0, 1, "T05thread:1;" EXP1 },
		{ EKDB_STOP_SYSRQ, 0, 0, "T05thread:1;" EXP1 },	/* thread from target */
		{ EKDB_STOP_ENTRY, 999, 1, "T05thread:1;" EXP1 },	/* bad signal */
	};
	int (*sym_by_addr)(struct ekdb_target *, u64, struct ksym *);
	struct gt *g = gt_new(2);
	size_t i;

	gt_ask(g, "qSupported:swbreak+;hwbreak+");
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		g->stop.reason = tab[i].reason;
		g->stop.signal = tab[i].signal;
		g->stop.thread = tab[i].thread;
		g->stop.watch_addr = 0x1000;
		assert_string_equal(gt_ask(g, "?"), tab[i].want);
	}
	/* gdb that did not announce swbreak+/hwbreak+ does not get them */
	gt_ask(g, "qSupported:multiprocess+");
	g->stop.reason = EKDB_STOP_SWBREAK;
	g->stop.thread = 1;
	assert_string_equal(gt_ask(g, "?"), "T05thread:1;" BRK1);
	g->stop.reason = EKDB_STOP_HWBREAK;
	assert_string_equal(gt_ask(g, "?"), "T05thread:1;" BRK1);
	/* within one stop: after Hg2 the stop reply still shows thread 1's
	 * registers, and p goes on reading thread 2's (the selection
	 * survives the stop reply); Hg0 is the stopped thread again */
	g->stop.reason = EKDB_STOP_STEP;
	gt_add_packet(g, "Hg2");
	gt_add_packet(g, "?");
	gt_add_packet(g, "p7");
	assert_int_equal(gt_run(g), 3);
	assert_string_equal(g->reply, "002e000000000000");
	assert_non_null(strstr(g->ch.out, "$OK#"));
	gt_add_packet(g, "Hg2");
	gt_add_packet(g, "?");
	assert_int_equal(gt_run(g), 2);
	assert_string_equal(g->reply, "T05thread:1;" EXP1);
	gt_add_packet(g, "Hg2");
	gt_add_packet(g, "Hg0");
	gt_add_packet(g, "p7");
	assert_int_equal(gt_run(g), 3);
	assert_string_equal(g->reply, "002f000000000000");
	/* a stop on thread 2 with thread 1 selected: thread 2's frame */
	g->stop.thread = 2;
	gt_add_packet(g, "Hg1");
	gt_add_packet(g, "?");
	assert_int_equal(gt_run(g), 2);
	assert_string_equal(g->reply, "T05thread:2;" EXP2);
	gt_add_packet(g, "Hg1");
	gt_add_packet(g, "?");
	gt_add_packet(g, "p7");
	assert_int_equal(gt_run(g), 3);
	assert_string_equal(g->reply, "002f000000000000");
	/* a step that lands on a function's first instruction (setup_arch):
	 * gdb prints the new frame with its arguments and their values at
	 * entry (unwinding the caller), so all of g rides along; one byte in
	 * (the same function): the frame registers only */
	g->stop.thread = 1;
	g->sim.regs[0].rip = SIM_TEXT_BASE + 0x100;
	assert_string_equal(gt_ask(g, "?"), "T05thread:1;" GPRS_HEAD "10:00010081ffffffff;"
			    SEGS "core:0;");
	g->sim.regs[0].rip = SIM_TEXT_BASE + 0x101;
	assert_string_equal(gt_ask(g, "?"), "T05thread:1;06:002f000000000000;"
			    "07:002f000000000000;10:01010081ffffffff;core:0;");
	g->sim.regs[0].rip = SIM_TEXT_BASE + 0x100;
	sym_by_addr = g->sim.ops.sym_by_addr;
	g->sim.ops.sym_by_addr = NULL;		/* no symbols: no guess */
	assert_string_equal(gt_ask(g, "?"), "T05thread:1;06:002f000000000000;"
			    "07:002f000000000000;10:00010081ffffffff;core:0;");
	/* a stop in another function than the last (a return to a caller, an
	 * interrupt): rax..rip, where that function's arguments may be */
	g->sim.ops.sym_by_addr = sym_by_addr;
	g->sim.regs[0].rip = SIM_TEXT_BASE + 0x150;	/* setup_arch+0x50 */
	gt_ask(g, "?");
	assert_non_null(strstr(g->reply, "00:1111111111111111;01:2222000000000000;"));
	assert_non_null(strstr(g->reply, "0f:0f00000000000000;10:50010081ffffffff;" SEGS "core:0;"));
	g->sim.regs[0].rip = SIM_TEXT_BASE + 0x160;	/* the same function */
	assert_string_equal(gt_ask(g, "?"), "T05thread:1;06:002f000000000000;"
			    "07:002f000000000000;10:60010081ffffffff;core:0;");
	g->sim.regs[0].rip = SIM_TEXT_BASE + 0x20;	/* back in start_kernel */
	gt_ask(g, "?");
	assert_non_null(strstr(g->reply, "00:1111111111111111;"));
	/* a new gdb (qSupported) sees its first stop whole, even in the same place */
	gt_add_packet(g, "qSupported:swbreak+");
	gt_add_packet(g, "?");
	assert_int_equal(gt_run(g), 2);
	assert_non_null(strstr(g->reply, "00:1111111111111111;"));
	assert_string_equal(gt_ask(g, "?"), "T05thread:1;06:002f000000000000;"
			    "07:002f000000000000;10:20000081ffffffff;core:0;");
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stop_replies),
	};

	return cmocka_run_group_tests_name("gdb stop replies", tests, NULL, NULL);
}
