/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ekdb.h - what the kernel calls to host the debugger.
 *
 * ekdb_early_init()  in setup_arch() right after parse_early_param():
 *                    brings up the early transports named by ekgdboc=,
 *                    takes over the debug vectors, stops if kgdbwait.
 */
#ifndef EKDB_EKDB_H
#define EKDB_EKDB_H

#include <ekdb/types.h>

void ekdb_early_init(void);

#endif
