/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbd.h - the keyboard device, public side: what the running kernel's
 * keyboard driver (kernel-glue/drivers/i8042_kbd.c) and its tests may use
 * of the debugger's polled keyboard.  Nothing else under io/kbd/ is
 * theirs (make check-layers).
 *
 *   i8042.h          the controller's ports and status bits, polled access
 *   scancode.h       set-1 scancodes to kdb's keys (modifiers, Caps Lock, sysrq)
 *   kbd_transport.h  the kbd transport (keys in, the screen out): made,
 *                    fed by an IRQ driver, export/import state
 *   ../xhci-kbd/usbkbd.h  the USB keyboards kbd also reads: the kernel's
 *                    xHCI driver (xhci_hcd.c) takes their controller
 *                    (usbkbd_early_release) before it resets it, and its
 *                    keyboard driver (xhci_kbd.c, on ../xhci-kbd/xhc.h's
 *                    code) takes each keyboard's state (usbkbd_early_take)
 *   ../xhci-kbd/xhc.h  the polled xHCI keyboards (struct xhc_set): the
 *                    kernel's keyboard driver runs its controllers with them
 */
#ifndef IO_KBD_KBD_H
#define IO_KBD_KBD_H

#include "i8042.h"
#include "scancode.h"
#include "kbd_transport.h"
#include "../xhci-kbd/usbkbd.h"
#include "../xhci-kbd/xhc.h"

#endif
