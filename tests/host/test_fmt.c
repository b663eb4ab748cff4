/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_fmt.c - lib/fmt.c, the printf engine of printk and kdb: every
 * conversion, flag, width, precision and length modifier it documents,
 * against the C library's snprintf where both mean the same; %p/%pS, a
 * '%' at the end, an unknown conversion and truncation, which are its own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <ekdb/fmt.h>

/* Our output and libc's for the same format and arguments must be equal. */
#define SAME(...) do {							\
		char ours[256], theirs[256];				\
		int n = ekdb_snprintf(ours, sizeof(ours), __VA_ARGS__);	\
		int m = snprintf(theirs, sizeof(theirs), __VA_ARGS__);	\
		assert_string_equal(ours, theirs);			\
		assert_int_equal(n, m);					\
	} while (0)

static void test_integers(void **state)
{
	SAME("%d %i %u", -42, 7, 3000000000u);
	SAME("[%5d] [%-5d] [%05d] [%+d] [% d] [%+d]", 42, 42, 42, 42, 42, -42);
	SAME("[%x] [%X] [%#x] [%#X] [%o] [%#o]", 0xbeefu, 0xbeefu, 0xbeefu, 0xbeefu, 8u, 8u);
	SAME("[%.3d] [%8.3d] [%-8.3x] [%.0d]", 7, -7, 0xau, 0);
	SAME("[%hhu] [%hhd] [%hu] [%hd]", 300, 200, 70000, 40000);
	SAME("[%ld] [%lu] [%lld] [%llx]", -1L, ~0UL, (long long)-9223372036854775807LL - 1,
	     0x8000000000000000ULL);
	SAME("[%zu] [%td] [%jd]", (size_t)12, (ptrdiff_t)-3, (intmax_t)5);
	SAME("[%*d] [%-*d] [%*d]", 6, 1, 6, 2, -6, 3);	/* a negative '*' width is '-' */
	SAME("[%0*x] [%.*d]", 8, 0xabu, 4, 9);
}

static void test_strings_and_chars(void **state)
{
	SAME("[%s] [%10s] [%-10s] [%.2s] [%.*s]", "abc", "abc", "abc", "abc", 1, "xyz");
	SAME("[%c] [%3c] [%-3c]", 'a', 'b', 'c');
	SAME("100%% [%5s]", "");
}

static int resolve(u64 addr, char *buf, size_t size)
{
	if (addr != 0xffffffff81000010ull)
		return 0;
	return snprintf(buf, size, "start_kernel+0x10/0x200");
}

static void test_pointers(void **state)
{
	char b[128];

	ekdb_snprintf(b, sizeof(b), "%p|%pS|%ps", (void *)0x1234, (void *)0x1234, (void *)0x1234);
	assert_string_equal(b, "0x1234|0x1234|0x1234");	/* no resolver: the address */
	fmt_set_symbol_resolver(resolve);
	ekdb_snprintf(b, sizeof(b), "%pS|%30pS|%pS!", (void *)0xffffffff81000010ull,
		      (void *)0xffffffff81000010ull, (void *)0x10);
	assert_string_equal(b, "start_kernel+0x10/0x200|       start_kernel+0x10/0x200|0x10!");
	fmt_set_symbol_resolver(NULL);
}

static void test_odd_formats(void **state)
{
	char b[16];
	int n;
	/* an unknown conversion is printed as it is; a '%' at the very end is dropped */
	const char *odd = "a%kb%";	/* not a literal: the compiler would refuse it */

	ekdb_snprintf(b, sizeof(b), odd);
	assert_string_equal(b, "a%kb");
	/* truncation: the buffer ends in NUL, the count is what a bigger one would hold */
	n = ekdb_snprintf(b, 8, "%s-%d", "abcdef", 12345);
	assert_string_equal(b, "abcdef-");
	assert_int_equal(n, 12);
	n = ekdb_snprintf(b, 0, "%d", 5);
	assert_int_equal(n, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_strings_and_chars),
		cmocka_unit_test(test_pointers),
		cmocka_unit_test(test_odd_formats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
