/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ehci_dbgp.h - the EHCI USB debug port as an early console
 * (earlyprintk=dbgp[N][,keep]) and a debugger transport (kgdbdbgp=N[,secs]),
 * both on one port at once.
 *
 * The device's public side: what a host and the running kernel's drivers
 * (kernel-glue/drivers/ehci_dbgp.c, which takes the port over, and
 * ehci_hcd.c, which must leave it alone) may use of the debugger's driver;
 * nothing else under io/ehci-dbgp/ is theirs (make check-layers).  With
 * the constructors below: dbgp.h (the EHCI and debug-port registers, the
 * device state a successor imports) and dbgp_chan.h (the polled channel
 * the late driver runs on its own register accessors).
 */
#ifndef IO_EHCI_DBGP_H_PUBLIC
#define IO_EHCI_DBGP_H_PUBLIC

#include <ekdb/transport.h>
#include "dbgp.h"
#include "dbgp_chan.h"

/* earlyprintk=dbgp[N]: @opt is "dbgp", "dbgp1" (",keep" already taken off). */
int early_dbgp_console_init(const char *opt, bool keep);
/*
 * kgdbdbgp=N[,secs]: the transport on the Nth debug port; @poll_secs: how
 * often the running kernel looks for a break-in (0: never, as in Linux).
 */
struct ekdb_transport *dbgp_transport_init(unsigned index, unsigned poll_secs, int *err);
/* Parse "N[,secs]"; 0 or -EKDB_EINVAL. */
int dbgp_parse_kgdbdbgp(const char *v, unsigned *index, unsigned *secs);

/*
 * early_dbgp_transport - the early driver's transport while it owns a set
 * up device (also when only earlyprintk=dbgp uses it), else NULL: what the
 * running kernel's driver takes over (export_state, then deinit).
 */
struct ekdb_transport *early_dbgp_transport(void);

#endif
