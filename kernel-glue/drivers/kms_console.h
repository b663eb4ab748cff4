/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kms_console.h - the console on the kms driver's mode: a text grid drawn
 * on page 0 (the kernel's screen) or, while the debugger runs, on page 1.
 */
#ifndef DRIVERS_KMS_CONSOLE_H
#define DRIVERS_KMS_CONSOLE_H

#include <ekdb/types.h>

struct kms_mode;

/* Allocate the grid and the two renderers for @m (before the modeset). */
int kms_console_prepare(const struct kms_mode *m);
/*
 * After the modeset: take the early screen's text (vga_screen_hand_over),
 * draw both pages and become the printk console ("kms").
 */
void kms_console_take_over(void);
bool kms_console_ready(void);

/* Terminal output (not drawn until kms_console_sync()). */
void kms_console_write(const char *s, size_t len);
void kms_console_sync(void);
/* The same, unless another context is drawing right now (polling paths, the tick). */
void kms_console_sync_try(void);
void kms_console_cursor(bool on);

/*
 * The debugger's page (kms_debug.c): @on: draw on page 1 from now on (and
 * bring it up to date); off: back to page 0, which is not touched until
 * the next console output.  Called with every other CPU stopped.
 */
void kms_console_debug(bool on);
/*
 * Someone else draws on page 0 (test_fbdraw; Linux's KD_GRAPHICS): the
 * console stops drawing there until it is given back (then redraws).
 */
void kms_console_set_graphics(bool on);

/* Statistics for messages and tests. */
struct kms_console_info {
	u16 cols, rows;
	u16 rows_kept;		/* rows of early-console text carried over */
};
bool kms_console_info(struct kms_console_info *info);

#endif
