/* SPDX-License-Identifier: GPL-2.0 */
/* i8042_kbd.h - the running kernel's PS/2 keyboard driver (IRQ 1). */
#ifndef DRIVERS_I8042_KBD_H
#define DRIVERS_I8042_KBD_H

#include <ekdb/types.h>

void i8042_kbd_init(void);

/* Is there a PS/2 keyboard (then it is the debugger's kbd, the USB keyboards beside it)? */
bool i8042_kbd_present(void);

/*
 * Leave the controller to someone else for a while (test_kbd= tests the
 * early polled reader at the end of boot): the interrupt handler reads
 * nothing meanwhile; on resume what is waiting is typed.
 */
void i8042_kbd_pause(bool pause);

#endif
