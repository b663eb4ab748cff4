/* SPDX-License-Identifier: GPL-2.0 */
/* test_ldr_dbg_opts.c - host tests for ekdb.loader= / ekgdboc= in the loader (boot/dbg/opts.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../boot/dbg/opts.h"
#include <ekdb/kdb.h>

static struct ldr_dbg_opts o;

static void test_absent_is_off_silently(void **state)
{
	ldr_dbg_parse_opts("earlyprintk=serial,ttyS0,115200 ekgdboc=ttyS1 kgdbwait", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_null(o.off_reason);
	ldr_dbg_parse_opts("", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_null(o.off_reason);
	ldr_dbg_parse_opts(NULL, &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_null(o.off_reason);
}

static void test_wait_and_on(void **state)
{
	ldr_dbg_parse_opts("ekdb.loader=wait earlyprintk=serial,ttyS0 ekgdboc=ttyS1", &o);
	assert_int_equal(o.mode, LDR_DBG_WAIT);
	assert_null(o.off_reason);
	assert_int_equal(o.port, 0x2f8);
	assert_int_equal(o.baud, 115200);
	assert_int_equal(o.line, 1);
	assert_string_equal(o.ekgdboc, "ttyS1");

	ldr_dbg_parse_opts("ekgdboc=ttyS2,9600 ekdb.loader=on", &o);
	assert_int_equal(o.mode, LDR_DBG_ON);
	assert_int_equal(o.port, 0x3e8);
	assert_int_equal(o.baud, 9600);
	assert_int_equal(o.line, 2);

	ldr_dbg_parse_opts("ekgdboc=0x2f8,57600 ekdb.loader=wait", &o);
	assert_int_equal(o.mode, LDR_DBG_WAIT);
	assert_int_equal(o.port, 0x2f8);
	assert_int_equal(o.baud, 57600);
	assert_int_equal(o.line, -1);
}

static void test_off_value(void **state)
{
	ldr_dbg_parse_opts("ekdb.loader=off ekgdboc=ttyS1", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_null(o.off_reason);
	/* the last one counts, as for kernel parameters */
	ldr_dbg_parse_opts("ekdb.loader=wait ekdb.loader=off ekgdboc=ttyS1", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	ldr_dbg_parse_opts("ekdb.loader=off ekdb.loader=on ekgdboc=ttyS1", &o);
	assert_int_equal(o.mode, LDR_DBG_ON);
}

