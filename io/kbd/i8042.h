/* SPDX-License-Identifier: GPL-2.0 */
/* i8042.h - the PS/2 controller, polled: data port 0x60, status/command port 0x64. */
#ifndef IO_KBD_I8042_H
#define IO_KBD_I8042_H

#include <ekdb/types.h>

/*
 * i8042_init - find the controller and make it usable for polling: drop
 * what the firmware left in the output buffer, make sure the keyboard
 * port is enabled and translation to scan code set 1 is on.
 * Returns 0 or -EKDB_ENODEV (status reads 0xFF: no controller).
 * *@config gets the controller configuration byte found (for messages).
 */
int i8042_init(u8 *config);
/* One byte if the controller has one: true, *@status (AUXDATA: mouse), *@data. */
bool i8042_read(u8 *status, u8 *data);
/* Drop everything waiting in the output buffer (bounded). Returns bytes dropped. */
unsigned i8042_flush(void);

/*
 * For the running kernel's driver: turn the keyboard interrupt (controller
 * configuration bit 0) on or off; false when the controller did not answer.
 */
bool i8042_kbd_irq(bool on);
/* Send one byte to the keyboard (a command such as 0xED, or its argument). */
bool i8042_kbd_write(u8 byte);

#endif
