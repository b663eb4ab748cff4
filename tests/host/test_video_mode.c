/* SPDX-License-Identifier: GPL-2.0 */
/* test_video_mode.c - host tests of video= parsing (kernel-glue/drivers/video_mode.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ekdb/errno.h>
#include "../../kernel-glue/drivers/bochs_dispi.h"

static void check_ok(const char *s, u16 w, u16 h)
{
	u16 gw = 1, gh = 1;

	assert_int_equal(video_mode_parse(s, &gw, &gh), 0);
	assert_int_equal(gw, w);
	assert_int_equal(gh, h);
}

static void check_err(const char *s, int err)
{
	u16 gw = 7, gh = 9;

	assert_int_equal(video_mode_parse(s, &gw, &gh), err);
	assert_int_equal(gw, 7);		/* untouched on error */
	assert_int_equal(gh, 9);
}

static void test_plain_modes(void **state)
{
	check_ok("1024x768", 1024, 768);
	check_ok("800x600", 800, 600);
	check_ok("320x200", 320, 200);
	check_ok("2560x1600", 2560, 1600);
}

static void test_linux_syntax_accepted(void **state)
{
	check_ok("Virtual-1:1280x720", 1280, 720);
	check_ok("1024x768-32", 1024, 768);
	check_ok("1024x768@60", 1024, 768);
	check_ok("1024x768M-32@75", 1024, 768);
	check_ok("1024x768MR", 1024, 768);
	check_ok("1024x768@60ime", 1024, 768);
	check_ok("VGA-1:1024x768D", 1024, 768);
}

static void test_nonsense(void **state)
{
	check_err("", -EKDB_EINVAL);
	check_err("banana", -EKDB_EINVAL);
	check_err("1024", -EKDB_EINVAL);
	check_err("1024x", -EKDB_EINVAL);
	check_err("x768", -EKDB_EINVAL);
	check_err("1024X768", -EKDB_EINVAL);
	check_err("1024x768junk", -EKDB_EINVAL);
	check_err("1024x768-", -EKDB_EINVAL);
	check_err("1024x768@", -EKDB_EINVAL);
	check_err("-1024x768", -EKDB_EINVAL);
	check_err("1024x768 ", -EKDB_EINVAL);
}

static void test_out_of_range(void **state)
{
	check_err("1023x768", -EKDB_ERANGE);	/* width not a multiple of 8 */
	check_err("312x200", -EKDB_ERANGE);
	check_err("320x199", -EKDB_ERANGE);
	check_err("2568x1600", -EKDB_ERANGE);
	check_err("2560x1601", -EKDB_ERANGE);
	check_err("99999x5", -EKDB_ERANGE);
	check_err("99999999999999999999x768", -EKDB_EINVAL);	/* overflows the parser */
	check_err("1024x768-16", -EKDB_ERANGE);
	check_err("1024x768-24", -EKDB_ERANGE);
	check_err("0x0", -EKDB_ERANGE);		/* a mode, 0 by 0 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_modes),
		cmocka_unit_test(test_linux_syntax_accepted),
		cmocka_unit_test(test_nonsense),
		cmocka_unit_test(test_out_of_range),
	};

	return cmocka_run_group_tests_name("video_mode", tests, NULL, NULL);
}
