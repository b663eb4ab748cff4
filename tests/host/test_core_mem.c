/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_core_mem.c - host tests of the debug core's user memory access
 * (core/mem.c) and the debugger's own ranges (core/bp.c), issue 19:
 *
 *  - writes into the debugger's code, data or bss are refused (-EKDB_EPERM)
 *    and leave the bytes alone; reads of them stay allowed;
 *  - the part of the bss given back at the handoff (the early storage) is
 *    ordinary memory afterwards: writable and watchable;
 *  - a range that runs past 2^64 is refused (-EKDB_ERANGE) by reads, writes
 *    and breakpoints before memory is touched; one that ends at the top is
 *    whole.
 *
 * The debugger's sections are arrays of this program; memory is reached
 * through fake arch_dbg_probe_read/arch_dbg_probe_write that count their calls.
 *  - the handoff's table move (dbg_bp_table_move) keeps every entry at
 *    its number when the table has a hole: #0 and #2 set, #1 cleared,
 *    after the move #0 and #2 are the same entries and #1 is free.
 *
 *  - more of the host's code refused like the debugger's own
 *    (dbg_bp_add_nobp_range, Linux's stop-path glue and an AP's code
 *    before its IDT): breakpoints, watchpoints and writes there get
 *    -EKDB_EPERM, the bytes around stay ordinary; an empty range is
 *    -EKDB_EINVAL, the 17th -EKDB_ENOSPC.
 *
 * Bad input tried: a write of one byte in data, in bss, in text, a write
 * that starts just below data and runs into it, one that covers all of
 * data from below; a read/write/watchpoint at 0xfffffffffffffff8 for 16
 * bytes and at 0xffffffffffffffff for 2; a write of 2^64-1 bytes from 2.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "../../core/debug_core.h"
#include <ekdb/errno.h>
#include <ekdb/range.h>

/* The sections: arrays, their end symbols set just past them (as a linker script would). */
char _text[64], dbg_text[64], dbg_data[64], dbg_bss[256];
__asm__(".globl _etext\n.set _etext, _text + 64\n"
	".globl __ekdb_text_start\n.set __ekdb_text_start, dbg_text\n"
	".globl __ekdb_text_end\n.set __ekdb_text_end, dbg_text + 64\n"
	".globl __ekdb_data_start\n.set __ekdb_data_start, dbg_data\n"
	".globl __ekdb_data_end\n.set __ekdb_data_end, dbg_data + 64\n"
	".globl __ekdb_bss_start\n.set __ekdb_bss_start, dbg_bss\n"
	".globl __ekdb_bss_end\n.set __ekdb_bss_end, dbg_bss + 256\n");
extern char _etext[], __ekdb_text_start[], __ekdb_text_end[], __ekdb_data_start[],
	    __ekdb_data_end[], __ekdb_bss_start[], __ekdb_bss_end[];
static char kernel_data[64];		/* not the debugger's */

#define A0(p) ((u64)(p))

/* What the fake memory lets the core reach: the arrays above. */
#define NAREAS 5
static struct { char *p; size_t n; } areas[NAREAS] = {
	{ _text, sizeof(_text) }, { dbg_text, sizeof(dbg_text) }, { dbg_data, sizeof(dbg_data) },
	{ dbg_bss, sizeof(dbg_bss) }, { kernel_data, sizeof(kernel_data) },
};
static unsigned probes;

static char *reach(u64 a, size_t len)
{
	for (int i = 0; i < NAREAS; i++)
		if (a >= (u64)areas[i].p && len <= areas[i].n && a - (u64)areas[i].p <= areas[i].n - len)
			return (char *)a;
	return NULL;
}

size_t arch_dbg_probe_read(void *dst, u64 src, size_t len)
{
	probes++;
	if (!reach(src, len))
		return 0;
	memcpy(dst, (const void *)src, len);
	return len;
}

size_t arch_dbg_probe_write(u64 dst, const void *src, size_t len)
{
	probes++;
	if (!reach(dst, len))
		return 0;
	memcpy((void *)dst, src, len);
	return len;
}

