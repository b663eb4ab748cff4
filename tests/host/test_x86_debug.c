/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_x86_debug.c - host tests of the x86 side of the debugger's trap
 * policy: what a DR6 value says (which slot hit, a finished step), the
 * DR7 value for a set of slots, which watch lengths and addresses a slot
 * takes, the #BP decoder (int3 -> "break instruction at rip - 1") and the
 * vector -> gdb signal map.  The core's trap entry points are recording
 * fakes here; nothing touches real debug registers (the #DB decoder reads
 * DR6, so it is covered through x86_dr6_* and by the QEMU tests).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ekdb/ekdb.h>
#include <ekdb/gdb_signal.h>
#include <ekdb/string.h>
#include <asm/debug_trap.h>
#include <asm/debugreg.h>
#include <asm/desc.h>
#include <asm/fixup.h>
#include <asm/hw_breakpoint.h>
#include <asm/processor.h>

/* ---- fakes of what debug_trap.c calls: the IDT table, memory, the core ---- */
static x86_trap_fn handlers[256];
static u8 fake_text[16];
#define TEXT_BASE 0xffffffff81000000ULL
static int begins, ends, swbreaks;
static u64 swbreak_addr;
static bool swbreak_ret;

x86_trap_fn x86_set_trap_handler(unsigned vec, x86_trap_fn fn)
{
	x86_trap_fn old = handlers[vec & 0xff];

	handlers[vec & 0xff] = fn;
	return old;
}

size_t arch_dbg_probe_read(void *dst, u64 src, size_t len)
{
	if (src < TEXT_BASE || src + len > TEXT_BASE + sizeof(fake_text))
		return 0;	/* unmapped */
	memcpy(dst, &fake_text[src - TEXT_BASE], len);
	return len;
}

void dbg_trap_begin(void)
{
	begins++;
}

bool dbg_trap_end(struct pt_regs *regs, bool handled)
{
	ends++;
	return handled;
}

bool dbg_trap_swbreak(struct pt_regs *regs, u64 addr)
{
	swbreaks++;
	swbreak_addr = addr;
	return swbreak_ret;
}

bool dbg_trap_debug(struct pt_regs *regs, int slot, bool stepped)
{
	fail_msg("the #DB decoder reads DR6: not callable on the host");
	return false;
}

bool dbg_cpu_park(struct pt_regs *regs)
{
	return true;
}

/* ---- DR6 ---- */
static void test_dr6_slot_decode(void **state)
{
	/* DR6 as the CPU leaves it: reserved bits read as 1 */
	assert_int_equal(x86_dr6_hit_slot(DR6_RESERVED), -1);
	assert_int_equal(x86_dr6_hit_slot(0), -1);
	for (int s = 0; s < X86_HW_SLOTS; s++)
		assert_int_equal(x86_dr6_hit_slot(DR6_RESERVED | (DR6_B0 << s)), s);
	/* two conditions met at once: the lowest slot is reported */
	assert_int_equal(x86_dr6_hit_slot(DR6_RESERVED | 0xa), 1);
	assert_int_equal(x86_dr6_hit_slot(0xc), 2);
	/* a step or a DR access trap alone is no slot hit */
	assert_int_equal(x86_dr6_hit_slot(DR6_RESERVED | DR6_BS), -1);
	assert_int_equal(x86_dr6_hit_slot(DR6_RESERVED | DR6_BD), -1);
	assert_int_equal(x86_dr6_hit_slot(DR6_BS | (DR6_B0 << 3)), 3);
}

static void test_dr6_single_step(void **state)
{
	assert_true(x86_dr6_single_step(DR6_RESERVED | DR6_BS));
	assert_true(x86_dr6_single_step(DR6_BS | DR6_B0));
	assert_false(x86_dr6_single_step(DR6_RESERVED));
	assert_false(x86_dr6_single_step(DR6_RESERVED | DR6_B0 | DR6_BD));
	assert_false(x86_dr6_single_step(0));
}

