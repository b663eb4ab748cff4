/* SPDX-License-Identifier: GPL-2.0 */
/* cmdline.c - split a kernel command line into name[=value] words in place. */
#include <ekdb/cmdline.h>
#include <ekdb/string.h>

bool cmdline_next(char **cursor, char **name, char **value)
{
	char *p = *cursor, *out;
	bool quoted = false;

	while (*p && isspace(*p))
		p++;
	if (!*p) {
		*cursor = p;
		return false;
	}
	*name = out = p;
	*value = NULL;
	/* Copy the word onto itself, dropping quotes; '=' starts the value. */
	for (; *p; p++) {
		if (*p == '"') {
			quoted = !quoted;
			continue;
		}
		if (!quoted && isspace(*p))
			break;
		if (*p == '=' && !*value) {
			*out++ = 0;
			*value = out;
			continue;
		}
		*out++ = *p;
	}
	if (*p)
		p++;
	*out = 0;
	*cursor = p;
	return true;
}
