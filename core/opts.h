/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - the debugger's options from the kernel command line (Linux's
 * parameter names: early/param.c has the list).  early/param.c fills them
 * at parse_early_param(), before the debugger exists; every lifetime of
 * the kernel's debugger reads them: the early one (early/init.c), the
 * handoff to the full core (core/late/init.c), the running kernel's
 * drivers and run-time kgdboc (core/late/).  So the full core reads its
 * configuration here and never includes early/'s private header
 * (make check-layers).
 */
#ifndef CORE_OPTS_H
#define CORE_OPTS_H

#include <ekdb/types.h>
#include <ekdb/transport.h>

#define EKDB_OPT_MAX 32

struct dbg_opts {
	char ekgdboc[EKDB_OPT_MAX];	/* "ttyS1,115200"; empty: no early debugger */
	struct ekdb_transport_cfg ekgdboc_dev[2];	/* its devices (kbd, then a serial line) */
	unsigned n_ekgdboc_dev;
	char kgdboc[EKDB_OPT_MAX];	/* recorded for the late core */
	bool kgdboc_earlycon;		/* kgdboc_earlycon[=name]: kgdb on the earlycon */
	char kgdboc_earlycon_name[EKDB_OPT_MAX];	/* the name given, or empty */
	bool kgdbwait;
	bool kgdbcon;
	bool bad;			/* a debugger option was malformed: stay off */
	char bad_opt[EKDB_OPT_MAX];	/* the first one refused */
	bool kgdbdbgp;			/* kgdbdbgp=N[,secs] given (and well formed) */
	struct ekdb_transport_cfg kgdbdbgp_dev;	/* N: the Nth EHCI debug port, poll period */
	bool kgdbxdbc;			/* kgdbxdbc=N[,secs] given (and well formed) */
	struct ekdb_transport_cfg kgdbxdbc_dev;	/* N: the Nth xHCI controller's DbC, poll period */
	u32 cmd_enable;			/* kdb.cmd_enable= (KDB_ENABLE_* mask) */
};

extern struct dbg_opts ekdb_opts;

/* Every debugger option's handler refuses through this (the debugger stays off). */
int dbg_opts_refuse(const char *name, int err);

#endif