/* Every poke that changes a byte of _text, the last one's new byte (the patchability check's log). */
static unsigned text_changes;
static u8 text_last_new;
static u64 text_unpokable;		/* a byte of _text the poke cannot write (0: none) */

size_t arch_dbg_text_poke(u64 addr, const void *src, size_t len)
{
	if (text_unpokable && addr <= text_unpokable && text_unpokable - addr < len)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (addr + i >= A0(_text) && addr + i < A0(_text) + sizeof(_text) &&
		    ((const u8 *)src)[i] != (u8)_text[addr + i - A0(_text)]) {
			text_changes++;
			text_last_new = ((const u8 *)src)[i];
		}
	return arch_dbg_probe_write(addr, src, len);
}

bool arch_hw_bp_len_ok(u64 addr, unsigned len)
{
	return (len == 1 || len == 2 || len == 4 || len == 8) && !(addr & (len - 1));
}

bool arch_hw_bp_addr_ok(u64 addr)
{
	return (u64)((s64)(addr << 16) >> 16) == addr;
}

void arch_hw_bp_arm(const struct arch_hw_bp_slot *slots) { }
void arch_hw_bp_load(void) { }
void arch_hw_bp_disarm(void) { }

#define A(p) ((u64)(p))

static void test_range_helpers(void **state)
{
	assert_false(ekdb_range_wraps(0, 0));
	assert_false(ekdb_range_wraps(~0ull, 0));
	assert_false(ekdb_range_wraps(~0ull, 1));		/* the last byte */
	assert_false(ekdb_range_wraps(0xfffffffffffffff8ull, 8));	/* ends at 2^64 */
	assert_true(ekdb_range_wraps(0xfffffffffffffff8ull, 9));
	assert_true(ekdb_range_wraps(~0ull, 2));
	assert_true(ekdb_range_wraps(0xffffffffffffff80ull, 0x100));
	assert_false(ekdb_range_wraps(1, ~0ull));		/* [1, 2^64) */
	assert_true(ekdb_range_wraps(2, ~0ull));
	assert_false(ekdb_range_wraps(0, ~0ull));
	assert_true(ekdb_range_overlaps(0xfffffffffffffff8ull, 8, 0xfffffffffffffff0ull, ~0ull));
	assert_false(ekdb_range_overlaps(0x100, 0x10, 0x110, 0x120));	/* touching, not sharing */
	assert_true(ekdb_range_overlaps(0x100, 0x11, 0x110, 0x120));
	assert_false(ekdb_range_overlaps(0x100, 0, 0x100, 0x120));	/* empty range */
	assert_false(ekdb_range_overlaps(0x100, 0x10, 0x120, 0x120));	/* empty area */
}

static void test_write_refused_in_debugger(void **state)
{
	u8 v = 0x5a, back;

	memset(dbg_data, 0x11, sizeof(dbg_data));
	memset(dbg_bss, 0x22, sizeof(dbg_bss));
	memset(dbg_text, 0x33, sizeof(dbg_text));
	assert_int_equal(dbg_mem_write(A(__ekdb_data_start) + 8, &v, 1), -EKDB_EPERM);
	assert_int_equal(dbg_mem_write(A(__ekdb_bss_start) + 200, &v, 1), -EKDB_EPERM);
	assert_int_equal(dbg_mem_write(A(__ekdb_text_start), &v, 1), -EKDB_EPERM);
	assert_int_equal(__ekdb_data_start[8], 0x11);
	assert_int_equal(__ekdb_bss_start[200], 0x22);
	assert_int_equal(__ekdb_text_start[0], 0x33);
	/* reads of the debugger stay allowed */
	assert_int_equal(dbg_mem_read(A(__ekdb_data_start) + 8, &back, 1), 1);
	assert_int_equal(back, 0x11);
	assert_int_equal(dbg_mem_read(A(__ekdb_bss_start) + 200, &back, 1), 1);
	assert_int_equal(back, 0x22);
	/* the kernel's own data is writable */
	assert_int_equal(dbg_mem_write(A(kernel_data) + 3, &v, 1), 1);
	assert_int_equal(kernel_data[3], 0x5a);
	/* the same refusal as for watchpoints */
	assert_int_equal(dbg_bp_set(EKDB_BP_WRITE, A(__ekdb_data_start), 8, DBG_OWNER_GDB), -EKDB_EPERM);
	assert_int_equal(dbg_bp_set(EKDB_BP_WRITE, A(kernel_data), 8, DBG_OWNER_GDB), 0);
	assert_int_equal(dbg_bp_clear_index(0), 0);
}