/* ---- DR7 for a slot set ---- */
static void test_dr7_for_slot_set(void **state)
{
	struct arch_hw_bp_slot s[ARCH_HW_BP_SLOTS] = { 0 };

	assert_int_equal(ARCH_HW_BP_SLOTS, 4);
	/* nothing armed: only the bit that reads as 1 */
	assert_true(x86_hw_bp_dr7(s) == DR7_RESERVED1);
	/* an off slot is ignored whatever it holds */
	s[2] = (struct arch_hw_bp_slot){ .on = false, .type = EKDB_BP_WRITE, .len = 8, .addr = 0x1000 };
	assert_true(x86_hw_bp_dr7(s) == DR7_RESERVED1);
	/* slot 0 execute: G0, RW=00, LEN=00 (even if a length is given) */
	s[0] = (struct arch_hw_bp_slot){ .on = true, .type = EKDB_BP_HW, .len = 8, .addr = 0x2000 };
	assert_true(x86_hw_bp_dr7(s) == (DR7_RESERVED1 | 0x2));
	/* slot 1 write, 4 bytes: G1, RW1=01, LEN1=11 */
	s[1] = (struct arch_hw_bp_slot){ .on = true, .type = EKDB_BP_WRITE, .len = 4, .addr = 0x3000 };
	assert_true(x86_hw_bp_dr7(s) == (DR7_RESERVED1 | 0x2 | (1ULL << 3) | (1ULL << 20) | (3ULL << 22)));
	/* slot 3 read and slot 2 access, 8 and 2 bytes: both RW=11 (x86 has no read-only watch) */
	s[3] = (struct arch_hw_bp_slot){ .on = true, .type = EKDB_BP_READ, .len = 8, .addr = 0x4000 };
	s[2] = (struct arch_hw_bp_slot){ .on = true, .type = EKDB_BP_ACCESS, .len = 2, .addr = 0x5000 };
	assert_true(x86_hw_bp_dr7(s) == (DR7_RESERVED1 | 0x2 | (1ULL << 3) | (1ULL << 20) | (3ULL << 22) |
					 (1ULL << 5) | (3ULL << 24) | (1ULL << 26) |
					 (1ULL << 7) | (3ULL << 28) | (2ULL << 30)));
	/* each slot's bits stay inside its own field */
	for (unsigned i = 0; i < ARCH_HW_BP_SLOTS; i++) {
		struct arch_hw_bp_slot one[ARCH_HW_BP_SLOTS] = { 0 };

		one[i] = s[i];
		assert_true((x86_hw_bp_dr7(one) & ~DR7_RESERVED1 & ~x86_dr7_slot_mask(i)) == 0);
	}
}

static void test_slot_limits(void **state)
{
	static const unsigned good[] = { 1, 2, 4, 8 };

	for (unsigned i = 0; i < 4; i++) {
		assert_true(arch_hw_bp_len_ok(0x1000, good[i]));
		assert_true(arch_hw_bp_len_ok(0xffffffff81000000ULL + good[i], good[i]));
	}
	/* bad lengths and misaligned addresses */
	assert_false(arch_hw_bp_len_ok(0x1000, 0));
	assert_false(arch_hw_bp_len_ok(0x1000, 3));
	assert_false(arch_hw_bp_len_ok(0x1000, 16));
	assert_false(arch_hw_bp_len_ok(0x1001, 2));
	assert_false(arch_hw_bp_len_ok(0x1002, 4));
	assert_false(arch_hw_bp_len_ok(0x1004, 8));
	/* canonical addresses only (48 bits, sign-extended) */
	assert_true(arch_hw_bp_addr_ok(0));
	assert_true(arch_hw_bp_addr_ok(0x00007fffffffffffULL));
	assert_true(arch_hw_bp_addr_ok(0xffff800000000000ULL));
	assert_true(arch_hw_bp_addr_ok(0xffffffff81000000ULL));
	assert_false(arch_hw_bp_addr_ok(0x0000800000000000ULL));
	assert_false(arch_hw_bp_addr_ok(0xffff7fffffffffffULL));
	assert_false(arch_hw_bp_addr_ok(0x8000000000000000ULL));
}

