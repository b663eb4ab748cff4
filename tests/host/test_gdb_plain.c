/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_gdb_plain.c - the gdbstub's plain mode (ekdb on Linux, whose own
 * gdbstub takes gdb's session over at the handoff): only what Linux's stub
 * offers, and threads numbered as Linux's stub numbers them.
 */
#include "gdb_case.h"

/*
 * gdb_set_plain (ekdb on Linux: Linux's gdbstub takes gdb's session over):
 * only what Linux's stub offers, so gdb negotiates nothing it would lose:
 * no target.xml, no vCont, no no-ack mode, no swbreak/hwbreak.
 */
static void test_plain(void **state)
{
	static const struct gdb_case tab[] = {
		{ "qSupported:multiprocess+;swbreak+;hwbreak+;xmlRegisters=i386", "PacketSize=7ff" },
		{ "vCont?", "" },
		{ "qXfer:features:read:target.xml:0,10", "" },
		{ "QStartNoAckMode", "" },
		{ "qAttached", "1" },
	};
	struct gt *g = gt_new(2);

	gdb_set_plain(true);
	RUN(g, tab);
	assert_false(g->s.gdb_swbreak || g->s.gdb_hwbreak || g->s.no_ack);
	gdb_set_plain(false);
	assert_string_equal(gt_ask(g, "vCont?"), "vCont;c;C;s;S;t");
	assert_string_equal(gt_ask(g, "qSupported"),
			    "PacketSize=7ff;qXfer:features:read+;vContSupported+;QStartNoAckMode+;swbreak+;hwbreak+");
}

/* The task list thread_task reads: CPU 0 idle, CPU 1 runs pid 57 "sh", CPU 2 unknown. */
static int linux_like_task(struct ekdb_target *t, u64 id, int *pid, char comm[16])
{
	if (id == 1) {
		*pid = 0;
		strcpy(comm, "swapper/0");
		return 0;
	}
	if (id == 2) {
		*pid = 57;
		strcpy(comm, "sh");
		return 0;
	}
	return -EKDB_ENOENT;
}

/*
 * Plain mode numbers threads as Linux's gdbstub: a CPU's running task's
 * pid, or the CPU's shadow id -(cpu + 2) in 32 bits for its idle task (or
 * no task), named as Linux names them; the target's own ids (CPU + 1)
 * mean nothing on the wire then (T2, Hg1: no such thread).
 */
static void test_plain_thread_ids(void **state)
{
	static const struct gdb_case tab[] = {
		{ "qfThreadInfo", "mfffffffe,39,fffffffc" },
		{ "qsThreadInfo", "l" },
		{ "qC", "QCfffffffe" },
		{ "Tfffffffe", "OK" },
		{ "T39", "OK" },
		{ "Tfffffffc", "OK" },
		{ "T1", "E02" },
		{ "T2", "E02" },
		{ "Tfffffffd", "E02" },
		{ "T-1", "E02" },
		{ "Tzz", "E16" },
		{ "Hg39", "OK" },
		{ "p7", "002e000000000000" },
		{ "Hg2", "E02" },
		{ "Hgfffffffe", "OK" },
		{ "p7", "002f000000000000" },
		{ "Hg-1", "OK" },
		{ "Hc39", "OK" },
		{ "Hc1", "E02" },
		{ "qThreadExtraInfo,fffffffe", "736861646f7743505530" },	/* shadowCPU0 */
		{ "qThreadExtraInfo,39", "7368" },			/* sh */
		{ "qThreadExtraInfo,fffffffc", "736861646f7743505532" },	/* shadowCPU2 */
		{ "qThreadExtraInfo,2", "E02" },
		/* gdb writes ids of 2^31 and up as negative 32-bit numbers */
		{ "qThreadExtraInfo,-2", "736861646f7743505530" },
		{ "T-2", "OK" },
		{ "T-4", "OK" },
		{ "T-3", "E02" },
		{ "Hg-4", "OK" },
		{ "Hc-2", "OK" },
		{ "T-0", "E16" },
		{ "T-", "E16" },
		{ "T-80000001", "E16" },
		{ "T--2", "E16" },
	};
	struct gt *g = gt_new(3);

	g->sim.ops.thread_task = linux_like_task;
	gdb_set_plain(true);
	RUN(g, tab);
	assert_true(!strncmp(gt_ask(g, "?"), "T05thread:fffffffe;", 19));
	/* no task list at all (thread_task NULL): every CPU is its shadow */
	g->sim.ops.thread_task = NULL;
	assert_string_equal(gt_ask(g, "qfThreadInfo"), "mfffffffe,fffffffd,fffffffc");
	assert_string_equal(gt_ask(g, "T39"), "E02");
	gdb_set_plain(false);
	g->sim.ops.thread_task = linux_like_task;
	assert_string_equal(gt_ask(g, "qfThreadInfo"), "m1,2,3");
	assert_string_equal(gt_ask(g, "T39"), "E02");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_plain_thread_ids),
	};

	return cmocka_run_group_tests_name("gdb_plain", tests, NULL, NULL);
}