static void test_write_into_debugger_from_outside(void **state)
{
	static u8 buf[sizeof(dbg_data) + 64];
	u64 end_of_data = A(__ekdb_data_end);

	/* any range that shares one byte with the data is refused */
	assert_true(dbg_addr_is_debugger(A(__ekdb_data_start) - 1, 2));
	assert_true(dbg_addr_is_debugger(A(__ekdb_data_start) - 8, sizeof(buf)));
	assert_true(dbg_addr_is_debugger(end_of_data - 1, 4));
	assert_int_equal(dbg_mem_write(A(__ekdb_data_start) - 1, buf, 2), -EKDB_EPERM);
	assert_int_equal(dbg_mem_write(A(__ekdb_data_start) - 8, buf, sizeof(buf)), -EKDB_EPERM);
	assert_false(dbg_addr_is_debugger(A(__ekdb_data_start) - 8, 8));	/* just below: not */
	assert_false(dbg_addr_is_debugger(end_of_data, 8));		/* just after: not */
	/* and the debugger's range tests do not wrap either */
	assert_false(dbg_addr_is_debugger(0xfffffffffffffff8ull, 8));
}

static void test_released_early_storage_is_ordinary(void **state)
{
	u64 start = A(__ekdb_bss_start) + 64, end = A(__ekdb_bss_start) + 128;
	u8 v = 0x77;

	assert_int_equal(dbg_mem_write(start, &v, 1), -EKDB_EPERM);
	dbg_addr_release(start, end);
	assert_int_equal(dbg_mem_write(start, &v, 1), 1);
	assert_int_equal(dbg_mem_write(end - 1, &v, 1), 1);
	assert_int_equal(__ekdb_bss_start[64], 0x77);
	assert_int_equal(dbg_bp_set(EKDB_BP_WRITE, start, 8, DBG_OWNER_KDB), 0);
	assert_int_equal(dbg_bp_clear_index(0), 0);
	/* the rest of the bss is still the debugger's, on both sides */
	assert_int_equal(dbg_mem_write(start - 1, &v, 1), -EKDB_EPERM);
	assert_int_equal(dbg_mem_write(end, &v, 1), -EKDB_EPERM);
	assert_int_equal(dbg_mem_write(end - 1, &v, 2), -EKDB_EPERM);	/* straddles */
	dbg_addr_release(0, 0);
}

static void test_wrap_refused_before_access(void **state)
{
	u8 buf[16] = { 0 };

	probes = 0;
	assert_int_equal(dbg_mem_read(0xfffffffffffffff8ull, buf, 16), -EKDB_ERANGE);
	assert_int_equal(dbg_mem_read(~0ull, buf, 2), -EKDB_ERANGE);
	assert_int_equal(dbg_mem_write(0xfffffffffffffff8ull, buf, 16), -EKDB_ERANGE);
	assert_int_equal(dbg_mem_write(2, buf, (size_t)~0ull), -EKDB_ERANGE);
	assert_int_equal(probes, 0);	/* refused before memory was touched */
	/* ending at the top is whole: asked of memory (which has nothing there) */
	assert_int_equal(dbg_mem_read(0xfffffffffffffff8ull, buf, 8), -EKDB_EFAULT);
	assert_int_equal(probes, 1);
	/* breakpoints: the last 8 bytes may be watched, a range past them not */
	assert_int_equal(dbg_bp_set(EKDB_BP_WRITE, 0xfffffffffffffffcull, 8, DBG_OWNER_GDB), -EKDB_ERANGE);
	assert_int_equal(dbg_bp_set(EKDB_BP_ACCESS, ~0ull, 2, DBG_OWNER_GDB), -EKDB_ERANGE);
	assert_int_equal(dbg_bp_set(EKDB_BP_WRITE, 0xfffffffffffffff8ull, 8, DBG_OWNER_GDB), 0);
	assert_int_equal(dbg_bp_clear_index(0), 0);
}

