/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmdline.h - kernel command line tokenizer and the early-parameter table.
 *
 * The command line is "name[=value]" words separated by blanks; a value
 * (or a whole word) may be double-quoted to hold blanks.  Early parameters
 * are declared next to the code that owns them with EARLY_PARAM(); they
 * land in the .early_param section, which parse_early_param() walks.
 */
#ifndef EKDB_CMDLINE_H
#define EKDB_CMDLINE_H

#include <ekdb/types.h>

/*
 * cmdline_next - split the next word off *@cursor, in place.
 * Sets *@name and *@value (NULL when there is no '='), strips the quotes,
 * NUL-terminates both, and advances *@cursor.  Returns false at the end.
 */
bool cmdline_next(char **cursor, char **name, char **value);

/*
 * An early parameter handler.  @value is NULL for a bare flag ("kgdbwait").
 * Returns 0 when accepted, or a negative EKDB_E* code: the caller prints a
 * clear message naming the parameter and the boot goes on.
 */
typedef int (*early_param_fn)(const char *value);

struct early_param {
	const char *name;
	early_param_fn setup;
	const char *help;		/* one line: accepted syntax, for the error message */
};

#define EARLY_PARAM(pname, fn, helptext)					\
	static const struct early_param __early_param_##fn			\
	__used __section(".early_param") __aligned(8) = {			\
		.name = pname, .setup = fn, .help = helptext }

#endif
