/* SPDX-License-Identifier: GPL-2.0 */
/* drivers.h - the reference kernel's device drivers (kernel-glue/drivers/), in start order. */
#ifndef KERNEL_DRIVERS_H
#define KERNEL_DRIVERS_H

/* bochs_kms.c: QEMU's std VGA takes the screen (after the debugger's handoff). */
void bochs_kms_init(void);
/* fbdraw.c: test_fbdraw[=MS]: a kernel thread draws a moving pattern on the kms screen. */
void fbdraw_start(void);

/* ehci_dbgp.c: the USB debug port's device taken over from the early driver (before the handoff). */
void ehci_dbgp_init(void);
/* ehci_hcd.c: every EHCI controller claimed, reset and started (the debug port kept working). */
void ehci_hcd_init(void);

/* xhci_dbc.c: the xHCI DbC taken over from the early driver (before the handoff). */
void xhci_dbc_init(void);
void xhci_dbc_handoff_done(void);
/* xhci_hcd.c: every xHCI controller claimed, reset and started (the DbC enabled again). */
void xhci_hcd_init(void);

#endif