/*
 * The handoff moves the early table into the allocated one: a cleared entry
 * in the middle (a hole) stays a hole, the others keep their numbers,
 * type, state, owner, hits and installed int3s (issue 19, planted bug 1:
 * renumbered at the handoff when the table has a hole).
 */
static void test_table_move_keeps_numbers_across_a_hole(void **state)
{
	static struct dbg_bp big[64];
	u64 a0 = A(_text) + 1, a1 = A(_text) + 2, a2 = A(_text) + 3, w = A(kernel_data) + 8;
	const struct dbg_bp *b;

	memset(_text, 0x90, sizeof(_text));
	assert_int_equal(dbg_bp_set(EKDB_BP_SW, a0, 1, DBG_OWNER_KDB), 0);
	assert_int_equal(dbg_bp_set(EKDB_BP_SW, a1, 1, DBG_OWNER_GDB), 1);
	assert_int_equal(dbg_bp_set(EKDB_BP_WRITE, w, 8, DBG_OWNER_KDB), 2);
	assert_int_equal(dbg_bp_set(EKDB_BP_SW, a2, 1, DBG_OWNER_GDB | DBG_OWNER_KDB), 3);
	assert_int_equal(dbg_bp_clear_index(1), 0);		/* the hole */
	dbg_bp_hit(2);
	dbg_bp_hit(2);
	dbg_bp_install_all(0);
	assert_int_equal((u8)_text[1], 0xcc);

	dbg_bp_table_move(big, 64, NULL);
	assert_int_equal(dbg_bp_capacity(), 64);
	b = dbg_bp_get(0);
	assert_non_null(b);
	assert_int_equal(b->addr, a0);
	assert_int_equal(b->type, EKDB_BP_SW);
	assert_true(b->installed);
	assert_null(dbg_bp_get(1));				/* still a hole */
	b = dbg_bp_get(2);
	assert_non_null(b);
	assert_int_equal(b->addr, w);
	assert_int_equal(b->type, EKDB_BP_WRITE);
	assert_int_equal(b->len, 8);
	assert_int_equal(b->hits, 2);
	b = dbg_bp_get(3);
	assert_non_null(b);
	assert_int_equal(b->addr, a2);
	assert_int_equal(b->owner, DBG_OWNER_GDB | DBG_OWNER_KDB);
	assert_null(dbg_bp_get(4));
	assert_int_equal(dbg_bp_find_sw(a2), 3);
	assert_int_equal(dbg_bp_find_sw(a1), -1);
	/* the next new entry fills the hole, not a number past the end */
	assert_int_equal(dbg_bp_set(EKDB_BP_SW, a1, 1, DBG_OWNER_KDB), 1);
	dbg_bp_uninstall_all();
	for (int i = 0; i < 4; i++)
		assert_int_equal(dbg_bp_clear_index(i), 0);
	assert_int_equal((u8)_text[1], 0x90);			/* text restored */
}

/*
 * Setting a software breakpoint checks that its byte can be patched without
 * writing a break instruction there (issue 19: a CPU the round-up missed
 * may run that code while it holds an int3 that is no breakpoint).  The
 * check writes the byte it read back; the int3 goes in only when the table
 * is armed.  An address that cannot be written (outside the fake memory)
 * is refused with -EKDB_EFAULT.
 */
