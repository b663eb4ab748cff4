/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhci_dbc.h - the running kernel's xHCI Debug Capability driver
 * (xhci_dbc.c) and the calls the xHCI host-controller driver (xhci_hcd.c)
 * makes around a controller reset, in the EHCI debug port's pattern
 * (ehci_dbgp.h: dbgp_reset_prep()/dbgp_external_startup()).
 */
#ifndef KERNEL_DRIVERS_XHCI_DBC_H
#define KERNEL_DRIVERS_XHCI_DBC_H

#include <ekdb/types.h>

/*
 * xhci_dbc_init() - take the DbC over from the early driver (after mm_init,
 * before the debugger's handoff, one CPU running); xhci_dbc_handoff_done()
 * after the handoff says what happened.  Nothing happens without an early DbC.
 */
void xhci_dbc_init(void);
void xhci_dbc_handoff_done(void);

/*
 * xdbc_reset_prep() - the xHCI driver is about to halt and reset the
 * controller @bdf.  Returns 1 when the DbC stays in use (the debugger, or
 * earlyprintk=xdbcN,keep): output is held until xdbc_external_startup(),
 * which the caller must call right after the reset.  0: not in use here.
 */
int xdbc_reset_prep(u32 bdf);
/*
 * xdbc_external_startup() - after the reset: HCRST resets the DbC too
 * (xHCI 1.1 section 5.4.1: every register to its initial value), so it is
 * enabled again (the far host enumerates it again; the debugger's session
 * goes on); a DbC the reset left enabled is kept as it is.  0 or -errno.
 */
int xdbc_external_startup(u32 bdf);

#endif
