/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_ekdbts.c - host tests for the self-test's pure parts
 * (selftest/ekdbts_wire.c): the ekdbts= syntax, run-length decoding and the
 * fields of a stop reply, as the scripted gdb reads them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "../../selftest/ekdbts.h"
#include <ekdb/errno.h>

static void test_parse_good(void **state)
{
	struct ekdbts_opts o;
	const char *why;

	assert_int_equal(ekdbts_parse("V1", &o, &why), 0);
	assert_int_equal(o.verbose, 1);
	assert_int_equal(o.fork_iters, 0);
	assert_int_equal(ekdbts_parse("V1F100S50EX", &o, &why), 0);
	assert_int_equal(o.fork_iters, 100);
	assert_int_equal(o.step_iters, 50);
	assert_true(o.early);
	assert_true(o.plant);
	assert_int_equal(ekdbts_parse("I7", &o, &why), 0);	/* Linux's single-step letter */
	assert_int_equal(o.step_iters, 7);
	assert_int_equal(ekdbts_parse("E", &o, &why), 0);
	assert_int_equal(ekdbts_parse("F1000000", &o, &why), 0);
}

static void test_parse_bad(void **state)
{
	static const char *const bad[] = {
		"", "V", "V3", "V1V1", "F", "F0", "F1000001", "Fx", "S", "S1I1",
		"Q", "v1", "V1 ", "N6", "X", "V1,F10", "F-1", "F99999999999999999999",
	};
	struct ekdbts_opts o;
	const char *why;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		assert_int_equal(ekdbts_parse(bad[i], &o, &why), -EKDB_EINVAL);
		assert_non_null(why);
	}
	assert_int_equal(ekdbts_parse(NULL, &o, &why), -EKDB_EINVAL);
}

static void test_rle(void **state)
{
	char out[64];

	assert_int_equal(ekdbts_rle_expand("0* ", 3, out, sizeof(out)), 4);	/* ' ' = 32: 3 more */
	assert_string_equal(out, "0000");
	assert_int_equal(ekdbts_rle_expand("ab*\"c", 5, out, sizeof(out)), 8);	/* '"' = 34: 5 more */
	assert_string_equal(out, "abbbbbbc");
	assert_int_equal(ekdbts_rle_expand("OK", 2, out, sizeof(out)), 2);
	assert_int_equal(ekdbts_rle_expand("*a", 2, out, sizeof(out)), -1);	/* nothing to repeat */
	assert_int_equal(ekdbts_rle_expand("a*", 2, out, sizeof(out)), -1);	/* no count */
	assert_int_equal(ekdbts_rle_expand("a*\x1f", 3, out, sizeof(out)), -1);	/* count < 3 */
	assert_int_equal(ekdbts_rle_expand("a*~", 3, out, 8), -1);		/* does not fit */
}

static void test_stop_fields(void **state)
{
	const char *r = "T05thread:3;06:0000000000000000;10:efbeadde00000000;core:2;watch:ffff8000dead0;";
	u64 v;
	size_t len;

	assert_int_equal(ekdbts_stop_reg(r, 0x10, &v), 0);
	assert_true(v == 0xdeadbeefull);
	assert_int_equal(ekdbts_stop_hex(r, "core", &v), 0);
	assert_true(v == 2);
	assert_int_equal(ekdbts_stop_hex(r, "watch", &v), 0);
	assert_true(v == 0xffff8000dead0ull);
	assert_int_equal(ekdbts_stop_hex(r, "thread", &v), 0);
	assert_true(v == 3);
	assert_null(ekdbts_stop_field(r, "swbreak", &len));
	assert_non_null(ekdbts_stop_field("T05thread:1;swbreak:;", "swbreak", &len));
	assert_int_equal(len, 0);
	assert_int_equal(ekdbts_stop_reg(r, 0x07, &v), -1);		/* not expedited */
	assert_int_equal(ekdbts_stop_reg("T05", 0x10, &v), -1);
	assert_null(ekdbts_stop_field("OK", "core", &len));
	assert_int_equal(ekdbts_stop_hex("T05core:zz;", "core", &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_rle),
		cmocka_unit_test(test_stop_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
