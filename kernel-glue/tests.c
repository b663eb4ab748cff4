/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests.c - test-only kernel parameters, run at the end of boot:
 *   test_alloc         the allocator self-test (kmalloc_selftest), right after mm_init
 *   test_oops=null     NULL dereference in oops_test_null_deref()
 *   test_oops=ud       ud2 in oops_test_invalid_opcode()
 *   test_oops=gp       non-canonical access in oops_test_general_protection()
 *   test_oops=panic    panic() from oops_test_panic()
 *   test_fbdraw[=MS]   a thread draws a moving pattern on the kms screen (drivers/fbdraw.c)
 */
#include <kernel/kernel.h>
#include <kernel/drivers.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <ekdb/string.h>

__noinline void oops_test_null_deref(void);
__noinline void oops_test_null_deref(void)
{
	volatile int *p = NULL;

	*p = 0x1234;
}

__noinline void oops_test_invalid_opcode(void);
__noinline void oops_test_invalid_opcode(void)
{
	__asm__ __volatile__("ud2");
}

__noinline void oops_test_general_protection(void);
__noinline void oops_test_general_protection(void)
{
	volatile u64 *p = (volatile u64 *)0x8000000000000000ULL;

	(void)*p;
}

__noinline void oops_test_panic(void);
__noinline void oops_test_panic(void)
{
	panic("test_oops=panic requested");
}

static const struct {
	const char *name;
	void (*fn)(void);
} oops_tests[] = {
	{ "null", oops_test_null_deref },
	{ "ud", oops_test_invalid_opcode },
	{ "gp", oops_test_general_protection },
	{ "panic", oops_test_panic },
};

/* The allocator self-test uses up all memory for a moment: one CPU, no threads yet. */
void run_mm_selftest(void)
{
	if (cmdline_has("test_alloc"))
		kmalloc_selftest();
}

void run_boot_tests(void)
{
	const char *oops = cmdline_get("test_oops");

	serial_linetest();		/* test_linerate= (make bench) */
	console_selftests();		/* test_kbd= test_fbbench= */
	fbdraw_start();			/* test_fbdraw= */
	if (!oops)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(oops_tests); i++) {
		if (!strcmp(oops, oops_tests[i].name)) {
			pr_notice("test_oops: triggering '%s'\n", oops);
			oops_tests[i].fn();
			return;
		}
	}
	pr_err("test_oops: unknown kind '%s' (null, ud, gp, panic)\n", oops);
}
