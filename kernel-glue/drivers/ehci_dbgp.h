/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ehci_dbgp.h - the running kernel's USB debug port driver (ehci_dbgp.c)
 * and the calls the EHCI host-controller driver (ehci_hcd.c) makes around
 * a controller reset: Linux's dbgp_reset_prep()/dbgp_external_startup().
 */
#ifndef KERNEL_DRIVERS_EHCI_DBGP_H
#define KERNEL_DRIVERS_EHCI_DBGP_H

#include <ekdb/types.h>

/*
 * ehci_dbgp_init() - take the debug device over from the early driver
 * (after mm_init, before the debugger's handoff, one CPU running).
 * Nothing happens when the early driver has no device.
 */
void ehci_dbgp_init(void);

/*
 * dbgp_reset_prep() - the EHCI driver is about to stop and reset the
 * controller @bdf.  Returns 1 when the debug port stays in use (the
 * debugger, or earlyprintk=dbgpN,keep): the caller must call
 * dbgp_external_startup() right after the reset.  Returns 0 when nobody
 * needs it any more: the port is released (a console without ",keep"
 * stops here, as in Linux) or is not this controller's.
 */
int dbgp_reset_prep(u32 bdf);
/*
 * dbgp_external_startup() - after the reset: the controller runs again
 * and the device is used as it was (enumerated again only if the reset
 * took the port down).  0 or -errno.
 */
int dbgp_external_startup(u32 bdf);

#endif
