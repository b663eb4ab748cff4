/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usbkbd.h - the early USB keyboards: HID boot keyboards on the root ports
 * of every xHCI controller (up to XHC_MAX controllers, XHC_DEVS
 * keyboards), polled; the input side of ekgdboc=kbd / kgdboc=kbd beside
 * the PS/2 keyboard (io/kbd/kbd_transport.c).  Static storage only.
 */
#ifndef IO_XHCI_KBD_USBKBD_H
#define IO_XHCI_KBD_USBKBD_H

#include <ekdb/types.h>

/*
 * usbkbd_early_init - find the xHCI controllers, take them from the
 * firmware, reset them and enumerate the keyboards on their root ports.
 * Returns how many keyboards were found (0: none; the log says why).
 * Once only; later calls return the same number.
 */
unsigned usbkbd_early_init(void);

/*
 * usbkbd_early_getc - a byte typed on any USB keyboard,
 * EKDB_CHAR_SYSRQ(key) for Alt+SysRq+key, or EKDB_NO_CHAR.  Reads the
 * event rings in memory (cheap when nothing happened), repeats held keys,
 * sends the LEDs.  @stopped (the debugger waits for input): also handle
 * keyboards plugged in or unplugged since (enumeration takes a while).
 */
int usbkbd_early_getc(bool stopped);

/* Keyboards being read now. */
unsigned usbkbd_early_count(void);

/*
 * usbkbd_early_release - the running kernel's xHCI driver takes the
 * controller at PCI @bdf (bus << 8 | dev << 3 | fn): the early driver
 * never touches it again (its keyboards' state waits for
 * usbkbd_early_take()).  Returns how many keyboards were on it.
 */
unsigned usbkbd_early_release(u32 bdf);

struct xhc_set;
struct xhc_dev;

/* The early driver's controllers and keyboards (usbkbd_takeover.c reads them). */
struct xhc_set *usbkbd_early_set(void);

/*
 * usbkbd_early_take - the running kernel's xHCI driver enumerated keyboard
 * @nd again on its own rings (after usbkbd_early_release() and its reset):
 * if the early driver had a keyboard on the same controller, root port and
 * hub port, @nd gets its decoder state (keys held, modifiers, Caps/Num/
 * Scroll Lock: @nd's LEDs are sent again when they differ) and the bytes
 * decoded and not read yet; the early one is forgotten.  true when there
 * was one (usbkbd_takeover.c).
 */
bool usbkbd_early_take(struct xhc_dev *nd);

#endif
