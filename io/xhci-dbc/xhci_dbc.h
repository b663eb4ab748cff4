/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhci_dbc.h - the xHCI Debug Capability as an early console
 * (earlyprintk=xdbc[N][,keep], Linux's parameter) and a debugger transport
 * (kgdbxdbc=N[,secs]: kgdbdbgp='s sibling), both on one DbC at once.
 *
 * The device's public side: what a host and the running kernel's drivers
 * (kernel-glue/drivers/xhci_dbc.c, which takes the DbC over, and
 * xhci_hcd.c, which resets the controller around it) may use of the
 * debugger's driver; nothing else under io/xhci-dbc/ is theirs (make
 * check-layers).  With the constructors below: xdbc.h (the DbC's
 * registers, rings and state, the adopt path of the handoff).
 */
#ifndef IO_XHCI_DBC_H_PUBLIC
#define IO_XHCI_DBC_H_PUBLIC

#include <ekdb/transport.h>
#include "xdbc.h"

/* earlyprintk=xdbc[N]: @opt is "xdbc", "xdbc1" (",keep" already taken off). */
int early_xdbc_console_init(const char *opt, bool keep);
/* kgdbxdbc=N[,secs]: the transport on the Nth xHCI controller's DbC. */
struct ekdb_transport *xdbc_transport_init(unsigned index, unsigned poll_secs, int *err);

/*
 * early_xdbc_transport - the early driver's transport while it owns a DbC
 * (console, debugger or both), for the running kernel's driver
 * (kernel-glue/drivers/xhci_dbc.c) to take over; NULL when it has none
 * or already handed it over.
 */
struct ekdb_transport *early_xdbc_transport(void);

/*
 * The early USB keyboard driver (io/xhci-kbd/) resets the controller
 * @bdf (bus << 8 | dev << 3 | fn): early_xdbc_reset_prep() before the
 * halt (this driver's DbC is there: what it gathered is sent and the OUT
 * ring emptied, then the DbC is held until the call after; returns 1,
 * else 0), early_xdbc_external_startup() right after HCRST (DCE found
 * clear: the DbC set up again and enabled, the far host enumerates it
 * once more, the session goes on; 0 or -errno).  The late driver's pair
 * is kernel-glue/drivers/xhci_dbc.h's xdbc_reset_prep()/_external_startup().
 */
int early_xdbc_reset_prep(u32 bdf);
int early_xdbc_external_startup(u32 bdf);

#endif
