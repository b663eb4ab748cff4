/* SPDX-License-Identifier: GPL-2.0 */
/*
 * param_host.c - ekdb_param(): the debugger's parameters (the EARLY_PARAM
 * table of the .early_param section) run by name, for a host that reads
 * its command line itself and spells them its own way (Linux's port:
 * ekdb.ekgdboc=ttyS0 runs "ekgdboc").  Apart from param.c so that what
 * only parses (the fuzzers, the host tests) needs no section bounds.
 */
#include <ekdb/cmdline.h>
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>
#include <ekdb/log.h>
#include <ekdb/string.h>

extern const struct early_param __start_early_param[], __stop_early_param[];

/* For a host that reads its command line itself (Linux's port: ekdb.<name>=). */
int ekdb_param(const char *name, const char *value)
{
	const struct early_param *p;
	int err;

	for (p = __start_early_param; p < __stop_early_param; p++)
		if (!strcmp(p->name, name))
			break;
	if (p >= __stop_early_param)
		return -EKDB_ENOENT;
	err = p->setup(value);
	if (err)
		pr_err("Malformed early option '%s%s%s': %s (expected %s%s%s)\n", name,
		       value ? "=" : "", value ? value : "", ekdb_strerror(err),
		       p->name, p->help && *p->help ? "=" : "", p->help ? p->help : "");
	return err;
}
