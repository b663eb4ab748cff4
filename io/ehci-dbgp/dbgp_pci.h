/* SPDX-License-Identifier: GPL-2.0 */
/* dbgp_pci.h - the EHCI controller on PCI: discovery, firmware handoff, register access. */
#ifndef IO_EHCI_DBGP_PCI_H
#define IO_EHCI_DBGP_PCI_H

#include "dbgp.h"

/*
 * dbgp_pci_find - the @index'th (0-based) EHCI controller with a debug
 * port: fills st->bus/slot/func and returns the capability's offset in
 * config space, or -EKDB_ENODEV; *@n_ehci / *@n_dbgp: how many EHCI
 * controllers and debug ports were seen (for the message).
 */
int dbgp_pci_find(unsigned index, struct dbgp_state *st, unsigned *n_ehci, unsigned *n_dbgp);
/* dbgp_pci_setup - the register BAR and debug port offset from capability @cap; memory on. */
int dbgp_pci_setup(struct dbgp_state *st, u8 cap);
/* dbgp_pci_handoff - take the controller from the firmware (USBLEGSUP at HCCPARAMS.EECP). */
void dbgp_pci_handoff(const struct dbgp_state *st, u32 hccparams);
/* dbgp_pci_io - register access to the BAR at @bar_phys (uncached), or NULL. */
struct dbgp_io *dbgp_pci_io(u64 bar_phys);

#endif
