/* SPDX-License-Identifier: GPL-2.0 */
/* test_cmdline_parse.c - host tests for the loader's command line extraction (boot/cmdline_parse.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../boot/cmdline_parse.h"

/* ASCII -> UCS-2 little endian with a terminating NUL; returns the byte size. */
static uint64_t ucs2(uint8_t *dst, const char *s, int with_nul)
{
	uint64_t n = 0;

	for (; *s; s++, n++) {
		dst[2 * n] = (uint8_t)*s;
		dst[2 * n + 1] = 0;
	}
	if (with_nul) {
		dst[2 * n] = dst[2 * n + 1] = 0;
		n++;
	}
	return 2 * n;
}

static uint8_t wbuf[16384];
static char out[64];

static void opt_ok(const char *in, const char *want)
{
	uint64_t size = ucs2(wbuf, in, 1);
	uint32_t len = 12345;

	assert_int_equal(ekdb_cmdline_from_options(wbuf, size, out, sizeof(out), &len),
			 EKDB_CMDLINE_OK);
	assert_string_equal(out, want);
	assert_int_equal(len, strlen(want));
}

static int opt_res(const char *in)
{
	uint64_t size = ucs2(wbuf, in, 1);
	uint32_t len;

	return ekdb_cmdline_from_options(wbuf, size, out, sizeof(out), &len);
}

static void test_shell_path_dropped(void **state)
{
	opt_ok("fs0:\\EFI\\BOOT\\BOOTX64.EFI earlyprintk=serial kgdbwait",
	       "earlyprintk=serial kgdbwait");
	opt_ok("\\EFI\\ekdb\\loader.efi a=1", "a=1");
	opt_ok("loader.efi   a=1  b  ", "a=1  b");
	opt_ok("LOADER.EFI\ta=1", "a=1");
	opt_ok("\"fs0:\\my dir\\x.efi\" kgdbwait", "kgdbwait");
	opt_ok("  fs1:/boot/x a", "a");
}

static void test_no_path(void **state)
{
	opt_ok("earlyprintk=serial,ttyS0 kgdbwait", "earlyprintk=serial,ttyS0 kgdbwait");
	opt_ok("kgdbwait loglevel=7", "kgdbwait loglevel=7");
	opt_ok("ip=1.2.3.4:5 x", "ip=1.2.3.4:5 x");
}

static void test_only_path_is_absent(void **state)
{
	assert_int_equal(opt_res("fs0:\\EFI\\BOOT\\BOOTX64.EFI"), EKDB_CMDLINE_ABSENT);
	assert_int_equal(opt_res("fs0:\\EFI\\BOOT\\BOOTX64.EFI   "), EKDB_CMDLINE_ABSENT);
	assert_int_equal(opt_res(""), EKDB_CMDLINE_ABSENT);
	assert_int_equal(opt_res("   "), EKDB_CMDLINE_ABSENT);
	assert_int_equal(ekdb_cmdline_from_options(NULL, 0, out, sizeof(out), NULL),
			 EKDB_CMDLINE_ABSENT);
	assert_int_equal(ekdb_cmdline_from_options(wbuf, 0, out, sizeof(out), NULL),
			 EKDB_CMDLINE_ABSENT);
}

static void test_no_nul_and_trailing_crlf(void **state)
{
	uint64_t size = ucs2(wbuf, "x.efi a b\r\n", 0);
	uint32_t len;

	assert_int_equal(ekdb_cmdline_from_options(wbuf, size, out, sizeof(out), &len),
			 EKDB_CMDLINE_OK);
	assert_string_equal(out, "a b");
	/* Bytes after the NUL are not looked at. */
	size = ucs2(wbuf, "x.efi a", 1);
	wbuf[size] = 0xff;
	wbuf[size + 1] = 0x07;
	assert_int_equal(ekdb_cmdline_from_options(wbuf, size + 2, out, sizeof(out), &len),
			 EKDB_CMDLINE_OK);
	assert_string_equal(out, "a");
}

static void test_binary_junk(void **state)
{
	/* OVMF's auto-created boot options carry a 16-byte GUID. */
	static const uint8_t guid[16] = { 0x21, 0xaa, 0x2c, 0x46, 0x14, 0x76, 0x03, 0x45,
					  0x83, 0x6e, 0x8a, 0xb6, 0xf4, 0x66, 0x23, 0x31 };
	uint8_t odd[3] = { 'a', 0, 'b' };
	uint64_t size;

	assert_int_equal(ekdb_cmdline_from_options(guid, sizeof(guid), out, sizeof(out), NULL),
			 EKDB_CMDLINE_NOT_TEXT);
	assert_int_equal(ekdb_cmdline_from_options(odd, sizeof(odd), out, sizeof(out), NULL),
			 EKDB_CMDLINE_NOT_TEXT);
	size = ucs2(wbuf, "x.efi abc", 1);
	wbuf[14] = 0x01;	/* 'a' becomes U+0161: not ASCII */
	wbuf[15] = 0x01;
	assert_int_equal(ekdb_cmdline_from_options(wbuf, size, out, sizeof(out), NULL),
			 EKDB_CMDLINE_NOT_TEXT);
	size = ucs2(wbuf, "x.efi a\x01" "b", 1);
	assert_int_equal(ekdb_cmdline_from_options(wbuf, size, out, sizeof(out), NULL),
			 EKDB_CMDLINE_NOT_TEXT);
}

