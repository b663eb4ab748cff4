/* SPDX-License-Identifier: GPL-2.0 */
/* cmdline_parse.c - pure kernel command line extraction from load options or a file (host-testable). */
#include "cmdline_parse.h"

/* One source of characters: 8-bit (file) or 16-bit little endian (load options). */
struct src {
	const uint8_t *p;
	uint64_t n;		/* characters */
	int wide;
};

static unsigned int at(const struct src *s, uint64_t i)
{
	if (s->wide)
		return s->p[2 * i] | ((unsigned int)s->p[2 * i + 1] << 8);
	return s->p[i];
}

static int blank(unsigned int c)
{
	return c == ' ' || c == '\t';
}

static int lower(unsigned int c)
{
	return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

/* Trim, validate and copy s[start..] to out. */
static enum ekdb_cmdline_result emit(const struct src *s, uint64_t start, char *out,
				     uint32_t out_size, uint32_t *out_len, int empty_ok)
{
	uint64_t end = s->n, i;

	while (start < end && blank(at(s, start)))
		start++;
	while (end > start && blank(at(s, end - 1)))
		end--;
	for (i = start; i < end; i++) {
		unsigned int c = at(s, i);

		if (c != '\t' && (c < 0x20 || c > 0x7e))
			return EKDB_CMDLINE_NOT_TEXT;
	}
	if (end == start && !empty_ok)
		return EKDB_CMDLINE_ABSENT;
	if (!out_size || end - start > (uint64_t)out_size - 1)
		return EKDB_CMDLINE_TOO_LONG;
	for (i = start; i < end; i++) {
		unsigned int c = at(s, i);

		out[i - start] = c == '\t' ? ' ' : (char)c;
	}
	out[end - start] = 0;
	if (out_len)
		*out_len = (uint32_t)(end - start);
	return EKDB_CMDLINE_OK;
}

/* Length of the first word starting at i (a quoted word includes its quotes). */
static uint64_t word_len(const struct src *s, uint64_t i)
{
	uint64_t j = i;

	if (j < s->n && at(s, j) == '"') {
		j++;
		while (j < s->n && at(s, j) != '"')
			j++;
		if (j < s->n)
			j++;
		return j - i;
	}
	while (j < s->n && !blank(at(s, j)))
		j++;
	return j - i;
}

static int looks_like_path(const struct src *s, uint64_t i, uint64_t len)
{
	uint64_t j, end = i + len;
	int sep = 0;

	if (len && at(s, i) == '"') {
		i++;
		if (end > i && at(s, end - 1) == '"')
			end--;
	}
	for (j = i; j < end; j++) {
		unsigned int c = at(s, j);

		if (c == '=')
			return 0;
		if (c == '\\' || c == '/' || c == ':')
			sep = 1;
	}
	if (end - i >= 4 && at(s, end - 4) == '.' && lower(at(s, end - 3)) == 'e' &&
	    lower(at(s, end - 2)) == 'f' && lower(at(s, end - 1)) == 'i')
		return 1;
	return sep;
}

enum ekdb_cmdline_result ekdb_cmdline_from_options(const void *opts, uint64_t size,
						   char *out, uint32_t out_size,
						   uint32_t *out_len)
{
	struct src s = { opts, 0, 1 };
	uint64_t i, n, start = 0, len;

	if (!opts || size == 0)
		return EKDB_CMDLINE_ABSENT;
	if (size & 1)
		return EKDB_CMDLINE_NOT_TEXT;
	n = size / 2;
	for (i = 0; i < n && at(&s, i); i++)
		;
	s.n = i;
	/* Drop trailing line ends (a shell script line may carry them). */
	while (s.n && (at(&s, s.n - 1) == '\r' || at(&s, s.n - 1) == '\n'))
		s.n--;
	for (i = 0; i < s.n; i++) {
		unsigned int c = at(&s, i);

		if (c != '\t' && (c < 0x20 || c > 0x7e))
			return EKDB_CMDLINE_NOT_TEXT;
	}
	while (start < s.n && blank(at(&s, start)))
		start++;
	len = word_len(&s, start);
	if (len && looks_like_path(&s, start, len))
		start += len;
	return emit(&s, start, out, out_size, out_len, 0);
}

enum ekdb_cmdline_result ekdb_cmdline_from_file(const void *data, uint64_t size,
						char *out, uint32_t out_size,
						uint32_t *out_len)
{
	struct src s = { data, 0, 0 };
	uint64_t start = 0, i;

	if (!data)
		size = 0;
	if (size >= 3 && s.p[0] == 0xef && s.p[1] == 0xbb && s.p[2] == 0xbf)
		start = 3;
	for (i = start; i < size; i++) {
		if (s.p[i] == '\n' || s.p[i] == '\r' || s.p[i] == 0)
			break;
	}
	s.n = i;
	return emit(&s, start, out, out_size, out_len, 1);
}

int ekdb_cmdline_has_word(const char *c, const char *word)
{
	while (*c) {
		const char *w = word;
		const char *start;
		int quoted = 0;

		while (*c == ' ' || *c == '\t')
			c++;
		start = c;
		/* the end of this parameter: the next blank outside quotes */
		while (*c && (quoted || (*c != ' ' && *c != '\t'))) {
			if (*c == '"')
				quoted = !quoted;
			c++;
		}
		if (start == c)
			break;
		while (start < c && *w && *start == *w) {
			start++;
			w++;
		}
		if (!*w && (start == c || w[-1] == '='))
			return 1;
	}
	return 0;
}
