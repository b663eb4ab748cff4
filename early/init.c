/* SPDX-License-Identifier: GPL-2.0 */
/* init.c - ekdb_early_init: bring up the early debugger (filled in by the early-debugger work). */
#include <ekdb/ekdb.h>

void ekdb_early_init(void)
{
}
