/* SPDX-License-Identifier: GPL-2.0 */
/*
 * params.c - kernel command line: early parameters (the EARLY_PARAM table
 * every subsystem contributes to) and lookup of the others later on.
 */
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <ekdb/cmdline.h>
#include <ekdb/errno.h>
#include <ekdb/parse.h>
#include <ekdb/string.h>

extern const struct early_param __start_early_param[], __stop_early_param[];

char boot_command_line[EKDB_CMDLINE_MAX];
static char param_scratch[EKDB_CMDLINE_MAX];

static const struct early_param *find_early(const char *name)
{
	for (const struct early_param *p = __start_early_param; p < __stop_early_param; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

/**
 * parse_early_param - run the handler of every early parameter on the
 * command line, in order.  Unknown words are left for later parsing.
 * A handler that refuses its value gets a clear message; boot goes on.
 */
void parse_early_param(void)
{
	char *cur = param_scratch, *name, *value;

	strlcpy(param_scratch, boot_command_line, sizeof(param_scratch));
	while (cmdline_next(&cur, &name, &value)) {
		const struct early_param *p = find_early(name);
		int err;

		if (!p) {
			pr_debug("param: %s%s%s (not an early parameter)\n", name,
				 value ? "=" : "", value ? value : "");
			continue;
		}
		pr_debug("param: %s%s%s\n", name, value ? "=" : "", value ? value : "");
		err = p->setup(value);
		if (err)
			pr_err("Malformed early option '%s%s%s': %s (expected %s%s%s)\n", name,
			       value ? "=" : "", value ? value : "", ekdb_strerror(err),
			       p->name, p->help && *p->help ? "=" : "", p->help ? p->help : "");
	}
}

/* Returns the value of name=value, "" for a bare flag, NULL when absent. */
const char *cmdline_get(const char *want)
{
	static char scratch[EKDB_CMDLINE_MAX];
	char *cur = scratch, *name, *value;
	const char *found = NULL;

	strlcpy(scratch, boot_command_line, sizeof(scratch));
	while (cmdline_next(&cur, &name, &value))
		if (!strcmp(name, want))
			found = value ? value : "";
	return found;
}

bool cmdline_has(const char *name)
{
	return cmdline_get(name) != NULL;
}

static int setup_loglevel(const char *v)
{
	u64 level;

	if (!v || parse_u64(v, 10, &level) || level > 15)
		return -EKDB_EINVAL;
	console_loglevel = (int)level;
	return 0;
}
EARLY_PARAM("loglevel", setup_loglevel, "0..15");

static int setup_ignore_loglevel(const char *v)
{
	ignore_loglevel = true;
	return 0;
}
EARLY_PARAM("ignore_loglevel", setup_ignore_loglevel, "");

static int setup_debug(const char *v)
{
	console_loglevel = 10;
	return 0;
}
EARLY_PARAM("debug", setup_debug, "");
