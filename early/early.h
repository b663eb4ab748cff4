/* SPDX-License-Identifier: GPL-2.0 */
/* early.h - private to early/: the debugger options parsed from the command line. */
#ifndef EARLY_EARLY_H
#define EARLY_EARLY_H

#include <ekdb/types.h>
#include <ekdb/transport.h>

#define EKDB_OPT_MAX 32

struct ekdb_early_opts {
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

extern struct ekdb_early_opts ekdb_opts;

/* console.c: the serial port earlycon= set up (and its name: uart8250, uart), or NULL */
const struct uart_port *early_earlycon_port(const char **name);

/* transports.c: the kinds of transport (include/ekdb/transport.h) */
struct uart_port;
const struct ekdb_transport_kind_ops *early_transport_kind_of(enum ekdb_transport_kind kind);
/* ekgdboc='s value: one device, or kbd with a serial line (@cfgs holds 2). */
int early_ekgdboc_parse(const char *v, struct ekdb_transport_cfg *cfgs, unsigned *n);
void early_transport_cfg_to_uart(const struct ekdb_transport_cfg *cfg, struct uart_port *p);
/* The serial kind's instance for a port already described (the earlycon's). */
struct ekdb_transport *early_transport_serial_from(const struct uart_port *port, int *err);

/* storage.c: the static kdb+gdb sessions and the front end over them */
const struct dbg_frontend *early_frontend_get(void);

/* handoff.c: what the takeover before start_kernel did, logged once a console exists */
void ekdb_handoff_report(void);
bool ekdb_handoff_refused(void);

#endif
