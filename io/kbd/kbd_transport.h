/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbd_transport.h - ekgdboc=kbd: the local console as a debugger
 * transport, input from the keyboards (PS/2 and USB, polled), output on the screen
 * (io/vga).  An output-only console side: is_console is set.
 */
#ifndef IO_KBD_TRANSPORT_H
#define IO_KBD_TRANSPORT_H

#include <ekdb/transport.h>

/*
 * kbd_screen_transport - the keyboard+screen transport (the kind table
 * instantiates it for ekgdboc=kbd; set up on first use; also used by the test_kbd kernel self-test).
 * Input from the PS/2 keyboard and every USB boot keyboard on the xHCI
 * root ports (io/xhci-kbd/usbkbd.h).  NULL with *@err = -EKDB_ENODEV
 * when there is no keyboard at all.
 */
struct ekdb_transport *kbd_screen_transport(int *err);

/* Wait (bounded, ~@loops polls) for the release of an Enter pressed in the debugger. */
void kbd_absorb_enter_release(unsigned long loops);

/*
 * The screen side of a keyboard transport (output on io/vga's
 * screen, cursor on while stopped): the early polled transport's and the
 * running kernel's keyboard driver's (kernel-glue/drivers/i8042_kbd.c).
 */
void kbd_screen_putc(struct ekdb_transport *t, u8 c);
void kbd_screen_flush(struct ekdb_transport *t);
void kbd_screen_pre(struct ekdb_transport *t);

#endif
