/* SPDX-License-Identifier: GPL-2.0 */
/* opts.c - the debugger's options (core/opts.h), filled by early/param.c. */
#include "opts.h"
#include <ekdb/kdb.h>
#include <ekdb/string.h>

struct dbg_opts ekdb_opts = { .cmd_enable = KDB_ENABLE_ALL };

/*
 * A debugger option was refused (@err != 0): remember it, so the early
 * debugger stays off and says which (fail closed).  Returns @err, so a
 * handler ends with "return dbg_opts_refuse(name, err);".
 */
int dbg_opts_refuse(const char *name, int err)
{
	if (err) {
		ekdb_opts.bad = true;
		if (!ekdb_opts.bad_opt[0])
			strlcpy(ekdb_opts.bad_opt, name, sizeof(ekdb_opts.bad_opt));
	}
	return err;
}
