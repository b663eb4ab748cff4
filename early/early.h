/* SPDX-License-Identifier: GPL-2.0 */
/* early.h - private to early/: what its files share (the options they parse are core/opts.h). */
#ifndef EARLY_EARLY_H
#define EARLY_EARLY_H

#include <ekdb/types.h>
#include <ekdb/transport.h>
#include "../core/opts.h"

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
const struct ekdb_sessions *early_sessions(void);
const struct dbg_frontend *early_frontend_get(void);

/* handoff.c: what the takeover before start_kernel did, logged once a console exists */
void ekdb_handoff_report(void);
bool ekdb_handoff_refused(void);

#endif
