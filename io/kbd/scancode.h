/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scancode.h - PS/2 scan code set 1 (as the i8042 translates it) to the
 * bytes a terminal would send: ASCII with shift/ctrl/caps lock applied,
 * VT100 escape sequences for the E0 keys.  Pure (host-tested).
 *
 *  Enter, keypad Enter  '\r'          Backspace  0x08 (kdb's, as Linux's kdb)
 *  Tab                  '\t'          Esc        0x1b
 *  Ctrl-letter          letter & 0x1f (Ctrl-C = 0x03)
 *  Up/Down/Right/Left   ESC [ A / B / C / D
 *  Home / End           ESC [ 1 ~ / ESC [ 4 ~      Delete  ESC [ 3 ~
 *  Insert / PgUp / PgDn ESC [ 2 ~ / ESC [ 5 ~ / ESC [ 6 ~
 * Releases only update modifier state; the Enter release is recorded so a
 * debugger can absorb it before giving the keyboard back.
 * Magic SysRq: a key pressed while Alt and SysRq (Alt+PrtSc: 0x54, or
 * E0 37 with Alt down) are held gives no byte; it is kept as the pending
 * sysrq command for kbd_sysrq_take() (the polled debugger transport and
 * an interrupt-driven keyboard driver both use it: sysrq-g breaks in).  Bytes the
 * controller marks as mouse data (status AUXDATA) are ignored.
 */
#ifndef IO_KBD_SCANCODE_H
#define IO_KBD_SCANCODE_H

#include <ekdb/types.h>

#define KBD_SEQ_MAX		4	/* longest output of one scan code */
#define I8042_STR_OBF		0x01	/* output buffer full: a byte to read */
#define I8042_STR_IBF		0x02	/* input buffer full: controller busy */
#define I8042_STR_AUXDATA	0x20	/* the byte came from the mouse port */

#define KBD_BACKSPACE		0x08

struct kbd_state {
	bool lshift, rshift, lctrl, rctrl, lalt, ralt;
	bool caps_lock;
	bool e0;		/* the previous byte was the 0xE0 prefix */
	u8 e1_skip;		/* bytes of a Pause (E1) sequence still to drop */
	bool enter_down;	/* Enter pressed and its release not seen yet */
	bool sysrq_down;	/* SysRq held (with Alt) */
	char sysrq_key;		/* command key pressed with Alt+SysRq, not yet taken */
};

/* All keys up, caps lock off. */
void kbd_reset(struct kbd_state *s);

/*
 * kbd_feed - decode one byte read from the controller with @status (the
 * status register read just before it).  Writes 0..KBD_SEQ_MAX bytes to
 * @out and returns how many.
 */
int kbd_feed(struct kbd_state *s, u8 status, u8 data, char *out);

/* kbd_sysrq_take - the pending Alt+SysRq command key ('g', 't', ...), or 0. */
char kbd_sysrq_take(struct kbd_state *s);

#endif
