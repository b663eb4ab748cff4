/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gdb_sim_expect.h - the register values a stop reply carries for the sim
 * target's threads (tests/host/sim_target.c), as the stub expedites them
 * (struct ekdb_reg_layout, arch/x86/regs_table.c).
 */
#ifndef TESTS_GDB_SIM_EXPECT_H
#define TESTS_GDB_SIM_EXPECT_H

/* What a stop reply expedites for the sim's threads 1 and 2 (rbp, rsp, rip) and their CPU. */
#define FRAME1	"06:002f000000000000;07:002f000000000000;10:10000081ffffffff;"
#define FRAME2	"06:002f000000000000;07:002e000000000000;10:11000081ffffffff;"
#define EXP1	FRAME1 "core:0;"
#define EXP2	FRAME2 "core:1;"
/* ... and at a breakpoint or watchpoint, rdi rsi rdx rcx r8 r9 (a function's arguments) */
#define ARGS	"05:6666000000000000;04:5555000000000000;03:4444000000000000;" \
		"02:3333000000000000;08:0800000000000000;09:0900000000000000;"
#define BRK1	FRAME1 ARGS "core:0;"
/* ... and on a stop in another function than the last one, all of g */
#define GPRS_HEAD	"00:1111111111111111;01:2222000000000000;02:3333000000000000;" \
		"03:4444000000000000;04:5555000000000000;05:6666000000000000;" \
		"06:002f000000000000;07:002f000000000000;08:0800000000000000;" \
		"09:0900000000000000;0a:0a00000000000000;0b:0b00000000000000;" \
		"0c:0c00000000000000;0d:0d00000000000000;0e:0e00000000000000;" \
		"0f:0f00000000000000;"
#define SEGS	"11:46020000;12:10000000;13:18000000;14:18000000;15:18000000;" \
		"16:00000000;17:00000000;"
#define GPRS1	GPRS_HEAD "10:10000081ffffffff;" SEGS
#define BRK2	FRAME2 ARGS "core:1;"

#endif
