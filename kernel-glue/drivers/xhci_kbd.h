/* SPDX-License-Identifier: GPL-2.0 */
/* xhci_kbd.h - the running kernel's USB keyboards on its xHCI controllers (xhci_kbd.c). */
#ifndef DRIVERS_XHCI_KBD_H
#define DRIVERS_XHCI_KBD_H

#include <ekdb/types.h>

/*
 * xhci_kbd_probe - reset the controller at PCI @bdf (@dbc_in_use: its
 * Debug Capability is in use, the DbC driver is told around the reset:
 * xdbc_reset_prep()/xdbc_external_startup()), run it with rings of this
 * driver and enumerate the keyboards there, each carrying on from the
 * early driver's keyboard on the same port.  Process context.  How many
 * keyboards, or -errno when the controller was not started (the xHCI
 * driver then runs it bare).
 */
int xhci_kbd_probe(u32 bdf, bool dbc_in_use);

/*
 * xhci_kbd_start - after every controller was probed (also with nousb):
 * the polling thread, the debugger's "kbd" transport when there is no
 * PS/2 keyboard (ekdb_register_io(): the early one taken over), the
 * run-time kgdboc=kbd driver, and the message when kgdboc=/ekgdboc= want
 * a keyboard and the machine has none.
 */
void xhci_kbd_start(void);

/*
 * The debugger's side, for the PS/2 driver's transport too (kbd is every
 * keyboard): a byte typed on a USB keyboard while the debugger is stopped
 * (EKDB_CHAR_SYSRQ(key), EKDB_NO_CHAR), and its cleanup when it leaves.
 * Debugger code: no interrupt, no allocation, no lock waited for.
 */
int xhci_kbd_dbg_getc(void);
void xhci_kbd_dbg_post(void);

#endif
