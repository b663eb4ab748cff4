/* SPDX-License-Identifier: GPL-2.0 */
/* opts.c - the debugger's options (core/opts.h), filled by early/param.c. */
#include "opts.h"
#include <ekdb/kdb.h>

struct dbg_opts ekdb_opts = { .cmd_enable = KDB_ENABLE_ALL };