static void test_patchability_check_writes_no_int3(void **state)
{
	u64 a = A(_text) + 5;

	memset(_text, 0x90, sizeof(_text));
	_text[5] = (char)0x55;
	text_changes = 0;
	assert_int_equal(dbg_bp_set(EKDB_BP_SW, a, 1, DBG_OWNER_GDB), 0);
	assert_int_equal(text_changes, 0);			/* nothing but the same byte */
	assert_int_equal((u8)_text[5], 0x55);
	assert_int_equal(dbg_bp_find_sw(a), 0);
	assert_int_equal(dbg_bp_get(0)->saved, 0x55);
	dbg_bp_install_all(0);					/* armed: now the int3 */
	assert_int_equal(text_changes, 1);
	assert_int_equal(text_last_new, 0xcc);
	dbg_bp_uninstall_all();
	assert_int_equal((u8)_text[5], 0x55);
	assert_int_equal(dbg_bp_clear_index(0), 0);
	/* readable but not patchable: refused, nothing written */
	text_changes = 0;
	text_unpokable = A(_text) + 7;
	assert_int_equal(dbg_bp_set(EKDB_BP_SW, A(_text) + 7, 1, DBG_OWNER_GDB), -EKDB_EFAULT);
	text_unpokable = 0;
	assert_int_equal(text_changes, 0);
	assert_null(dbg_bp_get(0));
}

/* Last: the added ranges stay for the rest of the program. */
static void test_added_nobp_ranges(void **state)
{
	u64 a = A(kernel_data) + 16;
	u8 v = 0x42;

	assert_int_equal(dbg_bp_add_nobp_range(a, a), -EKDB_EINVAL);
	assert_int_equal(dbg_bp_add_nobp_range(a + 8, a), -EKDB_EINVAL);
	assert_int_equal(dbg_bp_add_nobp_range(a, a + 8), 0);
	assert_int_equal(dbg_bp_add_nobp_range(a + 24, a + 32), 0);
	assert_true(dbg_addr_is_debugger(a + 7, 1));
	assert_true(dbg_addr_is_debugger(a + 28, 8));		/* straddles the end */
	assert_false(dbg_addr_is_debugger(a + 8, 16));		/* between the two */
	assert_int_equal(dbg_bp_set(EKDB_BP_WRITE, a, 8, DBG_OWNER_KDB), -EKDB_EPERM);
	assert_int_equal(dbg_bp_set(EKDB_BP_HW, a + 24, 1, DBG_OWNER_GDB), -EKDB_EPERM);
	assert_int_equal(dbg_mem_write(a + 3, &v, 1), -EKDB_EPERM);
	assert_int_equal(dbg_mem_write(a + 8, &v, 1), 1);
	assert_int_equal(dbg_bp_set(EKDB_BP_WRITE, a + 8, 8, DBG_OWNER_KDB), 0);
	assert_int_equal(dbg_bp_clear_index(0), 0);
	/*
	 * room for 96 (NOBP_EXTRA in core/bp.c: Linux's glue adds about 60),
	 * at addresses none of this program's arrays hold
	 */
	for (u64 i = 2; i < 96; i++)
		assert_int_equal(dbg_bp_add_nobp_range(0x100000 + 2 * i, 0x100001 + 2 * i), 0);
	assert_int_equal(dbg_bp_add_nobp_range(0x100000, 0x100001), -EKDB_ENOSPC);
	assert_false(dbg_addr_is_debugger(0x100000, 1));
	assert_true(dbg_addr_is_debugger(0x100000 + 2 * 95, 1));
	assert_false(dbg_addr_is_debugger(0x100001 + 2 * 95, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_range_helpers),
		cmocka_unit_test(test_write_refused_in_debugger),
		cmocka_unit_test(test_write_into_debugger_from_outside),
		cmocka_unit_test(test_released_early_storage_is_ordinary),
		cmocka_unit_test(test_wrap_refused_before_access),
		cmocka_unit_test(test_table_move_keeps_numbers_across_a_hole),
		cmocka_unit_test(test_patchability_check_writes_no_int3),
		cmocka_unit_test(test_added_nobp_ranges),
	};

	return cmocka_run_group_tests_name("core_mem", tests, NULL, NULL);
}