static void test_options_limit(void **state)
{
	char big[200];
	uint32_t len;
	uint64_t size;

	memset(big, 'k', sizeof(big));
	big[sizeof(big) - 1] = 0;
	memcpy(big, "x.efi ", 6);
	big[6 + 63] = 0;	/* exactly 63 chars after the path: fits in 64 */
	size = ucs2(wbuf, big, 1);
	assert_int_equal(ekdb_cmdline_from_options(wbuf, size, out, sizeof(out), &len),
			 EKDB_CMDLINE_OK);
	assert_int_equal(len, 63);
	big[6 + 63] = 'k';
	big[6 + 64] = 0;	/* 64 chars: one too many */
	size = ucs2(wbuf, big, 1);
	assert_int_equal(ekdb_cmdline_from_options(wbuf, size, out, sizeof(out), &len),
			 EKDB_CMDLINE_TOO_LONG);
}

static int file_res(const char *in, size_t n, const char *want)
{
	uint32_t len = 999;
	int r = ekdb_cmdline_from_file(in, n, out, sizeof(out), &len);

	if (r == EKDB_CMDLINE_OK && want) {
		assert_string_equal(out, want);
		assert_int_equal(len, strlen(want));
	}
	return r;
}

static void test_file(void **state)
{
	const char *s;

	s = "earlyprintk=serial,ttyS0,115200 loglevel=7\n";
	assert_int_equal(file_res(s, strlen(s), "earlyprintk=serial,ttyS0,115200 loglevel=7"), 0);
	s = "a b\r\n";
	assert_int_equal(file_res(s, strlen(s), "a b"), 0);
	s = "  a\tb  \nsecond line ignored\n";
	assert_int_equal(file_res(s, strlen(s), "a b"), 0);
	s = "\xef\xbb\xbfkgdbwait\n";
	assert_int_equal(file_res(s, strlen(s), "kgdbwait"), 0);
	s = "no newline";
	assert_int_equal(file_res(s, strlen(s), "no newline"), 0);
	assert_int_equal(file_res("\n", 1, ""), 0);
	assert_int_equal(file_res("", 0, ""), 0);
	assert_int_equal(file_res(NULL, 0, ""), 0);
	s = "caf\xc3\xa9\n";
	assert_int_equal(file_res(s, strlen(s), ""), EKDB_CMDLINE_NOT_TEXT);
	s = "a\x1b[0m\n";
	assert_int_equal(file_res(s, strlen(s), ""), EKDB_CMDLINE_NOT_TEXT);
}

static void test_file_limit(void **state)
{
	char big[100];

	memset(big, 'x', sizeof(big));
	big[63] = '\n';
	assert_int_equal(file_res(big, sizeof(big), NULL), EKDB_CMDLINE_OK);
	assert_int_equal(strlen(out), 63);
	big[63] = 'x';
	big[64] = '\n';
	assert_int_equal(file_res(big, sizeof(big), NULL), EKDB_CMDLINE_TOO_LONG);
}

/* nokaslr as the loader looks for it: a whole parameter, not inside a value or a longer word. */
static void test_has_word(void **state)
{
	assert_int_equal(ekdb_cmdline_has_word("nokaslr", "nokaslr"), 1);
	assert_int_equal(ekdb_cmdline_has_word("earlyprintk=serial  nokaslr\tkgdbwait", "nokaslr"), 1);
	assert_int_equal(ekdb_cmdline_has_word("a=\"x y\" nokaslr", "nokaslr"), 1);
	assert_int_equal(ekdb_cmdline_has_word("", "nokaslr"), 0);
	assert_int_equal(ekdb_cmdline_has_word("   ", "nokaslr"), 0);
	assert_int_equal(ekdb_cmdline_has_word("nokaslrx kaslr nokasl", "nokaslr"), 0);
	assert_int_equal(ekdb_cmdline_has_word("x.nokaslr=1", "nokaslr"), 0);
	assert_int_equal(ekdb_cmdline_has_word("nokaslr=1", "nokaslr"), 0);
	assert_int_equal(ekdb_cmdline_has_word("foo=\"a nokaslr b\"", "nokaslr"), 0);
	assert_int_equal(ekdb_cmdline_has_word("foo=\"unterminated nokaslr", "nokaslr"), 0);
	assert_int_equal(ekdb_cmdline_has_word("a kgdboc=ttyS0", "kgdboc="), 1);
	assert_int_equal(ekdb_cmdline_has_word("a kgdboc", "kgdboc="), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shell_path_dropped),
		cmocka_unit_test(test_no_path),
		cmocka_unit_test(test_only_path_is_absent),
		cmocka_unit_test(test_no_nul_and_trailing_crlf),
		cmocka_unit_test(test_binary_junk),
		cmocka_unit_test(test_options_limit),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_file_limit),
		cmocka_unit_test(test_has_word),
	};

	return cmocka_run_group_tests_name("cmdline_parse", tests, NULL, NULL);
}