/* ---- #BP and the vectors ---- */
static void test_traps_registered(void **state)
{
	memset(handlers, 0, sizeof(handlers));
	arch_dbg_traps_init();
	/* the public trap entry (<ekdb/ekdb.h>) is what the vectors run */
	assert_true(handlers[X86_TRAP_DB] == ekdb_trap_debug);
	assert_true(handlers[X86_TRAP_BP] == ekdb_trap_breakpoint);
	assert_true(handlers[X86_TRAP_NMI] == ekdb_trap_nmi);
	assert_true(handlers[X86_TRAP_DB] != handlers[X86_TRAP_BP]);
	for (unsigned v = 0; v < 256; v++)
		if (v != X86_TRAP_DB && v != X86_TRAP_BP && v != X86_TRAP_NMI)
			assert_null(handlers[v]);
}

static void test_int3_decode(void **state)
{
	struct pt_regs r = { .vector = X86_TRAP_BP, .rip = TEXT_BASE + 5, .rflags = 0x2 };

	memset(handlers, 0, sizeof(handlers));
	arch_dbg_traps_init();
	begins = ends = swbreaks = 0;
	swbreak_ret = true;
	/* the int3 is one byte: the breakpoint is at rip - 1, rip left for the core */
	assert_true(handlers[X86_TRAP_BP](&r));
	assert_int_equal(swbreaks, 1);
	assert_true(swbreak_addr == TEXT_BASE + 4);
	assert_true(r.rip == TEXT_BASE + 5);
	assert_int_equal(begins, 1);
	assert_int_equal(ends, 1);
	/* not consumed by the core: the handler says so (default: oops) */
	swbreak_ret = false;
	assert_false(handlers[X86_TRAP_BP](&r));
	assert_int_equal(ends, 2);
}

static void test_break_insn_at(void **state)
{
	memset(fake_text, 0x90, sizeof(fake_text));
	fake_text[3] = ARCH_BREAK_INSN;
	assert_int_equal(ARCH_BREAK_INSN, 0xcc);
	assert_true(arch_dbg_break_insn_at(TEXT_BASE + 3));
	assert_false(arch_dbg_break_insn_at(TEXT_BASE + 4));
	/* unreadable: no instruction there */
	assert_false(arch_dbg_break_insn_at(0xdead0000));
	assert_false(arch_dbg_break_insn_at(TEXT_BASE + sizeof(fake_text)));
}

static void test_resume_no_rehit(void **state)
{
	struct pt_regs r = { .rflags = 0x2 | X86_EFLAGS_IF };

	arch_dbg_resume_no_rehit(&r);
	assert_true(r.rflags == (0x2 | X86_EFLAGS_IF | X86_EFLAGS_RF));	/* RF only */
	arch_dbg_set_pc(&r, 0x1234);
	assert_true(arch_dbg_pc(&r) == 0x1234);
}

static void test_fault_signal(void **state)
{
	assert_int_equal(arch_dbg_fault_signal(X86_TRAP_DE), GDB_SIGFPE);
	assert_int_equal(arch_dbg_fault_signal(X86_TRAP_MF), GDB_SIGFPE);
	assert_int_equal(arch_dbg_fault_signal(X86_TRAP_XF), GDB_SIGFPE);
	assert_int_equal(arch_dbg_fault_signal(X86_TRAP_UD), GDB_SIGILL);
	assert_int_equal(arch_dbg_fault_signal(X86_TRAP_AC), GDB_SIGBUS);
	assert_int_equal(arch_dbg_fault_signal(X86_TRAP_GP), GDB_SIGSEGV);
	assert_int_equal(arch_dbg_fault_signal(X86_TRAP_PF), GDB_SIGSEGV);
	assert_int_equal(arch_dbg_fault_signal(X86_TRAP_DF), GDB_SIGSEGV);
	/* not an exception vector at all */
	assert_int_equal(arch_dbg_fault_signal(255), GDB_SIGSEGV);
	assert_int_equal(arch_dbg_fault_signal(100000), GDB_SIGSEGV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dr6_slot_decode),
		cmocka_unit_test(test_dr6_single_step),
		cmocka_unit_test(test_dr7_for_slot_set),
		cmocka_unit_test(test_slot_limits),
		cmocka_unit_test(test_traps_registered),
		cmocka_unit_test(test_int3_decode),
		cmocka_unit_test(test_break_insn_at),
		cmocka_unit_test(test_resume_no_rehit),
		cmocka_unit_test(test_fault_signal),
	};
	return cmocka_run_group_tests_name("x86_debug", tests, NULL, NULL);
}
