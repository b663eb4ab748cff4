/* SPDX-License-Identifier: GPL-2.0 */
/* early.h - private to early/: the debugger options parsed from the command line. */
#ifndef EARLY_EARLY_H
#define EARLY_EARLY_H

#include <ekdb/types.h>

#define EKDB_OPT_MAX 32

struct ekdb_early_opts {
	char ekgdboc[EKDB_OPT_MAX];	/* "ttyS1,115200"; empty: no early debugger */
	char kgdboc[EKDB_OPT_MAX];	/* recorded for the late core */
	bool kgdbwait;
	bool kgdbcon;
	bool bad;			/* a debugger option was malformed: stay off */
	char bad_opt[EKDB_OPT_MAX];	/* the first one refused */
	bool kgdbdbgp;			/* kgdbdbgp=N[,secs] given (and well formed) */
	u8 kgdbdbgp_index;		/* N: the Nth EHCI debug port */
	u16 kgdbdbgp_secs;		/* break-in poll period while running; 0: none */
	bool kgdbxdbc;			/* kgdbxdbc=N[,secs] given (and well formed) */
	u8 kgdbxdbc_index;		/* N: the Nth xHCI controller */
	u16 kgdbxdbc_secs;
	u32 cmd_enable;			/* kdb.cmd_enable= (KDB_ENABLE_* mask) */
};

extern struct ekdb_early_opts ekdb_opts;

/* storage.c: the static kdb+gdb sessions and the front end over them */
const struct dbg_frontend *early_frontend_get(void);

/* carry.c: what the takeover before start_kernel did, logged once a console exists */
void ekdb_carry_report(void);
bool ekdb_carry_refused(void);

#endif