/* Bad input: unknown values fail closed with a message naming the value. */
static void test_unknown_value_fails_closed(void **state)
{
	ldr_dbg_parse_opts("ekdb.loader=bogus ekgdboc=ttyS1", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_string_equal(o.off_reason, "ekdb.loader=bogus: unknown value (wait, on or off)");

	ldr_dbg_parse_opts("ekdb.loader ekgdboc=ttyS1", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_string_equal(o.off_reason, "ekdb.loader=: unknown value (wait, on or off)");

	ldr_dbg_parse_opts("ekdb.loader= ekgdboc=ttyS1", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_non_null(o.off_reason);

	ldr_dbg_parse_opts("ekdb.loader=WAIT ekgdboc=ttyS1", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_non_null(o.off_reason);

	/* a bad value wins over a good one: fail closed */
	ldr_dbg_parse_opts("ekdb.loader=wait ekdb.loader=waitt ekgdboc=ttyS1", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_string_equal(o.off_reason, "ekdb.loader=waitt: unknown value (wait, on or off)");
}

static void test_transport_refused(void **state)
{
	ldr_dbg_parse_opts("ekdb.loader=wait", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_string_equal(o.off_reason, "no ekgdboc=: the loader debugger needs ekgdboc=ttySn[,baud]");

	ldr_dbg_parse_opts("ekdb.loader=wait ekgdboc=kbd", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_string_equal(o.off_reason, "ekgdboc=kbd: the keyboard is not a loader transport "
			    "(the loader needs ekgdboc=ttySn[,baud])");

	ldr_dbg_parse_opts("ekdb.loader=on ekgdboc=kbd,ttyS1", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_non_null(o.off_reason);

	ldr_dbg_parse_opts("ekdb.loader=wait ekgdboc=ttyS9", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_string_equal(o.off_reason, "ekgdboc=ttyS9: not a serial line (ttySn[,baud] or 0xPORT[,baud])");

	ldr_dbg_parse_opts("ekdb.loader=wait ekgdboc=ttyS1,abc", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	ldr_dbg_parse_opts("ekdb.loader=wait ekgdboc=", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_non_null(o.off_reason);
	ldr_dbg_parse_opts("ekdb.loader=wait ekgdboc=usb0", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	ldr_dbg_parse_opts("ekdb.loader=wait ekgdboc=ttyS1,115200,extra_long_value_here", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	/* without ekdb.loader a bad ekgdboc is the kernel's business, not the loader's */
	ldr_dbg_parse_opts("ekgdboc=kbd", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_null(o.off_reason);
}

/*
 * kdb.cmd_enable= is the loader's kdb mask too (the handed-over session
 * keeps it into the kernel): absent = every command; a good one taken; a bad one
 * (not a number, empty, missing, wider than 32 bits), even followed by a
 * good one, turns the loader debugger off as the kernel turns its own off.
 */
static void test_cmd_enable(void **state)
{
	static const char *const bad[] = {
		"kdb.cmd_enable=zebra", "kdb.cmd_enable=", "kdb.cmd_enable",
		"kdb.cmd_enable=0x100000001", "kdb.cmd_enable=0x28x",
		"kdb.cmd_enable=zebra kdb.cmd_enable=0x1",
	};
	char line[128];

	ldr_dbg_parse_opts("ekdb.loader=wait ekgdboc=ttyS1", &o);
	assert_int_equal(o.cmd_enable, KDB_ENABLE_ALL);
	ldr_dbg_parse_opts("ekdb.loader=wait ekgdboc=ttyS1 kdb.cmd_enable=0x28", &o);
	assert_int_equal(o.mode, LDR_DBG_WAIT);
	assert_null(o.off_reason);
	assert_int_equal(o.cmd_enable, 0x28);
	ldr_dbg_parse_opts("kdb.cmd_enable=0x1 ekdb.loader=on ekgdboc=ttyS1 kdb.cmd_enable=40", &o);
	assert_int_equal(o.cmd_enable, 40);	/* decimal; the last good one counts */
	ldr_dbg_parse_opts("ekdb.loader=on ekgdboc=ttyS1 kdb.cmd_enable=0", &o);
	assert_int_equal(o.mode, LDR_DBG_ON);
	assert_int_equal(o.cmd_enable, 0);	/* 0: the always-safe commands only */

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "ekdb.loader=wait ekgdboc=ttyS1 %s", bad[i]);
		ldr_dbg_parse_opts(line, &o);
		assert_int_equal(o.mode, LDR_DBG_OFF);
		assert_int_equal(o.cmd_enable, 0);
		assert_non_null(o.off_reason);
		assert_non_null(strstr(o.off_reason, "kdb.cmd_enable="));
		assert_non_null(strstr(o.off_reason, ": not a mask"));
	}
	ldr_dbg_parse_opts("ekdb.loader=wait ekgdboc=ttyS1 kdb.cmd_enable=zebra", &o);
	assert_string_equal(o.off_reason, "kdb.cmd_enable=zebra: not a mask (e.g. 0x1, 0x28)");
	/* without ekdb.loader a bad mask is the kernel's business */
	ldr_dbg_parse_opts("kdb.cmd_enable=zebra", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_null(o.off_reason);
}

static void test_test_param(void **state)
{
	ldr_dbg_parse_opts("ekdb.loader=on ekgdboc=ttyS1 ekdb.loader_test=fault", &o);
	assert_int_equal(o.mode, LDR_DBG_ON);
	assert_int_equal(o.test, LDR_DBG_TEST_FAULT);
	assert_null(o.warning);
	/* the test fault works without the debugger too (the firmware's handling) */
	ldr_dbg_parse_opts("ekdb.loader_test=fault", &o);
	assert_int_equal(o.mode, LDR_DBG_OFF);
	assert_int_equal(o.test, LDR_DBG_TEST_FAULT);
	ldr_dbg_parse_opts("ekdb.loader_test=crash", &o);
	assert_int_equal(o.test, LDR_DBG_TEST_NONE);
	assert_non_null(o.warning);
}

/* The command line given is not modified (the kernel reads it later). */
static void test_cmdline_untouched(void **state)
{
	char line[] = "ekdb.loader=\"wait\" ekgdboc=ttyS1";

	ldr_dbg_parse_opts(line, &o);
	assert_string_equal(line, "ekdb.loader=\"wait\" ekgdboc=ttyS1");
	assert_int_equal(o.mode, LDR_DBG_WAIT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_absent_is_off_silently),
		cmocka_unit_test(test_wait_and_on),
		cmocka_unit_test(test_off_value),
		cmocka_unit_test(test_unknown_value_fails_closed),
		cmocka_unit_test(test_transport_refused),
		cmocka_unit_test(test_cmd_enable),
		cmocka_unit_test(test_test_param),
		cmocka_unit_test(test_cmdline_untouched),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
