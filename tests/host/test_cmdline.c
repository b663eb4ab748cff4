/* SPDX-License-Identifier: GPL-2.0 */
/* test_cmdline.c - host tests for the command line tokenizer and number parsing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ekdb/cmdline.h>
#include <ekdb/parse.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>

struct word { const char *name, *value; };

static int split(const char *line, struct word *out, int max, char *store, size_t size)
{
	char *cur = store, *n, *v;
	int count = 0;

	strlcpy(store, line, size);
	while (count < max && cmdline_next(&cur, &n, &v)) {
		out[count].name = n;
		out[count].value = v;
		count++;
	}
	return count;
}

static void test_plain_words(void **state)
{
	char buf[256];
	struct word w[8];
	int n = split("earlyprintk=serial,ttyS0,115200  kgdbwait loglevel=8", w, 8, buf, sizeof(buf));

	assert_int_equal(n, 3);
	assert_string_equal(w[0].name, "earlyprintk");
	assert_string_equal(w[0].value, "serial,ttyS0,115200");
	assert_string_equal(w[1].name, "kgdbwait");
	assert_null(w[1].value);
	assert_string_equal(w[2].name, "loglevel");
	assert_string_equal(w[2].value, "8");
}

static void test_quotes_and_blanks(void **state)
{
	char buf[256];
	struct word w[8];
	int n = split("  a=\"x y\" \"b=1 2\"\tc= d==e  ", w, 8, buf, sizeof(buf));

	assert_int_equal(n, 4);
	assert_string_equal(w[0].value, "x y");
	assert_string_equal(w[1].name, "b");
	assert_string_equal(w[1].value, "1 2");
	assert_string_equal(w[2].name, "c");
	assert_string_equal(w[2].value, "");
	assert_string_equal(w[3].name, "d");
	assert_string_equal(w[3].value, "=e");
}

static void test_empty_and_unterminated(void **state)
{
	char buf[64];
	struct word w[4];

	assert_int_equal(split("", w, 4, buf, sizeof(buf)), 0);
	assert_int_equal(split("   \t ", w, 4, buf, sizeof(buf)), 0);
	assert_int_equal(split("x=\"open quote", w, 4, buf, sizeof(buf)), 1);
	assert_string_equal(w[0].value, "open quote");
}

static void test_parse_u64(void **state)
{
	u64 v;

	assert_int_equal(parse_u64("115200", 10, &v), 0);
	assert_int_equal(v, 115200);
	assert_int_equal(parse_u64("0x3f8", 0, &v), 0);
	assert_int_equal(v, 0x3f8);
	assert_int_equal(parse_u64("3f8", 16, &v), 0);
	assert_int_equal(v, 0x3f8);
	assert_int_equal(parse_u64("010", 0, &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(parse_u64("ffffffffffffffff", 16, &v), 0);
	assert_true(v == UINT64_MAX);
	/* bad inputs */
	assert_int_equal(parse_u64("", 10, &v), -EKDB_EINVAL);
	assert_int_equal(parse_u64("banana", 10, &v), -EKDB_EINVAL);
	assert_int_equal(parse_u64("12x", 10, &v), -EKDB_EINVAL);
	assert_int_equal(parse_u64("0x", 0, &v), -EKDB_EINVAL);
	assert_int_equal(parse_u64("10000000000000000", 16, &v), -EKDB_ERANGE);
	assert_int_equal(parse_u64("99999999999999999999", 10, &v), -EKDB_ERANGE);
	assert_int_equal(parse_u64(NULL, 10, &v), -EKDB_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_words),
		cmocka_unit_test(test_quotes_and_blanks),
		cmocka_unit_test(test_empty_and_unterminated),
		cmocka_unit_test(test_parse_u64),
	};
	return cmocka_run_group_tests_name("cmdline", tests, NULL, NULL);
}
