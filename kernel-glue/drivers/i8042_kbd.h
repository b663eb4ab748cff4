/* SPDX-License-Identifier: GPL-2.0 */
/* i8042_kbd.h - the running kernel's PS/2 keyboard driver (IRQ 1). */
#ifndef DRIVERS_I8042_KBD_H
#define DRIVERS_I8042_KBD_H

void i8042_kbd_init(void);

#endif
