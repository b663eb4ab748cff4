/* SPDX-License-Identifier: GPL-2.0 */
/*
 * keys.h - named key codes of the kdb line editor.  Bytes from a serial
 * line arrive as ASCII and VT100 escape sequences (ESC [ A ...), which
 * lineedit.c decodes into these codes; a transport that knows its keys
 * (io/kbd) may instead return a KDB_KEY_* code (> 0xff) from getc
 * directly.  Control characters keep their ASCII value.
 */
#ifndef KDB_KEYS_H
#define KDB_KEYS_H

#define KDB_KEY_CTRL(c)	((c) & 0x1f)
#define KDB_KEY_BS	0x08	/* Ctrl-H */
#define KDB_KEY_TAB	0x09
#define KDB_KEY_LF	0x0a
#define KDB_KEY_CR	0x0d
#define KDB_KEY_ESC	0x1b
#define KDB_KEY_DEL	0x7f	/* what most terminals send for Backspace */

#define KDB_KEY_UP	0x101
#define KDB_KEY_DOWN	0x102
#define KDB_KEY_RIGHT	0x103
#define KDB_KEY_LEFT	0x104
#define KDB_KEY_HOME	0x105
#define KDB_KEY_END	0x106
#define KDB_KEY_DELETE	0x107	/* delete the character under the cursor */
#define KDB_KEY_NONE	0x1ff	/* an escape sequence we ignore */

#endif
