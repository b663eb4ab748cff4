/* SPDX-License-Identifier: GPL-2.0 */
/* cmdline_parse.h - pure kernel command line extraction from load options or a file (host-testable). */
#ifndef EKDB_BOOT_CMDLINE_PARSE_H
#define EKDB_BOOT_CMDLINE_PARSE_H

#include <stdint.h>

enum ekdb_cmdline_result {
	EKDB_CMDLINE_OK = 0,		/* out holds the command line (may be "" for a file) */
	EKDB_CMDLINE_ABSENT = 1,	/* nothing usable: no options, or only the program path */
	EKDB_CMDLINE_NOT_TEXT = 2,	/* bytes are not printable text (binary junk) */
	EKDB_CMDLINE_TOO_LONG = 3,	/* longer than out_size - 1 bytes */
};

/*
 * UEFI LoadOptions (UCS-2, little endian, size in bytes) -> ASCII command line.
 * Text stops at the first NUL or at the end of the buffer; every character
 * before that must be printable ASCII (tab counts as a space, trailing CR/LF
 * are dropped).  An odd byte size is not text.  The first word is dropped when
 * it looks like a program path (as the UEFI shell passes it): it contains no
 * '=' and ends in ".efi" or contains '\', '/' or ':'.  A quoted first word
 * ("fs0:\my dir\x.efi") is dropped as a whole.  Leading and trailing blanks
 * are trimmed.  Options that are empty after this give EKDB_CMDLINE_ABSENT.
 */
enum ekdb_cmdline_result ekdb_cmdline_from_options(const void *opts, uint64_t size,
						   char *out, uint32_t out_size,
						   uint32_t *out_len);

/*
 * Contents of the command line file -> ASCII command line.  The first line
 * (up to LF, CR or NUL) is used; a UTF-8 byte order mark is skipped; leading
 * and trailing blanks are trimmed; tabs become spaces.  Any other control or
 * non-ASCII byte in that line is EKDB_CMDLINE_NOT_TEXT.  An empty line gives
 * EKDB_CMDLINE_OK with an empty string.
 */
enum ekdb_cmdline_result ekdb_cmdline_from_file(const void *data, uint64_t size,
						char *out, uint32_t out_size,
						uint32_t *out_len);

/*
 * 1 when @word appears on the command line as a whole parameter (a bare
 * flag such as "nokaslr", or "word=..." when @word ends in '='), 0 if not.
 * Words are separated by blanks; a double-quoted part (a value with
 * blanks) is never taken for a parameter of its own.
 */
int ekdb_cmdline_has_word(const char *cmdline, const char *word);

#endif
