/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests.c - test-only kernel parameters, run at the end of boot:
 *   test_alloc         the allocator self-test (kmalloc_selftest), right after mm_init
 *   test_oops=null     NULL dereference in oops_test_null_deref()
 *   test_oops=ud       ud2 in oops_test_invalid_opcode()
 *   test_oops=gp       non-canonical access in oops_test_general_protection()
 *   test_oops=panic    panic() from oops_test_panic()
 *   test_oops=irq      NULL dereference inside the timer interrupt
 *   test_early_fault   NULL dereference in setup_arch() (early debugger entry)
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
	/*
	 * The pointer is volatile, not only what it points to: the compiler
	 * cannot know it is NULL, so it neither turns the store into a trap
	 * of its own nor drops the calls to this function as undefined.
	 */
	volatile int *volatile p = NULL;

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

/* test_oops=irq: the next timer interrupt dereferences NULL (an oops in IRQ context). */
volatile bool oops_test_in_irq;

__noinline void oops_test_irq(void);
__noinline void oops_test_irq(void)
{
	oops_test_in_irq = true;
	for (;;)
		__asm__ __volatile__("pause");
}

/* From the timer interrupt (kernel-glue/time.c) when test_oops=irq is armed. */
void oops_test_irq_fire(void)
{
	oops_test_in_irq = false;
	oops_test_null_deref();
}

/* test_early_fault: a NULL dereference in setup_arch(), right after the early debugger. */
void early_fault_test(void)
{
	if (cmdline_has("test_early_fault")) {
		pr_notice("test_early_fault: faulting in setup_arch()\n");
		oops_test_null_deref();
	}
}

static const struct {
	const char *name;
	void (*fn)(void);
} oops_tests[] = {
	{ "null", oops_test_null_deref },
	{ "ud", oops_test_invalid_opcode },
	{ "gp", oops_test_general_protection },
	{ "panic", oops_test_panic },
	{ "irq", oops_test_irq },
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
	pr_err("test_oops: unknown kind '%s' (null, ud, gp, panic, irq)\n", oops);
}
